// SPDX-License-Identifier: AGPL-3.0-or-later
#include "control/snapshotcodec.h"

#include "control/codecvalues.h"
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
    QJsonObject object{
        {field::Workers, pool.workers},
        {field::Busy, pool.busy},
        {field::Idle, pool.idle},
        {field::Starting, pool.starting},
        {field::Retiring, pool.retiring},
        {field::Parallelism, pool.parallelism},
        {field::QueueLimit, pool.queueLimit},
        {field::InFlight, pool.inFlight},
        {field::Capacity, pool.capacity},
        {field::Cooldown, pool.cooldownUntil.has_value()},
        {field::CooldownUntil, pool.cooldownUntil ? timeToJson(*pool.cooldownUntil) : QJsonValue::Null},
        {field::CooldownReason, pool.cooldownUntil ? textOrNull(pool.cooldownReason) : QJsonValue::Null},
        {field::Drained, pool.drained},
    };
    if (pool.retired)
        object.insert(field::Retired, true);
    return object;
}

PoolSnapshot poolFromJson(const QJsonObject &object, const QString &stage)
{
    PoolSnapshot pool;
    pool.stage = stage;
    pool.workers = object.value(field::Workers).toInt();
    pool.busy = object.value(field::Busy).toInt();
    pool.idle = object.value(field::Idle).toInt();
    pool.starting = object.value(field::Starting).toInt();
    pool.retiring = object.value(field::Retiring).toInt();
    pool.parallelism = object.value(field::Parallelism).toInt();
    pool.queueLimit = object.value(field::QueueLimit).toInt();
    pool.inFlight = object.value(field::InFlight).toInt();
    pool.capacity = object.value(field::Capacity).toInt();
    if (object.value(field::Cooldown).toBool()) {
        pool.cooldownUntil = timeFromJson(object.value(field::CooldownUntil));
        pool.cooldownReason = object.value(field::CooldownReason).toString();
    }
    pool.drained = object.value(field::Drained).toBool();
    pool.retired = object.value(field::Retired).toBool();
    return pool;
}

QJsonObject toJson(const WorkerSnapshot &worker, WorkerIds ids)
{
    const qint64 head = worker.headOfLine();
    const bool holds = head >= 0;
    QJsonObject object{
        {field::Pid, double(worker.pid)},
        {field::Stage, worker.stage},
        {field::State, workerStateName(worker.state)},
        {field::Retiring, worker.retiring},
        {field::Messages, double(worker.messages)},
        {field::UptimeMs, double(worker.uptimeMs)},
        {field::Held, double(worker.heldCount())},
        {field::HeadId, holds ? QJsonValue(double(head)) : QJsonValue::Null},
        {field::HeadAgeMs, holds && worker.headAgeMs >= 0 ? QJsonValue(double(worker.headAgeMs)) : QJsonValue::Null},
        {field::MaxRuntimeMs, double(worker.maxRuntimeMs)},
    };
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
    WorkerSnapshot worker;
    worker.pid = object.value(field::Pid).toInteger();
    worker.stage = object.value(field::Stage).toString();
    worker.state = workerStateFromName(object.value(field::State).toString());
    worker.retiring = object.value(field::Retiring).toBool();
    worker.messages = object.value(field::Messages).toInteger();
    worker.uptimeMs = object.value(field::UptimeMs).toInteger();
    for (const QJsonValue id : object.value(field::Ids).toArray())
        worker.ids.append(id.toInteger());
    const QJsonValue held = object.value(field::Held);
    worker.held = held.isDouble() ? held.toInteger() : worker.ids.size();
    worker.headId = object.value(field::HeadId).toInteger(-1);
    worker.headAgeMs = object.value(field::HeadAgeMs).toInteger(-1);
    worker.maxRuntimeMs = object.value(field::MaxRuntimeMs).toInteger();
    return worker;
}

QJsonObject toJson(const StageStatsSnapshot &stats)
{
    return {
        {field::Runs, double(stats.runs)},         {field::Failures, double(stats.failures)},
        {field::Timeouts, double(stats.timeouts)}, {field::Crashes, double(stats.crashes)},
        {field::BusyUsec, double(stats.busyUsec)}, {field::Rate10s, stats.rate10s},
        {field::Rate60s, stats.rate60s},           {field::FailedInARow, double(stats.failedInARow)},
        {field::FailureShare, stats.failureShare}, {field::Failing, stats.failing},
    };
}

StageStatsSnapshot stageStatsFromJson(const QJsonObject &object)
{
    StageStatsSnapshot stats;
    stats.runs = object.value(field::Runs).toInteger();
    stats.failures = object.value(field::Failures).toInteger();
    stats.timeouts = object.value(field::Timeouts).toInteger();
    stats.crashes = object.value(field::Crashes).toInteger();
    stats.busyUsec = object.value(field::BusyUsec).toInteger();
    stats.rate10s = object.value(field::Rate10s).toDouble();
    stats.rate60s = object.value(field::Rate60s).toDouble();
    stats.failedInARow = object.value(field::FailedInARow).toInteger();
    stats.failureShare = object.value(field::FailureShare).toDouble();
    stats.failing = object.value(field::Failing).toBool();
    return stats;
}

QJsonObject totalsToJson(const StatsSnapshot &stats)
{
    return {
        {field::Claimed, double(stats.claimed)},
        {field::Rounds, double(stats.rounds)},
        {field::StageRuns, double(stats.stageRuns)},
        {field::Messages, double(stats.messages)},
        {field::Rate10s, stats.rate10s},
        {field::Rate60s, stats.rate60s},
    };
}

