// SPDX-License-Identifier: AGPL-3.0-or-later
#include "queuemodel.h"

namespace pepsi::console {

using namespace Qt::StringLiterals;

namespace {
const auto GrowthField = "_growth"_L1; // ours, not the protocol's: snapshots in a row with a larger backlog
}

void QueueModel::applyStatus(const QJsonObject &status)
{
    const QJsonObject stages = status.value("stages"_L1).toObject();
    QStringList errors;
    QMap<QString, QJsonObject> records;
    for (auto it = stages.constBegin(); it != stages.constEnd(); ++it) {
        const QJsonObject stage = it.value().toObject();
        const QJsonValue queue = stage.value("queue"_L1);
        if (queue.isObject()) {
            records.insert(it.key(), queue.toObject());
        } else {
            // The database is down: keep the last counts we had rather than show zeros.
            if (pending().contains(it.key()))
                records.insert(it.key(), pending().value(it.key()));
            const QString why = stage.value("queues_error"_L1).toString();
            if (!why.isEmpty() && !errors.contains(why))
                errors.append(why);
        }
    }
    m_error = errors.join(u"; "_s);
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
    const auto pendingKey = "pending"_L1;
    int growth = 0;
    if (next.contains(GrowthField)) {
        growth = next.value(GrowthField).toInt(); // a record kept as it was
    } else if (previous.contains(pendingKey)) {
        const qint64 before = previous.value(pendingKey).toInteger();
        const qint64 now = next.value(pendingKey).toInteger();
        growth = now > before ? previous.value(GrowthField).toInt() + 1 : 0;
    }
    out.insert(GrowthField, growth);
    return out;
}

bool QueueModel::highlighted(const QJsonObject &record) const
{
    return record.value(GrowthField).toInt() >= GrowthSnapshots
        && record.value("pending"_L1).toInteger() >= GrowthFloor;
}

QStringList QueueModel::headers() const
{
    return {tr("Stage"),  tr("Pending"),   tr("Running"),        tr("Paused"),
            tr("Failed"), tr("Timed out"), tr("Oldest pending"), tr("Backlog")};
}

QVariant QueueModel::cell(const QString &key, const QJsonObject &record, int column, int role) const
{
    static const char *const fields[] = {nullptr, "pending", "running", "paused", "failed", "timeout"};
    if (role == Qt::TextAlignmentRole)
        return column == Stage || column == Trend ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
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
        return record.value(QLatin1String(fields[column])).toInteger();
    case OldestPending: {
        const QJsonValue age = record.value("oldest_pending_age_ms"_L1);
        if (age.isNull() || age.isUndefined())
            return role == SortRole ? QVariant(qint64(-1)) : QVariant();
        return role == SortRole ? QVariant(age.toInteger()) : QVariant(formatDuration(age.toInteger()));
    }
    case Trend:
        if (role == SortRole)
            return record.value(GrowthField).toInt();
        if (highlighted(record))
            return tr("growing");
        return record.value(GrowthField).toInt() > 0 ? tr("grew") : tr("steady");
    default:
        return {};
    }
}

} // namespace pepsi::console
