// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "control/snapshots.h"
#include "keyedtablemodel.h"

#include <QJsonObject>

namespace pepsi::console {

// Every live worker process (the `workers` reply), with worker_* events
// adding and removing rows between fetches. A worker whose head-of-line
// message has been there for WarnFraction of max_runtime is highlighted: the
// watchdog is about to kill it.
class WorkerModel : public RecordTableModel<WorkerSnapshot>
{
    Q_OBJECT

public:
    enum Column { Pid, Stage, State, Messages, Held, Uptime, HeadId, HeadAge, MaxRuntime, ColumnCount };
    static constexpr double WarnFraction = 0.8;

    using RecordTableModel::RecordTableModel;

    void applyWorkers(const QList<WorkerSnapshot> &workers);
    void applyEvent(const QJsonObject &event);

    // Published pids of a stage (all stages when empty).
    QList<qint64> pids(const QString &stage = {}) const;

protected:
    QStringList headers() const override;
    QVariant cell(const QString &key, const WorkerSnapshot &worker, int column, int role) const override;
    bool highlighted(const WorkerSnapshot &worker) const override;
};

} // namespace pepsi::console
