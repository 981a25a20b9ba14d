// SPDX-License-Identifier: AGPL-3.0-or-later
#include "control/snapshotcodec.h"

#include "control/codecvalues.h"
#include "control/fieldtable.h"
#include "control/protocol.h"

#include <QJsonArray>

namespace pepsi::protocol {

using namespace codec;

namespace {

const QLatin1StringView workerStateNames[] = {value::Starting, value::Running, value::Stopping};

QString workerStateName(WorkerSnapshot::State state) { return workerStateNames[int(state)]; }

WorkerSnapshot::State workerStateFromName(const QString &name)
{
    for (int i = 0; i < 3; ++i) {
        if (name == workerStateNames[i])
            return WorkerSnapshot::State(i);
    }
    return WorkerSnapshot::State::Starting;
}

constexpr auto poolFields = std::tuple{
    Field{field::Workers, &PoolSnapshot::workers},
    Field{field::Busy, &PoolSnapshot::busy},
    Field{field::Idle, &PoolSnapshot::idle},
    Field{field::Starting, &PoolSnapshot::starting},
    Field{field::Retiring, &PoolSnapshot::retiring},
    Field{field::Parallelism, &PoolSnapshot::parallelism},
    Field{field::QueueLimit, &PoolSnapshot::queueLimit},
    Field{field::InFlight, &PoolSnapshot::inFlight},
    Field{field::Capacity, &PoolSnapshot::capacity},
    Field{field::Drained, &PoolSnapshot::drained},
};

// The head of line, the ids and the state are written apart.
constexpr auto workerFields = std::tuple{
    Field{field::Pid, &WorkerSnapshot::pid},           Field{field::Stage, &WorkerSnapshot::stage},
    Field{field::Retiring, &WorkerSnapshot::retiring}, Field{field::Messages, &WorkerSnapshot::messages},
    Field{field::UptimeMs, &WorkerSnapshot::uptimeMs}, Field{field::MaxRuntimeMs, &WorkerSnapshot::maxRuntimeMs},
};

constexpr auto stageStatsFields = std::tuple{
    Field{field::Runs, &StageStatsSnapshot::runs},
    Field{field::Failures, &StageStatsSnapshot::failures},
    Field{field::Timeouts, &StageStatsSnapshot::timeouts},
    Field{field::Crashes, &StageStatsSnapshot::crashes},
    Field{field::BusyUsec, &StageStatsSnapshot::busyUsec},
    Field{field::Rate10s, &StageStatsSnapshot::rate10s},
    Field{field::Rate60s, &StageStatsSnapshot::rate60s},
    Field{field::FailedInARow, &StageStatsSnapshot::failedInARow},
    Field{field::FailureShare, &StageStatsSnapshot::failureShare},
    Field{field::Failing, &StageStatsSnapshot::failing},
};

// The totals of `stats`, `status` and their parsed forms.
constexpr auto totalsFields = std::tuple{
    Field{field::Claimed, &StatsSnapshot::claimed},     Field{field::Rounds, &StatsSnapshot::rounds},
    Field{field::StageRuns, &StatsSnapshot::stageRuns}, Field{field::Messages, &StatsSnapshot::messages},
    Field{field::Rate10s, &StatsSnapshot::rate10s},     Field{field::Rate60s, &StatsSnapshot::rate60s},
};

constexpr auto poolTotalsFields = std::tuple{
    Field{field::Workers, &PoolTotals::workers},
    Field{field::Busy, &PoolTotals::busy},
    Field{field::InFlight, &PoolTotals::inFlight},
    Field{field::Capacity, &PoolTotals::capacity},
};

// The age buckets and the oldest age are written apart.
constexpr auto stageQueueFields = std::tuple{
    Field{field::Pending, &StageQueue::pending}, Field{field::Running, &StageQueue::running},
    Field{field::Paused, &StageQueue::paused},   Field{field::Failed, &StageQueue::failed},
    Field{field::Timeout, &StageQueue::timeout},
};

constexpr auto tickStageFields = std::tuple{
    Field{field::Rate10s, &TickStage::rate10s}, Field{field::InFlight, &TickStage::inFlight},
    Field{field::Busy, &TickStage::busy},       Field{field::Idle, &TickStage::idle},
    Field{field::Workers, &TickStage::workers}, Field{field::Capacity, &TickStage::capacity},
};

constexpr auto tickFields = std::tuple{
    Field{field::Claimed, &TickSnapshot::claimed},
    Field{field::Completed, &TickSnapshot::completed},
    Field{field::Rate10s, &TickSnapshot::rate10s},
};

} // namespace

QJsonValue timeToJson(const QDateTime &when)
{
    if (!when.isValid())
        return QJsonValue::Null;
    return when.toUTC().toString(Qt::ISODateWithMs);
}

QDateTime timeFromJson(const QJsonValue &value)
{
    return value.isString() ? QDateTime::fromString(value.toString(), Qt::ISODateWithMs).toUTC() : QDateTime();
}

QJsonObject toJson(const PoolSnapshot &pool)
{
    QJsonObject object = fieldsToJson(pool, poolFields);
    object.insert(field::Cooldown, pool.cooldownUntil.has_value());
    object.insert(field::CooldownUntil, pool.cooldownUntil ? timeToJson(*pool.cooldownUntil) : QJsonValue::Null);
    object.insert(field::CooldownReason, pool.cooldownUntil ? textOrNull(pool.cooldownReason) : QJsonValue::Null);
    if (pool.retired)
        object.insert(field::Retired, true);
    return object;
}

PoolSnapshot poolFromJson(const QJsonObject &object, const QString &stage)
{
    PoolSnapshot pool = fieldsFromJson<PoolSnapshot>(object, poolFields);
    pool.stage = stage;
    if (object.value(field::Cooldown).toBool()) {
        pool.cooldownUntil = timeFromJson(object.value(field::CooldownUntil));
        pool.cooldownReason = object.value(field::CooldownReason).toString();
    }
    pool.retired = object.value(field::Retired).toBool();
    return pool;
}

QJsonObject toJson(const WorkerSnapshot &worker, WorkerIds ids)
{
    const qint64 head = worker.headOfLine();
    const bool holds = head >= 0;
    QJsonObject object{
        {field::State, workerStateName(worker.state)},
        {field::Held, double(worker.heldCount())},
        {field::HeadId, holds ? QJsonValue(double(head)) : QJsonValue::Null},
        {field::HeadAgeMs, holds && worker.headAgeMs >= 0 ? QJsonValue(double(worker.headAgeMs)) : QJsonValue::Null},
    };
    insertFields(object, worker, workerFields);
    if (ids == WorkerIds::Included) {
        QJsonArray list;
        for (qint64 id : worker.ids)
            list.append(double(id));
        object.insert(field::Ids, list);
    }
    return object;
}

WorkerSnapshot workerFromJson(const QJsonObject &object)
{
    WorkerSnapshot worker = fieldsFromJson<WorkerSnapshot>(object, workerFields);
    worker.state = workerStateFromName(object.value(field::State).toString());
    for (const QJsonValue id : object.value(field::Ids).toArray())
        worker.ids.append(id.toInteger());
    const QJsonValue held = object.value(field::Held);
    worker.held = held.isDouble() ? held.toInteger() : worker.ids.size();
    worker.headId = object.value(field::HeadId).toInteger(-1);
    worker.headAgeMs = object.value(field::HeadAgeMs).toInteger(-1);
    return worker;
}

QJsonObject toJson(const StageStatsSnapshot &stats) { return fieldsToJson(stats, stageStatsFields); }

StageStatsSnapshot stageStatsFromJson(const QJsonObject &object)
{
    return fieldsFromJson<StageStatsSnapshot>(object, stageStatsFields);
}

QJsonObject totalsToJson(const StatsSnapshot &stats) { return fieldsToJson(stats, totalsFields); }

QJsonObject toJson(const StatsSnapshot &stats)
{
    const QJsonObject stages = mapToJson(stats.stages, [](const StageStatsSnapshot &s) { return toJson(s); });
    return {{field::Since, timeToJson(stats.since)}, {field::Totals, totalsToJson(stats)}, {field::Stages, stages}};
}

StatsSnapshot statsFromJson(const QJsonObject &object)
{
    StatsSnapshot stats;
    stats.since = timeFromJson(object.value(field::Since));
    readFields(object.value(field::Totals).toObject(), stats, totalsFields);
    stats.stages = mapFromJson<StageStatsSnapshot>(object.value(field::Stages), stageStatsFromJson);
    return stats;
}

QJsonObject toJson(const StageQueue &queue)
{
    QJsonObject ages;
    const QStringList &buckets = pendingAgeBuckets();
    for (qsizetype i = 0; i < buckets.size(); ++i)
        ages.insert(buckets.at(i), double(queue.pendingAges.at(size_t(i))));
    QJsonObject object = fieldsToJson(queue, stageQueueFields);
    object.insert(field::OldestPendingAgeMs, optionalNumber(queue.oldestPendingAgeMs));
    object.insert(field::PendingAges, ages);
    return object;
}

StageQueue stageQueueFromJson(const QJsonObject &object)
{
    StageQueue queue = fieldsFromJson<StageQueue>(object, stageQueueFields);
    queue.oldestPendingAgeMs = numberOrNothing(object.value(field::OldestPendingAgeMs));
    const QJsonObject ages = object.value(field::PendingAges).toObject();
    const QStringList &buckets = pendingAgeBuckets();
    for (qsizetype i = 0; i < buckets.size() && size_t(i) < queue.pendingAges.size(); ++i)
        queue.pendingAges[size_t(i)] = ages.value(buckets.at(i)).toInteger();
    return queue;
}

QJsonObject toJson(const QueueCounts &counts, const QDateTime &now)
{
    const QJsonObject stages = mapToJson(counts.stages, [](const StageQueue &q) { return toJson(q); });
    return {
        {field::At, timeToJson(counts.takenAt)},
        {field::AgeMs, double(std::max<qint64>(0, counts.takenAt.msecsTo(now)))},
        {field::Stages, stages},
    };
}

QueueCounts queueCountsFromJson(const QJsonObject &object)
{
    QueueCounts counts;
    counts.takenAt = timeFromJson(object.value(field::At));
    counts.ageMs = object.value(field::AgeMs).toInteger(-1);
    counts.stages = mapFromJson<StageQueue>(object.value(field::Stages), stageQueueFromJson);
    return counts;
}

QJsonObject toJson(const StatusSnapshot &status)
{
    QJsonObject stages;
    for (const PoolSnapshot &pool : status.pools) {
        QJsonObject stage = toJson(pool);
        stage.insert(field::Queue,
                     status.queues ? QJsonValue(toJson(status.queues->stages.value(pool.stage)))
                                   : QJsonValue(QJsonValue::Null));
        stage.insert(field::Stats, toJson(status.stats.stages.value(pool.stage)));
        stages.insert(pool.stage, stage);
    }
    QJsonObject totals = totalsToJson(status.stats);
    insertFields(totals, status.poolTotals, poolTotalsFields);

    QJsonObject result{
        {field::Time, timeToJson(status.time)},
        {field::State, lifecycleName(status.state)},
        {field::Totals, totals},
        {field::QueuesAt, status.queues ? timeToJson(status.queues->takenAt) : QJsonValue(QJsonValue::Null)},
        {field::Stages, stages},
    };
    if (!status.queues)
        result.insert(field::QueuesError, status.queuesError);
    return result;
}

StatusSnapshot statusFromJson(const QJsonObject &object)
{
    StatusSnapshot status;
    status.time = timeFromJson(object.value(field::Time));
    status.state = lifecycleFromName(object.value(field::State).toString()).value_or(Lifecycle::Starting);
    const QJsonObject totals = object.value(field::Totals).toObject();
    readFields(totals, status.stats, totalsFields);
    readFields(totals, status.poolTotals, poolTotalsFields);
    const QDateTime queuesAt = timeFromJson(object.value(field::QueuesAt));
    if (queuesAt.isValid())
        status.queues = QueueCounts{queuesAt, {}};
    else
        status.queuesError = object.value(field::QueuesError).toString();
    const QJsonObject stages = object.value(field::Stages).toObject();
    for (auto it = stages.constBegin(); it != stages.constEnd(); ++it) {
        const QJsonObject stage = it.value().toObject();
        status.pools.append(poolFromJson(stage, it.key()));
        status.stats.stages.insert(it.key(), stageStatsFromJson(stage.value(field::Stats).toObject()));
        if (status.queues && stage.value(field::Queue).isObject())
            status.queues->stages.insert(it.key(), stageQueueFromJson(stage.value(field::Queue).toObject()));
    }
    return status;
}

QJsonObject toJson(const TickSnapshot &tick)
{
    QJsonObject object = fieldsToJson(tick, tickFields);
    object.insert(field::Stages,
                  mapToJson(tick.stages, [](const TickStage &stage) { return fieldsToJson(stage, tickStageFields); }));
    insertFields(object, tick.pools, poolTotalsFields);
    return object;
}

TickSnapshot tickFromJson(const QJsonObject &object)
{
    TickSnapshot tick = fieldsFromJson<TickSnapshot>(object, tickFields);
    readFields(object, tick.pools, poolTotalsFields);
    tick.stages = mapFromJson<TickStage>(object.value(field::Stages), [](const QJsonObject &stage) {
        return fieldsFromJson<TickStage>(stage, tickStageFields);
    });
    return tick;
}

} // namespace pepsi::protocol
