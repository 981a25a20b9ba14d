// SPDX-License-Identifier: AGPL-3.0-or-later
#include "poolmodel.h"

#include "control/protocol.h"
#include "control/snapshotcodec.h"

#include <QDateTime>
#include <QFont>

namespace pepsi::console {

using namespace Qt::StringLiterals;
namespace event = protocol::event;
namespace field = protocol::field;

void PoolModel::applyStatus(const StatusSnapshot &status)
{
    QMap<QString, PoolSnapshot> pools;
    for (const PoolSnapshot &pool : status.pools)
        pools.insert(pool.stage, pool);
    replaceAll(pools);
}

void PoolModel::applyTick(const TickSnapshot &tick)
{
    for (auto it = tick.stages.cbegin(); it != tick.stages.cend(); ++it) {
        std::optional<PoolSnapshot> pool = pending(it.key());
        if (!pool)
            continue; // a stage the next snapshot will bring
        pool->workers = it->workers;
        pool->busy = it->busy;
        pool->idle = it->idle;
        pool->inFlight = it->inFlight;
        pool->capacity = it->capacity;
        put(it.key(), *pool);
    }
}

void PoolModel::applyEvent(const QJsonObject &event)
{
    const QString name = event.value(field::Event).toString();
    std::optional<PoolSnapshot> pool = pending(event.value(field::Stage).toString());
    if (!pool)
        return;
    // What the event says; the figures it changes (the capacity) come with the next tick.
    if (name == event::StageDrained || name == event::StageResumed) {
        pool->drained = name == event::StageDrained;
    } else if (name == event::CooldownEntered) {
        pool->cooldownUntil = protocol::timeFromJson(event.value(field::Until));
        pool->cooldownReason = event.value(field::Reason).toString();
    } else if (name == event::CooldownLeft) {
        pool->cooldownUntil.reset();
        pool->cooldownReason.clear();
    } else {
        return;
    }
    put(pool->stage, *pool);
}

void PoolModel::applyStages(const StagesSnapshot &stages)
{
    m_sources.clear();
    for (const StageInfo &stage : stages.stages)
        m_sources.insert(stage.name, stage.sources);
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, Parallelism), index(rowCount() - 1, QueueLimit));
}

QString PoolModel::sourceText(const OptionProvenance &provenance) const
{
    switch (provenance.source) {
    case OptionSource::Overlay:
        return provenance.fileValue
            ? tr("Set live (config_overlay); the file says %1.").arg(*provenance.fileValue)
            : tr("Set live (config_overlay); the file has none, the default applies without it.");
    case OptionSource::File:
        return tr("From the configuration file.");
    case OptionSource::Default:
        return tr("The default: neither the file nor config_overlay sets it.");
    }
    return {};
}

QString PoolModel::stateOf(const PoolSnapshot &pool)
{
    if (pool.retired)
        return QString(field::Retired);
    if (pool.cooldownUntil)
        return QString(field::Cooldown);
    if (pool.drained)
        return QString(field::Drained);
    return {};
}

QStringList PoolModel::headers() const
{
    return {tr("Stage"), tr("Busy"),        tr("Idle"),      tr("Starting"), tr("Retiring"), tr("Workers"),
            tr("Cap"),   tr("Queue limit"), tr("In flight"), tr("Capacity"), tr("State")};
}

QVariant PoolModel::cell(const QString &key, const PoolSnapshot &pool, int column, int role) const
{
    if (role == Qt::TextAlignmentRole)
        return column == Stage || column == State ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (column == Stage)
        return role == Qt::DisplayRole || role == SortRole ? QVariant(key) : QVariant();
    if (column == Parallelism || column == QueueLimit) {
        const auto sources = m_sources.constFind(key);
        const std::optional<OptionProvenance> provenance = sources == m_sources.cend()
            ? std::nullopt
            : std::optional(sources->value(column == Parallelism ? u"PARALLELISM"_s : u"QUEUE_LIMIT"_s));
        const int value = column == Parallelism ? pool.parallelism : pool.queueLimit;
        if (role == Qt::ToolTipRole) {
            const QString settable =
                tr("PARALLELISM and QUEUE_LIMIT can be set here (the context menu) by root and the service account.");
            return provenance ? sourceText(*provenance) + u'\n' + settable : settable;
        }
        if (role == Qt::DisplayRole && provenance && provenance->source == OptionSource::Overlay)
            return tr("%1 (live)").arg(value);
        if (role == Qt::FontRole && provenance && provenance->source == OptionSource::Overlay) {
            QFont font;
            font.setBold(true);
            return font;
        }
    }
    if (column == State) {
        const QString state = stateOf(pool);
        if (role == SortRole)
            return state;
        if (role == Qt::ToolTipRole && state == field::Cooldown)
            return tr("In cooldown until %1: %2")
                .arg(pool.cooldownUntil->toLocalTime().toString(u"HH:mm:ss"_s), pool.cooldownReason);
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
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    switch (column) {
    case Busy:
        return pool.busy;
    case Idle:
        return pool.idle;
    case Starting:
        return pool.starting;
    case Retiring:
        return pool.retiring;
    case Workers:
        return pool.workers;
    case Parallelism:
        return pool.parallelism;
    case QueueLimit:
        return pool.queueLimit;
    case InFlight:
        return pool.inFlight;
    case Capacity:
        return pool.capacity;
    default:
        return {};
    }
}

bool PoolModel::highlighted(const PoolSnapshot &pool) const { return pool.cooldownUntil.has_value(); }

} // namespace pepsi::console
