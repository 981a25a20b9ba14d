// SPDX-License-Identifier: AGPL-3.0-or-later
#include "queuemodel.h"

#include "control/protocol.h"

#include <QLocale>

namespace pepsi::console {

using namespace Qt::StringLiterals;
namespace field = protocol::field;

void QueueModel::applyStatus(const StatusSnapshot &status)
{
    QMap<QString, QueueRow> rows;
    for (const PoolSnapshot &pool : status.pools) {
        const std::optional<QueueRow> previous = pending(pool.stage);
        if (!status.queues) {
            // The database is down: keep the last counts we had rather than show zeros.
            if (previous)
                rows.insert(pool.stage, *previous);
            continue;
        }
        QueueRow row{status.queues->stages.value(pool.stage)};
        if (previous) {
            row.growth = row.queue.pending > previous->queue.pending ? previous->growth + 1 : 0;
            row.delta = row.queue.pending - previous->queue.pending;
        }
        rows.insert(pool.stage, row);
    }
    // Said once for all stages, beside queues_at (doc/control-protocol.rst).
    m_error = status.queuesError;
    replaceAll(rows);
}

qint64 QueueModel::count(const QString &stage, const QString &status) const
{
    const StageQueue queue = record(stage).queue;
    if (status == field::Pending)
        return queue.pending;
    if (status == field::Running)
        return queue.running;
    if (status == field::Paused)
        return queue.paused;
    if (status == field::Failed)
        return queue.failed;
    if (status == field::Timeout)
        return queue.timeout;
    return 0;
}

bool QueueModel::isGrowing(const QString &stage) const { return highlighted(record(stage)); }

bool QueueModel::highlighted(const QueueRow &row) const
{
    return row.growth >= GrowthSnapshots && row.queue.pending >= GrowthFloor;
}

namespace {
QString signedCount(qint64 n) { return (n > 0 ? u"+"_s : n < 0 ? u"−"_s : QString()) + QLocale().toString(qAbs(n)); }
} // namespace

QStringList QueueModel::headers() const
{
    return {tr("Stage"),     tr("Pending"),        tr("Running"),        tr("Paused"), tr("Failed"),
            tr("Timed out"), tr("Oldest pending"), tr("Pending waited"), tr("Backlog")};
}

QVariant QueueModel::cell(const QString &key, const QueueRow &row, int column, int role) const
{
    const StageQueue &queue = row.queue;
    if (role == Qt::TextAlignmentRole)
        return column == Stage || column == Trend ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && column == PendingAges)
        return tr("How long the pending rows have waited at this stage (since they became pending here), as "
                  "Postfix's qshape counts its queue: under 1 s, 1–10 s, 10–60 s, 1–10 min, 10–60 min, an hour "
                  "or more. Sorted by the rows that waited a minute or more.");
    if (role == Qt::ToolTipRole && column == Trend)
        return tr("How the pending backlog moved since the snapshot before (the console asks for one every few "
                  "seconds). Highlighted, \"growing\": it grew in %1 snapshots in a row and holds at least %L2 "
                  "messages: the stage does not keep up.")
            .arg(GrowthSnapshots)
            .arg(GrowthFloor);
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    switch (column) {
    case Stage:
        return key;
    case Pending:
        return queue.pending;
    case Running:
        return queue.running;
    case Paused:
        return queue.paused;
    case Failed:
        return queue.failed;
    case Timeout:
        return queue.timeout;
    case OldestPending: {
        if (!queue.oldestPendingAgeMs)
            return role == SortRole ? QVariant(qint64(-1)) : QVariant();
        const qint64 age = *queue.oldestPendingAgeMs;
        return role == SortRole ? QVariant(age) : QVariant(formatDuration(age));
    }
    case PendingAges: {
        // "10s 150 · 1m 40": the buckets that hold rows, youngest first.
        const QStringList &buckets = protocol::pendingAgeBuckets();
        if (role == SortRole) {
            qint64 waitedAMinute = 0;
            for (size_t i = 2; i < queue.pendingAges.size(); ++i)
                waitedAMinute += queue.pendingAges.at(i);
            return waitedAMinute;
        }
        QStringList parts;
        for (qsizetype i = 0; i < buckets.size() && size_t(i) < queue.pendingAges.size(); ++i) {
            const qint64 n = queue.pendingAges.at(size_t(i));
            if (n > 0)
                parts.append(tr("%1 %L2").arg(buckets.at(i)).arg(n));
        }
        return parts.join(u" · "_s);
    }
    case Trend:
        if (role == SortRole)
            return row.growth;
        if (highlighted(row))
            return tr("growing (%1)").arg(signedCount(row.delta));
        if (row.delta > 0)
            return tr("rising (%1)").arg(signedCount(row.delta));
        if (row.delta < 0)
            return tr("falling (%1)").arg(signedCount(row.delta));
        return tr("steady");
    default:
        return {};
    }
}

} // namespace pepsi::console
