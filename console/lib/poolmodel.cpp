// SPDX-License-Identifier: AGPL-3.0-or-later
#include "poolmodel.h"

#include "control/protocol.h"

#include <QDateTime>

namespace pepsi::console {

using namespace Qt::StringLiterals;
namespace event = protocol::event;
namespace field = protocol::field;

void PoolModel::applyStatus(const QJsonObject &status)
{
    const QJsonObject stages = status.value(field::Stages).toObject();
    QMap<QString, QJsonObject> records;
    for (auto it = stages.constBegin(); it != stages.constEnd(); ++it) {
        QJsonObject pool = it.value().toObject();
        // The queue and the statistics have their own tabs.
        pool.remove(field::Queue);
        pool.remove(field::Stats);
        records.insert(it.key(), pool);
    }
    replaceAll(records);
}

void PoolModel::applyEvent(const QJsonObject &event)
{
    const QString name = event.value(field::Event).toString();
    const QString stage = event.value(field::Stage).toString();
    if (name == event::Tick) {
        const QJsonObject stages = event.value(field::Stages).toObject();
        for (auto it = stages.constBegin(); it != stages.constEnd(); ++it) {
            if (!pending().contains(it.key()))
                continue; // a stage the next snapshot will bring
            const QJsonObject tick = it.value().toObject();
            const QJsonObject pool = pending().value(it.key());
            const int workers = tick.value(field::Workers).toInt();
            const int busy = tick.value(field::Busy).toInt();
            const int idle = workers - busy - pool.value(field::Starting).toInt() - pool.value(field::Retiring).toInt();
            merge(it.key(),
                  QJsonObject{{field::Workers, workers},
                              {field::Busy, busy},
                              {field::Idle, qMax(0, idle)},
                              {field::InFlight, tick.value(field::InFlight).toInt()}});
        }
    } else if (name == event::StageDrained || name == event::StageResumed) {
        const bool drained = name == event::StageDrained;
        QJsonObject fields{{field::Drained, drained}};
        if (drained)
            fields.insert(field::Capacity, 0);
        mergeExisting(stage, fields);
    } else if (name == event::CooldownEntered) {
        mergeExisting(stage,
                      QJsonObject{{field::Cooldown, true},
                                  {field::CooldownUntil, event.value(field::Until)},
                                  {field::CooldownReason, event.value(field::Reason)},
                                  {field::Capacity, 0}});
    } else if (name == event::CooldownLeft) {
        mergeExisting(stage,
                      QJsonObject{{field::Cooldown, false},
                                  {field::CooldownUntil, QJsonValue::Null},
                                  {field::CooldownReason, QJsonValue::Null}});
    }
}

QString PoolModel::stateOf(const QJsonObject &record)
{
    if (record.value(field::Retired).toBool())
        return QString(field::Retired);
    if (record.value(field::Cooldown).toBool())
        return QString(field::Cooldown);
    if (record.value(field::Drained).toBool())
        return QString(field::Drained);
    return {};
}

QStringList PoolModel::headers() const
{
    return {tr("Stage"), tr("Busy"),        tr("Idle"),      tr("Starting"), tr("Retiring"), tr("Workers"),
            tr("Cap"),   tr("Queue limit"), tr("In flight"), tr("Capacity"), tr("State")};
}

QVariant PoolModel::cell(const QString &key, const QJsonObject &record, int column, int role) const
{
    static const QLatin1StringView fields[] = {{},
                                               field::Busy,
                                               field::Idle,
                                               field::Starting,
                                               field::Retiring,
                                               field::Workers,
                                               field::Parallelism,
                                               field::QueueLimit,
                                               field::InFlight,
                                               field::Capacity,
                                               {}};
    if (role == Qt::TextAlignmentRole)
        return column == Stage || column == State ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (column == Stage)
        return role == Qt::DisplayRole || role == SortRole ? QVariant(key) : QVariant();
    if (role == Qt::ToolTipRole && (column == Parallelism || column == QueueLimit))
        return tr("PARALLELISM and QUEUE_LIMIT can be set here (the context menu) by root and the service account.");
    if (column == State) {
        const QString state = stateOf(record);
        if (role == SortRole)
            return state;
        if (role == Qt::ToolTipRole && state == field::Cooldown)
            return tr("In cooldown until %1: %2")
                .arg(QDateTime::fromString(record.value(field::CooldownUntil).toString(), Qt::ISODateWithMs)
                         .toLocalTime()
                         .toString(u"HH:mm:ss"_s),
                     record.value(field::CooldownReason).toString());
        if (role != Qt::DisplayRole)
            return {};
        if (state == field::Retired)
            return tr("retired");
        if (state == field::Cooldown)
            return tr("cooldown");
        if (state == field::Drained)
            return tr("drained");
        return tr("claiming");
    }
    if (column < 0 || column >= ColumnCount || (role != Qt::DisplayRole && role != SortRole))
        return {};
    return record.value(fields[column]).toInt();
}

bool PoolModel::highlighted(const QJsonObject &record) const { return record.value(field::Cooldown).toBool(); }

} // namespace pepsi::console
