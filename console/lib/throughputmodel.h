// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "control/snapshots.h"
#include "keyedtablemodel.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QPointF>

namespace pepsi::console {

// A stage's statistics as the last snapshot brought them (the 10-second rate
// as the last tick did), with the daemon's failure share and verdict.
struct ThroughputRow
{
    StageStatsSnapshot stats;

    bool operator==(const ThroughputRow &) const = default;
};

// Per-stage statistics (status → stages.*.stats) and, from every `tick`, the
// history of each stage's 10-second rate over the last HistorySeconds, for
// the throughput plot. The daemon's rate counts every run that ended, failed
// ones too; the daemon's failure share of the last snapshot splits it, so
// that a stage that fails everything does not look busy and healthy:
// history() holds the runs that did not fail and the failures apart, and
// isFailing() is the daemon's verdict (doc/control-protocol.rst,
// stage_failing), never one of our own.
class ThroughputModel : public RecordTableModel<ThroughputRow>
{
    Q_OBJECT

public:
    enum Column { Stage, Rate10s, FailRate, Rate60s, Runs, Failures, Timeouts, Crashes, BusyTime, ColumnCount };
    static constexpr int HistorySeconds = 600;

    using RecordTableModel::RecordTableModel;

    void applyStatus(const StatusSnapshot &status);
    // `time`: the tick's.
    void applyTick(const TickSnapshot &tick, const QDateTime &time);

    struct Sample
    {
        QDateTime time;    // UTC
        double rate = 0;   // runs per second that did not fail
        double failed = 0; // failures, timeouts and crashes per second
    };
    // Oldest first.
    QList<Sample> history(const QString &stage) const { return m_history.value(stage); }
    QStringList historyStages() const { return m_history.keys(); }
    QDateTime lastSampleTime() const { return m_last; }
    void clearHistory();

    // The daemon's share of failures, timeouts and crashes among the stage's
    // recent runs (0 without runs, before the first snapshot, and from a
    // daemon too old to send it), and that share of the current 10-second rate.
    double failureShare(const QString &stage) const;
    double failureRate(const QString &stage) const;
    // The daemon's verdict: from its stage_failing to its stage_recovered.
    bool isFailing(const QString &stage) const;
    // The stage's latest runs that failed since its last success (the
    // daemon's count): says a stage still fails when nothing runs now.
    qint64 failedInARow(const QString &stage) const;
    // All failures, timeouts and crashes since the daemon started (every stage).
    qint64 failedTotal() const;

Q_SIGNALS:
    void historyChanged();

protected:
    QStringList headers() const override;
    QVariant cell(const QString &key, const ThroughputRow &row, int column, int role) const override;
    bool highlighted(const ThroughputRow &row) const override;

private:
    QMap<QString, QList<Sample>> m_history;
    QDateTime m_last;
};

} // namespace pepsi::console
