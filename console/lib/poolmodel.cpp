// SPDX-License-Identifier: AGPL-3.0-or-later
#include "poolmodel.h"

#include <QDateTime>

namespace pepsi::console {

using namespace Qt::StringLiterals;

void PoolModel::applyStatus(const QJsonObject &status)
{
    const QJsonObject stages = status.value("stages"_L1).toObject();
    QMap<QString, QJsonObject> records;
    for (auto it = stages.constBegin(); it != stages.constEnd(); ++it) {
        QJsonObject pool = it.value().toObject();
        // The queue and the statistics have their own tabs.
        pool.remove("queue"_L1);
        pool.remove("stats"_L1);
        records.insert(it.key(), pool);
    }
    replaceAll(records);
}

void PoolModel::applyEvent(const QJsonObject &event)
{
    const QString name = event.value("event"_L1).toString();
    const QString stage = event.value("stage"_L1).toString();
    if (name == "tick"_L1) {
        const QJsonObject stages = event.value("stages"_L1).toObject();
        for (auto it = stages.constBegin(); it != stages.constEnd(); ++it) {
            if (!pending().contains(it.key()))
                continue; // a stage the next snapshot will bring
            const QJsonObject tick = it.value().toObject();
            const QJsonObject pool = pending().value(it.key());
            const int workers = tick.value("workers"_L1).toInt();
            const int busy = tick.value("busy"_L1).toInt();
            const int idle = workers - busy - pool.value("starting"_L1).toInt() - pool.value("retiring"_L1).toInt();
            merge(it.key(),
                  QJsonObject{{"workers"_L1, workers},
                              {"busy"_L1, busy},
                              {"idle"_L1, qMax(0, idle)},
                              {"in_flight"_L1, tick.value("in_flight"_L1).toInt()}});
        }
    } else if (name == "stage_drained"_L1 || name == "stage_resumed"_L1) {
        const bool drained = name == "stage_drained"_L1;
        QJsonObject fields{{"drained"_L1, drained}};
        if (drained)
            fields.insert("capacity"_L1, 0);
        mergeExisting(stage, fields);
    } else if (name == "cooldown_entered"_L1) {
        mergeExisting(stage,
                      QJsonObject{{"cooldown"_L1, true},
                                  {"cooldown_until"_L1, event.value("until"_L1)},
                                  {"cooldown_reason"_L1, event.value("reason"_L1)},
                                  {"capacity"_L1, 0}});
    } else if (name == "cooldown_left"_L1) {
        mergeExisting(stage,
                      QJsonObject{{"cooldown"_L1, false},
                                  {"cooldown_until"_L1, QJsonValue::Null},
                                  {"cooldown_reason"_L1, QJsonValue::Null}});
    }
}

QString PoolModel::stateOf(const QJsonObject &record)
{
    if (record.value("retired"_L1).toBool())
        return u"retired"_s;
    if (record.value("cooldown"_L1).toBool())
        return u"cooldown"_s;
    if (record.value("drained"_L1).toBool())
        return u"drained"_s;
    return {};
}

QStringList PoolModel::headers() const
{
    return {tr("Stage"),   tr("Busy"), tr("Idle"),      tr("Starting"), tr("Retiring"),
            tr("Workers"), tr("Cap"),  tr("In flight"), tr("Capacity"), tr("State")};
}

QVariant PoolModel::cell(const QString &key, const QJsonObject &record, int column, int role) const
{
    static const char *const fields[] = {nullptr,   "busy",        "idle",      "starting", "retiring",
                                         "workers", "parallelism", "in_flight", "capacity", nullptr};
    if (role == Qt::TextAlignmentRole)
        return column == Stage || column == State ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (column == Stage)
        return role == Qt::DisplayRole || role == SortRole ? QVariant(key) : QVariant();
    if (column == State) {
        const QString state = stateOf(record);
        if (role == SortRole)
            return state;
        if (role == Qt::ToolTipRole && state == "cooldown"_L1)
            return tr("In cooldown until %1: %2")
                .arg(QDateTime::fromString(record.value("cooldown_until"_L1).toString(), Qt::ISODateWithMs)
                         .toLocalTime()
                         .toString(u"HH:mm:ss"_s),
                     record.value("cooldown_reason"_L1).toString());
        if (role != Qt::DisplayRole)
            return {};
        if (state == "retired"_L1)
            return tr("retired");
        if (state == "cooldown"_L1)
            return tr("cooldown");
        if (state == "drained"_L1)
            return tr("drained");
        return tr("claiming");
    }
    if (column < 0 || column >= ColumnCount || (role != Qt::DisplayRole && role != SortRole))
        return {};
    return record.value(QLatin1String(fields[column])).toInt();
}

bool PoolModel::highlighted(const QJsonObject &record) const { return record.value("cooldown"_L1).toBool(); }

} // namespace pepsi::console
