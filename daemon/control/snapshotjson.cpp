// SPDX-License-Identifier: AGPL-3.0-or-later
#include "control/snapshotjson.h"

#include "control/protocol.h"
#include "control/snapshotcodec.h"

#include <QJsonArray>

namespace pepsi::json {
namespace field = protocol::field;

namespace {

QJsonValue textOrNull(const QString &text) { return text.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(text); }

} // namespace

// The snapshot values' JSON is the shared protocol library's (control/snapshotcodec.h).
QJsonValue time(const QDateTime &when) { return protocol::timeToJson(when); }

QJsonObject pool(const PoolSnapshot &pool) { return protocol::toJson(pool); }

QJsonObject worker(const WorkerSnapshot &worker, bool withIds)
{
    return protocol::toJson(worker, withIds ? protocol::WorkerIds::Included : protocol::WorkerIds::Omitted);
}

QJsonObject stageStats(const StageStatsSnapshot &stats) { return protocol::toJson(stats); }

QJsonObject statsTotals(const StatsSnapshot &stats) { return protocol::totalsToJson(stats); }

QJsonObject stageQueue(const StageQueue &queue) { return protocol::toJson(queue); }

QJsonObject stage(const StageConfig &stage, const QStringList &predecessors, bool drained)
{
    return {
        {field::Name, stage.name},
        {field::Program, stage.program},
        {field::Parallelism, stage.parallelism},
        {field::QueueLimit, stage.queueLimit},
        {field::MaxMessages, stage.maxMessages},
        {field::Next, QJsonArray::fromStringList(stage.next)},
        {field::Fuse, stage.fuse},
        {field::Predecessors, QJsonArray::fromStringList(predecessors)},
        {field::Drained, drained},
    };
}

QJsonObject settings(const DispatchSettings &settings)
{
    return {
        {field::MaxRuntimeMs, double(settings.maxRuntime.count())},
        {field::WorkerIdleTimeoutMs, double(settings.workerIdleTimeout.count())},
        {field::PollIntervalMs, double(settings.pollInterval.count())},
        {field::StatsIntervalMs, double(settings.statsInterval.count())},
        {field::TempfailDelayMs, double(settings.tempfailDelay.count())},
        {field::DbPoolSize, settings.dbPoolSize},
        {field::ConfigFile, textOrNull(settings.configFile)},
    };
}

} // namespace pepsi::json
