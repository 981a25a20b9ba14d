// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "keyedtablemodel.h"

#include <QDateTime>
#include <QList>
#include <QPointF>

namespace pepsi::console {

// Per-stage statistics (status → stages.*.stats) and, from every `tick`, the
// history of each stage's 10-second rate over the last HistorySeconds, for
// the throughput plot.
class ThroughputModel : public KeyedTableModel
{
    Q_OBJECT

public:
    enum Column { Stage, Rate10s, Rate60s, Runs, Failures, Timeouts, Crashes, BusyTime, ColumnCount };
    static constexpr int HistorySeconds = 600;

    using KeyedTableModel::KeyedTableModel;

    void applyStatus(const QJsonObject &status);
    void applyEvent(const QJsonObject &event);

    struct Sample
    {
        QDateTime time; // UTC
        double rate = 0;
    };
    // Oldest first.
    QList<Sample> history(const QString &stage) const { return m_history.value(stage); }
    QStringList historyStages() const { return m_history.keys(); }
    QDateTime lastSampleTime() const { return m_last; }
    void clearHistory();

Q_SIGNALS:
    void historyChanged();

protected:
    QStringList headers() const override;
    QVariant cell(const QString &key, const QJsonObject &record, int column, int role) const override;

private:
    QMap<QString, QList<Sample>> m_history;
    QDateTime m_last;
};

} // namespace pepsi::console
