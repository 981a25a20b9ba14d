// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "keyedtablemodel.h"

#include <QJsonArray>

namespace pepsi::console {

// Every live worker process (the `workers` reply), with worker_* events
// adding and removing rows between fetches. A worker whose head-of-line
// message has been there for WarnFraction of max_runtime is highlighted: the
// watchdog is about to kill it.
class WorkerModel : public KeyedTableModel
{
    Q_OBJECT

public:
    enum Column { Pid, Stage, State, Messages, Held, Uptime, HeadId, HeadAge, MaxRuntime, ColumnCount };
    static constexpr double WarnFraction = 0.8;

    using KeyedTableModel::KeyedTableModel;

    void applyWorkers(const QJsonArray &workers);
    void applyEvent(const QJsonObject &event);

    // Published pids of a stage (all stages when empty).
    QList<qint64> pids(const QString &stage = {}) const;

protected:
    QStringList headers() const override;
    QVariant cell(const QString &key, const QJsonObject &record, int column, int role) const override;
    bool highlighted(const QJsonObject &record) const override;
};

} // namespace pepsi::console
