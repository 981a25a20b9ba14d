// SPDX-License-Identifier: AGPL-3.0-or-later
#include "control/snapshotcodec.h"

#include "control/protocol.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace pepsi::protocol {

namespace {

QJsonValue optionalNumber(const std::optional<qint64> &number)
{
    return number ? QJsonValue(double(*number)) : QJsonValue(QJsonValue::Null);
}

std::optional<qint64> numberOrNothing(const QJsonValue &value)
{
    return value.isDouble() ? std::optional<qint64>(value.toInteger()) : std::nullopt;
}

QJsonValue textOrNull(const QString &text) { return text.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(text); }

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
    const QJsonObject stages = object.value(field::Stages).toObject();
    for (auto it = stages.constBegin(); it != stages.constEnd(); ++it)
        counts.stages.insert(it.key(), stageQueueFromJson(it.value().toObject()));
    return counts;
}

QJsonObject toJson(const StatusSnapshot &status)
{
    int workers = 0, busy = 0, inFlight = 0, capacity = 0;
    QJsonObject stages;
    for (const PoolSnapshot &pool : status.pools) {
        workers += pool.workers;
        busy += pool.busy;
        inFlight += pool.inFlight;
        capacity += pool.capacity;
        QJsonObject stage = toJson(pool);
        stage.insert(field::Queue,
                     status.queues ? QJsonValue(toJson(status.queues->stages.value(pool.stage)))
                                   : QJsonValue(QJsonValue::Null));
        stage.insert(field::Stats, toJson(status.stats.stages.value(pool.stage)));
        stages.insert(pool.stage, stage);
    }
    QJsonObject totals = totalsToJson(status.stats);
    totals.insert(field::Workers, workers);
    totals.insert(field::Busy, busy);
    totals.insert(field::InFlight, inFlight);
    totals.insert(field::Capacity, capacity);

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
    readTotals(object.value(field::Totals).toObject(), status.stats);
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

QJsonObject toJson(const MessageRow &row)
{
    return {
        {field::Id, double(row.id)},
        {field::Stage, row.stage},
        {field::Status, row.status},
        {field::Claims, double(row.claims)},
        {field::Updated, timeToJson(row.updated)},
        {field::Reason, textOrNull(row.reason)},
    };
}

MessageRow messageRowFromJson(const QJsonObject &object)
{
    MessageRow row;
    row.id = object.value(field::Id).toInteger();
    row.stage = object.value(field::Stage).toString();
    row.status = object.value(field::Status).toString();
    row.claims = object.value(field::Claims).toInteger();
    row.updated = timeFromJson(object.value(field::Updated));
    row.reason = object.value(field::Reason).toString();
    return row;
}

QJsonObject toJson(const MessagePage &page)
{
    if (page.byReason) {
        QJsonArray reasons;
        for (const ReasonCount &each : page.reasons)
            reasons.append(QJsonObject{{field::Reason, textOrNull(each.reason)},
                                       {field::Count, double(each.count)},
                                       {field::Oldest, timeToJson(each.oldest)},
                                       {field::Newest, timeToJson(each.newest)}});
        return {{field::Reasons, reasons}, {field::More, page.moreReasons}, {field::Total, double(page.reasonsTotal)}};
    }
    QJsonArray rows;
    for (const MessageRow &row : page.rows)
        rows.append(toJson(row));
    return {{field::Messages, rows}, {field::NextAfterId, optionalNumber(page.nextAfterId)}};
}

MessagePage messagePageFromJson(const QJsonObject &object)
{
    MessagePage page;
    if (object.contains(field::Reasons)) {
        page.byReason = true;
        for (const QJsonValue each : object.value(field::Reasons).toArray()) {
            const QJsonObject reason = each.toObject();
            page.reasons.append(
                ReasonCount{reason.value(field::Reason).toString(), reason.value(field::Count).toInteger(),
                            timeFromJson(reason.value(field::Oldest)), timeFromJson(reason.value(field::Newest))});
        }
        page.moreReasons = object.value(field::More).toBool();
        // A daemon older than "total" counted only the listed reasons.
        if (object.contains(field::Total)) {
            page.reasonsTotal = object.value(field::Total).toInteger();
        } else {
            for (const ReasonCount &each : page.reasons)
                page.reasonsTotal += each.count;
        }
        return page;
    }
    const QJsonArray rows = object.value(field::Messages).toArray();
    for (const QJsonValue each : rows)
        page.rows.append(messageRowFromJson(each.toObject()));
    page.nextAfterId = numberOrNothing(object.value(field::NextAfterId));
    return page;
}

QJsonObject toJson(const MessageDetail &detail)
{
    QJsonObject object = toJson(detail.row);
    object.insert(field::Created, timeToJson(detail.created));
    object.insert(field::Timeout, detail.timeout ? timeToJson(*detail.timeout) : QJsonValue(QJsonValue::Null));
    const QJsonDocument whole = detail.truncated ? QJsonDocument() : QJsonDocument::fromJson(detail.state);
    if (whole.isObject())
        object.insert(field::State, whole.object());
    else
        object.insert(field::State, QString::fromUtf8(detail.state));
    object.insert(field::Truncated, detail.truncated);
    return object;
}

MessageDetail messageDetailFromJson(const QJsonObject &object)
{
    MessageDetail detail;
    detail.row = messageRowFromJson(object);
    detail.created = timeFromJson(object.value(field::Created));
    if (const QDateTime timeout = timeFromJson(object.value(field::Timeout)); timeout.isValid())
        detail.timeout = timeout;
    const QJsonValue state = object.value(field::State);
    detail.state =
        state.isObject() ? QJsonDocument(state.toObject()).toJson(QJsonDocument::Compact) : state.toString().toUtf8();
    detail.truncated = object.value(field::Truncated).toBool();
    return detail;
}

} // namespace pepsi::protocol