namespace {

void insertPoolTotals(const PoolTotals &pools, QJsonObject &object)
{
    object.insert(field::Workers, pools.workers);
    object.insert(field::Busy, pools.busy);
    object.insert(field::InFlight, pools.inFlight);
    object.insert(field::Capacity, pools.capacity);
}

PoolTotals poolTotalsFromJson(const QJsonObject &object)
{
    return {object.value(field::Workers).toInt(), object.value(field::Busy).toInt(),
            object.value(field::InFlight).toInt(), object.value(field::Capacity).toInt()};
}

void readTotals(const QJsonObject &totals, StatsSnapshot &stats)
{
    stats.claimed = totals.value(field::Claimed).toInteger();
    stats.rounds = totals.value(field::Rounds).toInteger();
    stats.stageRuns = totals.value(field::StageRuns).toInteger();
    stats.messages = totals.value(field::Messages).toInteger();
    stats.rate10s = totals.value(field::Rate10s).toDouble();
    stats.rate60s = totals.value(field::Rate60s).toDouble();
}

} // namespace

QJsonObject toJson(const StatsSnapshot &stats)
{
    QJsonObject stages;
    for (auto it = stats.stages.cbegin(); it != stats.stages.cend(); ++it)
        stages.insert(it.key(), toJson(it.value()));
    return {{field::Since, timeToJson(stats.since)}, {field::Totals, totalsToJson(stats)}, {field::Stages, stages}};
}

StatsSnapshot statsFromJson(const QJsonObject &object)
{
    StatsSnapshot stats;
    stats.since = timeFromJson(object.value(field::Since));
    readTotals(object.value(field::Totals).toObject(), stats);
    const QJsonObject stages = object.value(field::Stages).toObject();
    for (auto it = stages.constBegin(); it != stages.constEnd(); ++it)
        stats.stages.insert(it.key(), stageStatsFromJson(it.value().toObject()));
    return stats;
}

QJsonObject toJson(const StageQueue &queue)
{
    QJsonObject ages;
    const QStringList &buckets = pendingAgeBuckets();
    for (qsizetype i = 0; i < buckets.size(); ++i)
        ages.insert(buckets.at(i), double(queue.pendingAges.at(size_t(i))));
    return {
        {field::Pending, double(queue.pending)},
        {field::Running, double(queue.running)},
        {field::Paused, double(queue.paused)},
        {field::Failed, double(queue.failed)},
        {field::Timeout, double(queue.timeout)},
        {field::OldestPendingAgeMs, optionalNumber(queue.oldestPendingAgeMs)},
        {field::PendingAges, ages},
    };
}

StageQueue stageQueueFromJson(const QJsonObject &object)
{
    StageQueue queue;
    queue.pending = object.value(field::Pending).toInteger();
    queue.running = object.value(field::Running).toInteger();
    queue.paused = object.value(field::Paused).toInteger();
    queue.failed = object.value(field::Failed).toInteger();
    queue.timeout = object.value(field::Timeout).toInteger();
    queue.oldestPendingAgeMs = numberOrNothing(object.value(field::OldestPendingAgeMs));
    const QJsonObject ages = object.value(field::PendingAges).toObject();
    const QStringList &buckets = pendingAgeBuckets();
    for (qsizetype i = 0; i < buckets.size() && size_t(i) < queue.pendingAges.size(); ++i)
        queue.pendingAges[size_t(i)] = ages.value(buckets.at(i)).toInteger();
    return queue;
}

QJsonObject toJson(const QueueCounts &counts, const QDateTime &now)
{
    QJsonObject stages;
    for (auto it = counts.stages.cbegin(); it != counts.stages.cend(); ++it)
        stages.insert(it.key(), toJson(it.value()));
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
    const QJsonObject stages = object.value(field::Stages).toObject();
    for (auto it = stages.constBegin(); it != stages.constEnd(); ++it)
        counts.stages.insert(it.key(), stageQueueFromJson(it.value().toObject()));
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
    insertPoolTotals(status.poolTotals, totals);

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
    readTotals(totals, status.stats);
    status.poolTotals = poolTotalsFromJson(totals);
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
    QJsonObject stages;
    for (auto it = tick.stages.cbegin(); it != tick.stages.cend(); ++it)
        stages.insert(it.key(),
                      QJsonObject{
                          {field::Rate10s, it->rate10s},
                          {field::InFlight, it->inFlight},
                          {field::Busy, it->busy},
                          {field::Idle, it->idle},
                          {field::Workers, it->workers},
                          {field::Capacity, it->capacity},
                      });
    QJsonObject object{
        {field::Claimed, double(tick.claimed)},
        {field::Completed, double(tick.completed)},
        {field::Rate10s, tick.rate10s},
        {field::Stages, stages},
    };
    insertPoolTotals(tick.pools, object);
    return object;
}

TickSnapshot tickFromJson(const QJsonObject &object)
{
    TickSnapshot tick;
    tick.claimed = object.value(field::Claimed).toInteger();
    tick.completed = object.value(field::Completed).toInteger();
    tick.pools = poolTotalsFromJson(object);
    tick.rate10s = object.value(field::Rate10s).toDouble();
    const QJsonObject stages = object.value(field::Stages).toObject();
    for (auto it = stages.constBegin(); it != stages.constEnd(); ++it) {
        const QJsonObject stage = it.value().toObject();
        tick.stages.insert(it.key(),
                           TickStage{stage.value(field::Rate10s).toDouble(), stage.value(field::InFlight).toInt(),
                                     stage.value(field::Busy).toInt(), stage.value(field::Idle).toInt(),
                                     stage.value(field::Workers).toInt(), stage.value(field::Capacity).toInt()});
    }
    return tick;
}

} // namespace pepsi::protocol
