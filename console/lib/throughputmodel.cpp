// SPDX-License-Identifier: AGPL-3.0-or-later
#include "throughputmodel.h"

#include "control/failurecodec.h"
#include "control/protocol.h"

namespace pepsi::console {

using namespace Qt::StringLiterals;
namespace event = protocol::event;
namespace field = protocol::field;

namespace {
// The 10-second rate's failed part: the daemon's share, not a rate of its own: both
// parts then move with the rate the ticks bring every second, and a burst (a
// requeue into a stage that fails them all) is not drawn as runs that went
// well while the snapshots catch up.
double failedPart(const ThroughputRow &row) { return row.stats.rate10s * row.stats.failureShare; }

qint64 failedOf(const StageStatsSnapshot &stats) { return stats.failures + stats.timeouts + stats.crashes; }
} // namespace

void ThroughputModel::applyStatus(const StatusSnapshot &status)
{
    QMap<QString, ThroughputRow> rows;
    for (const PoolSnapshot &pool : status.pools)
        rows.insert(pool.stage, ThroughputRow{status.stats.stages.value(pool.stage)});
    replaceAll(rows);
}

double ThroughputModel::failureRate(const QString &stage) const
{
    return failedPart(pending(stage).value_or(ThroughputRow{}));
}

double ThroughputModel::failureShare(const QString &stage) const
{
    return pending(stage).value_or(ThroughputRow{}).stats.failureShare;
}

bool ThroughputModel::isFailing(const QString &stage) const
{
    return highlighted(pending(stage).value_or(ThroughputRow{}));
}

qint64 ThroughputModel::failedInARow(const QString &stage) const
{
    return pending(stage).value_or(ThroughputRow{}).stats.failedInARow;
}

bool ThroughputModel::highlighted(const ThroughputRow &row) const { return row.stats.failing; }

qint64 ThroughputModel::failedTotal() const
{
    qint64 total = 0;
    for (const ThroughputRow &row : pendingAll())
        total += failedOf(row.stats);
    return total;
}

void ThroughputModel::applyTick(const TickSnapshot &tick, const QDateTime &tickTime)
{
    const QDateTime time = tickTime.isValid() ? tickTime : QDateTime::currentDateTimeUtc();
    const QDateTime horizon = time.addSecs(-HistorySeconds);
    for (auto it = tick.stages.cbegin(); it != tick.stages.cend(); ++it) {
        const double rate = it->rate10s;
        std::optional<ThroughputRow> row = pending(it.key());
        // The tick's rate counts failed runs too; the last snapshot's share
        // says how many of them failed. Before a snapshot brought the stage
        // that is not known: no sample rather than failures drawn as runs
        // that went well.
        if (!row)
            continue;
        row->stats.rate10s = rate;
        put(it.key(), *row);
        const double failed = failedPart(*row);
        QList<Sample> &samples = m_history[it.key()];
        samples.append({time, rate - failed, failed});
        while (!samples.isEmpty() && samples.first().time < horizon)
            samples.removeFirst();
    }
    // A stage gone from the ticks keeps its line until it ages out.
    for (auto it = m_history.begin(); it != m_history.end();) {
        while (!it->isEmpty() && it->first().time < horizon)
            it->removeFirst();
        it = it->isEmpty() ? m_history.erase(it) : std::next(it);
    }
    m_last = time;
    Q_EMIT historyChanged();
}

void ThroughputModel::clearHistory()
{
    m_history.clear();
    m_last = {};
    Q_EMIT historyChanged();
}

QStringList ThroughputModel::headers() const
{
    return {tr("Stage"),    tr("Rate (10 s)"), tr("Failing (10 s)"), tr("Rate (60 s)"), tr("Runs"),
            tr("Failures"), tr("Timeouts"),    tr("Crashes"),        tr("Busy time")};
}

QVariant ThroughputModel::cell(const QString &key, const ThroughputRow &row, int column, int role) const
{
    if (role == Qt::TextAlignmentRole)
        return column == Stage ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && column == FailRate)
        return tr("The failed part of the 10-second rate: failures, timeouts and crashes made up this share of the "
                  "runs that ended in the last 10 s, as the daemon counts them. Highlighted while the daemon says the "
                  "stage is failing.");
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    const StageStatsSnapshot &stats = row.stats;
    switch (column) {
    case Stage:
        return key;
    case Rate10s:
        return role == SortRole ? QVariant(stats.rate10s) : QVariant(formatRate(stats.rate10s));
    case Rate60s:
        return role == SortRole ? QVariant(stats.rate60s) : QVariant(formatRate(stats.rate60s));
    case FailRate:
        if (role == SortRole)
            return failedPart(row);
        return tr("%1 (%2 %)").arg(formatRate(failedPart(row))).arg(protocol::failurePercent(row.stats.failureShare));
    case BusyTime:
        return role == SortRole ? QVariant(stats.busyUsec) : QVariant(formatDuration(stats.busyUsec / 1000));
    case Runs:
        return stats.runs;
    case Failures:
        return stats.failures;
    case Timeouts:
        return stats.timeouts;
    case Crashes:
        return stats.crashes;
    default:
        return {};
    }
}

} // namespace pepsi::console
