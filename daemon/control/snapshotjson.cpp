// SPDX-License-Identifier: AGPL-3.0-or-later
#include "control/snapshotjson.h"

#include <QJsonArray>

namespace pepsi::json {

namespace {

QJsonValue optionalAge(const std::optional<qint64> &ms)
{
    return ms ? QJsonValue(double(*ms)) : QJsonValue(QJsonValue::Null);
}

QJsonValue textOrNull(const QString &text) { return text.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(text); }

QString workerState(WorkerSnapshot::State state)
{
    switch (state) {
    case WorkerSnapshot::State::Starting:
        return QStringLiteral("starting");
    case WorkerSnapshot::State::Running:
        return QStringLiteral("running");
    case WorkerSnapshot::State::Stopping:
        return QStringLiteral("stopping");
    }
    return {};
}

} // namespace

QJsonValue time(const QDateTime &when)
{
    if (!when.isValid())
        return QJsonValue::Null;
    return when.toUTC().toString(Qt::ISODateWithMs);
}

QJsonObject pool(const PoolSnapshot &pool)
{
    QJsonObject object{
        {QStringLiteral("workers"), pool.workers},
        {QStringLiteral("busy"), pool.busy},
        {QStringLiteral("idle"), pool.idle},
        {QStringLiteral("starting"), pool.starting},
        {QStringLiteral("retiring"), pool.retiring},
        {QStringLiteral("parallelism"), pool.parallelism},
        {QStringLiteral("queue_limit"), pool.queueLimit},
        {QStringLiteral("in_flight"), pool.inFlight},
        {QStringLiteral("capacity"), pool.capacity},
        {QStringLiteral("cooldown"), pool.cooldownUntil.has_value()},
        {QStringLiteral("cooldown_until"), pool.cooldownUntil ? time(*pool.cooldownUntil) : QJsonValue::Null},
        {QStringLiteral("cooldown_reason"), pool.cooldownUntil ? textOrNull(pool.cooldownReason) : QJsonValue::Null},
        {QStringLiteral("drained"), pool.drained},
    };
    if (pool.retired)
        object.insert(QStringLiteral("retired"), true);
    return object;
}

QJsonObject worker(const WorkerSnapshot &worker, bool withIds)
{
    const bool holds = !worker.ids.isEmpty();
    QJsonObject object{
        {QStringLiteral("pid"), double(worker.pid)},
        {QStringLiteral("stage"), worker.stage},
        {QStringLiteral("state"), workerState(worker.state)},
        {QStringLiteral("retiring"), worker.retiring},
        {QStringLiteral("messages"), double(worker.messages)},
        {QStringLiteral("uptime_ms"), double(worker.uptimeMs)},
        {QStringLiteral("held"), double(worker.ids.size())},
        {QStringLiteral("head_id"), holds ? QJsonValue(double(worker.ids.first())) : QJsonValue::Null},
        {QStringLiteral("head_age_ms"),
         holds && worker.headAgeMs >= 0 ? QJsonValue(double(worker.headAgeMs)) : QJsonValue::Null},
        {QStringLiteral("max_runtime_ms"), double(worker.maxRuntimeMs)},
    };
    if (withIds) {
        QJsonArray ids;
        for (qint64 id : worker.ids)
            ids.append(double(id));
        object.insert(QStringLiteral("ids"), ids);
    }
    return object;
}

QJsonObject stageStats(const StageStatsSnapshot &stats)
{
    return {
        {QStringLiteral("runs"), double(stats.runs)},          {QStringLiteral("failures"), double(stats.failures)},
        {QStringLiteral("timeouts"), double(stats.timeouts)},  {QStringLiteral("crashes"), double(stats.crashes)},
        {QStringLiteral("busy_usec"), double(stats.busyUsec)}, {QStringLiteral("rate_10s"), stats.rate10s},
        {QStringLiteral("rate_60s"), stats.rate60s},
    };
}

QJsonObject statsTotals(const StatsSnapshot &stats)
{
    return {
        {QStringLiteral("claimed"), double(stats.claimed)},
        {QStringLiteral("rounds"), double(stats.rounds)},
        {QStringLiteral("stage_runs"), double(stats.stageRuns)},
        {QStringLiteral("messages"), double(stats.messages)},
        {QStringLiteral("rate_10s"), stats.rate10s},
        {QStringLiteral("rate_60s"), stats.rate60s},
    };
}

QJsonObject stageQueue(const StageQueue &queue)
{
    return {
        {QStringLiteral("pending"), double(queue.pending)},
        {QStringLiteral("running"), double(queue.running)},
        {QStringLiteral("paused"), double(queue.paused)},
        {QStringLiteral("failed"), double(queue.failed)},
        {QStringLiteral("timeout"), double(queue.timeout)},
        {QStringLiteral("oldest_pending_age_ms"), optionalAge(queue.oldestPendingAgeMs)},
    };
}

QJsonObject stage(const StageConfig &stage, const QStringList &predecessors, bool drained)
{
    return {
        {QStringLiteral("name"), stage.name},
        {QStringLiteral("program"), stage.program},
        {QStringLiteral("parallelism"), stage.parallelism},
        {QStringLiteral("queue_limit"), stage.queueLimit},
        {QStringLiteral("max_messages"), stage.maxMessages},
        {QStringLiteral("next"), QJsonArray::fromStringList(stage.next)},
        {QStringLiteral("fuse"), stage.fuse},
        {QStringLiteral("predecessors"), QJsonArray::fromStringList(predecessors)},
        {QStringLiteral("drained"), drained},
    };
}

QJsonObject settings(const DispatchSettings &settings)
{
    return {
        {QStringLiteral("max_runtime_ms"), double(settings.maxRuntime.count())},
        {QStringLiteral("worker_idle_timeout_ms"), double(settings.workerIdleTimeout.count())},
        {QStringLiteral("poll_interval_ms"), double(settings.pollInterval.count())},
        {QStringLiteral("stats_interval_ms"), double(settings.statsInterval.count())},
        {QStringLiteral("tempfail_delay_ms"), double(settings.tempfailDelay.count())},
        {QStringLiteral("db_pool_size"), settings.dbPoolSize},
        {QStringLiteral("config_file"), textOrNull(settings.configFile)},
    };
}

} // namespace pepsi::json
