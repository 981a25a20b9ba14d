// SPDX-License-Identifier: AGPL-3.0-or-later
#include "queuemodel.h"

#include "control/protocol.h"

#include <QLocale>

namespace pepsi::console {

using namespace Qt::StringLiterals;
namespace field = protocol::field;

namespace {
const auto GrowthField = "_growth"_L1; // ours, not the protocol's: snapshots in a row with a larger backlog
const auto DeltaField = "_delta"_L1;   // ours: pending now minus pending at the snapshot before
} // namespace

void QueueModel::applyStatus(const QJsonObject &status)
{
    const QJsonObject stages = status.value(field::Stages).toObject();
    QMap<QString, QJsonObject> records;
    for (auto it = stages.constBegin(); it != stages.constEnd(); ++it) {
        const QJsonValue queue = it.value().toObject().value(field::Queue);
        if (queue.isObject())
            records.insert(it.key(), queue.toObject());
        else if (pending().contains(it.key()))
            // The database is down: keep the last counts we had rather than show zeros.
            records.insert(it.key(), pending().value(it.key()));
    }
    // Said once for all stages, beside queues_at (doc/control-protocol.rst).
    m_error = status.value(field::QueuesError).toString();
    replaceAll(records);
}

qint64 QueueModel::count(const QString &stage, const QString &status) const
{
    return record(stage).value(status).toInteger();
}

bool QueueModel::isGrowing(const QString &stage) const { return highlighted(record(stage)); }

QJsonObject QueueModel::derive(const QJsonObject &previous, const QJsonObject &next) const
{
    QJsonObject out = next;
    const auto pendingKey = field::Pending;
    int growth = 0;
    qint64 delta = 0;
    if (next.contains(GrowthField)) {
        growth = next.value(GrowthField).toInt(); // a record kept as it was
        delta = next.value(DeltaField).toInteger();
    } else if (previous.contains(pendingKey)) {
        const qint64 before = previous.value(pendingKey).toInteger();
        const qint64 now = next.value(pendingKey).toInteger();
        growth = now > before ? previous.value(GrowthField).toInt() + 1 : 0;
        delta = now - before;
    }
    out.insert(GrowthField, growth);
    out.insert(DeltaField, delta);
    return out;
}

bool QueueModel::highlighted(const QJsonObject &record) const
{
    return record.value(GrowthField).toInt() >= GrowthSnapshots
        && record.value(field::Pending).toInteger() >= GrowthFloor;
}

namespace {
QString signedCount(qint64 n) { return (n > 0 ? u"+"_s : n < 0 ? u"−"_s : QString()) + QLocale().toString(qAbs(n)); }
} // namespace

QStringList QueueModel::headers() const
{
    return {tr("Stage"),     tr("Pending"),        tr("Running"),        tr("Paused"), tr("Failed"),
            tr("Timed out"), tr("Oldest pending"), tr("Pending waited"), tr("Backlog")};
}

QVariant QueueModel::cell(const QString &key, const QJsonObject &record, int column, int role) const
{
    static const QLatin1StringView fields[] = {
        {}, field::Pending, field::Running, field::Paused, field::Failed, field::Timeout};
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
    case Running:
    case Paused:
    case Failed:
    case Timeout:
        return record.value(fields[column]).toInteger();
    case OldestPending: {
        const QJsonValue age = record.value(field::OldestPendingAgeMs);
        if (age.isNull() || age.isUndefined())
            return role == SortRole ? QVariant(qint64(-1)) : QVariant();
        return role == SortRole ? QVariant(age.toInteger()) : QVariant(formatDuration(age.toInteger()));
    }
    case PendingAges: {
        // "10s 150 · 1m 40": the buckets that hold rows, youngest first.
        const QJsonObject ages = record.value(field::PendingAges).toObject();
        const QStringList &buckets = protocol::pendingAgeBuckets();
        if (role == SortRole) {
            qint64 waitedAMinute = 0;
            for (qsizetype i = 2; i < buckets.size(); ++i)
                waitedAMinute += ages.value(buckets.at(i)).toInteger();
            return waitedAMinute;
        }
        QStringList parts;
        for (const QString &bucket : buckets) {
            const qint64 n = ages.value(bucket).toInteger();
            if (n > 0)
                parts.append(tr("%1 %L2").arg(bucket).arg(n));
        }
        return parts.join(u" · "_s);
    }
    case Trend:
        if (role == SortRole)
            return record.value(GrowthField).toInt();
        if (highlighted(record))
            return tr("growing (%1)").arg(signedCount(record.value(DeltaField).toInteger()));
        if (record.value(DeltaField).toInteger() > 0)
            return tr("rising (%1)").arg(signedCount(record.value(DeltaField).toInteger()));
        if (record.value(DeltaField).toInteger() < 0)
            return tr("falling (%1)").arg(signedCount(record.value(DeltaField).toInteger()));
        return tr("steady");
    default:
        return {};
    }
}

} // namespace pepsi::console
