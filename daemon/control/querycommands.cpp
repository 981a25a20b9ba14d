// SPDX-License-Identifier: AGPL-3.0-or-later
#include "control/querycommands.h"

#include "control/protocol.h"
#include "control/snapshotcodec.h"
#include "model/dispatchboard.h"
#include "model/unknownstage.h"

#include <QJsonArray>

namespace pepsi::querycommands {
namespace cmd = protocol::cmd;
namespace field = protocol::field;

namespace {

using Reply = CommandReply;

Reply fail(const QString &message) { return failure(message); }

// The stage a request names in "stage", if any, or why it names none that exists.
Result<QString, QString> stageFilter(const QString &command, const QJsonObject &request,
                                     const QList<PoolSnapshot> &pools)
{
    const QString stage = request.value(field::Stage).toString();
    if (stage.isEmpty())
        return QString();
    QStringList names;
    for (const PoolSnapshot &pool : pools) {
        if (pool.stage == stage)
            return stage;
        names.append(pool.stage);
    }
    return failure(unknownStage(command, stage, names));
}

// One picture: the totals add up the pools listed, and the statistics are of the same moment.
Reply composeStatus(const DispatchPicture &now, const QString &only, const Result<QueueCounts, QString> &queues)
{
    StatusSnapshot status;
    status.time = QDateTime::currentDateTimeUtc();
    status.state = now.info.lifecycle;
    status.stats = now.stats;
    // The totals are always the whole daemon's, a stage filter or not.
    status.poolTotals = PoolTotals::of(now.pools);
    for (const PoolSnapshot &pool : now.pools) {
        if (only.isEmpty() || pool.stage == only)
            status.pools.append(pool);
    }
    if (queues)
        status.queues = queues.value();
    else
        status.queuesError = queues.error();
    return QJsonValue(protocol::toJson(status));
}

StageInfo stageInfo(const DispatchPicture &now, const StageConfig &stage)
{
    return {stage.name,
            stage.program,
            stage.parallelism,
            stage.queueLimit,
            stage.maxMessages,
            stage.next,
            stage.fuse,
            now.graph.predecessors(stage.name),
            now.isDrained(stage.name),
            now.graph.sources(stage.name)};
}

SettingsSnapshot settingsSnapshot(const DispatchSettings &settings)
{
    return {settings.maxRuntime.count(),
            settings.workerIdleTimeout.count(),
            settings.pollInterval.count(),
            settings.statsInterval.count(),
            settings.tempfailDelay.count(),
            settings.dbPoolSize,
            settings.configFile};
}

} // namespace

Reply version(const QJsonObject &, CommandContext &context)
{
    const DaemonInfo info = context.board.picture().info;
    const bool active = info.lifecycle != Lifecycle::WaitingForLock;
    return QJsonValue(QJsonObject{
        {field::Daemon, info.version},
        {field::Protocol, protocol::Version},
        {field::Pid, double(info.pid)},
        {field::Started, protocol::timeToJson(info.startedAt)},
        {field::UptimeMs, double(info.startedAt.msecsTo(QDateTime::currentDateTimeUtc()))},
        {field::Host, info.host},
        {field::Database, info.database},
        {field::User, info.user},
        {field::Role, active ? QString(protocol::value::Active) : QString(protocol::value::Standby)},
        {field::State, lifecycleName(info.lifecycle)},
        {field::Standby, info.standby},
        {field::Peer,
         QJsonObject{{field::Uid, double(context.peer.uid)},
                     {field::Pid, double(context.peer.pid)},
                     {field::Admin, context.admin}}},
    });
}

void status(const QJsonObject &request, CommandContext &context, const ReplyFunction &reply)
{
    // The moment the client asked in: what it heard of before is in it.
    DispatchPicture now = context.board.picture();
    const auto only = stageFilter(QString(cmd::Status), request, now.pools);
    if (!only)
        return reply(fail(only.error()));
    context.queueCounts(OperatorQueries::Freshness::Recent,
                        [now = std::move(now), stage = only.value(), reply](
                            const Result<QueueCounts, QString> &queues) { reply(composeStatus(now, stage, queues)); });
}

Reply stages(const QJsonObject &, CommandContext &context)
{
    const DispatchPicture now = context.board.picture();
    StagesSnapshot stages;
    for (const StageConfig &stage : now.graph.stages())
        stages.stages.append(stageInfo(now, stage));
    stages.settings = settingsSnapshot(now.settings);
    return QJsonValue(protocol::toJson(stages));
}

Reply workers(const QJsonObject &request, CommandContext &context)
{
    // The stage is checked against the pools of the moment whose workers are listed.
    const DispatchPicture now = context.board.picture();
    const auto only = stageFilter(QString(cmd::Workers), request, now.pools);
    if (!only)
        return fail(only.error());
    const auto ids =
        request.value(field::Ids).toBool(true) ? protocol::WorkerIds::Included : protocol::WorkerIds::Omitted;
    QJsonArray list;
    for (const WorkerSnapshot &worker : now.workers) {
        if (only->isEmpty() || worker.stage == *only)
            list.append(protocol::toJson(worker, ids));
    }
    return QJsonValue(list);
}

void queues(const QJsonObject &, CommandContext &context, const ReplyFunction &reply)
{
    context.queueCounts(OperatorQueries::Freshness::Fresh, [reply](const Result<QueueCounts, QString> &counts) {
        if (!counts)
            return reply(fail(QStringLiteral("queue counts unavailable: ") + counts.error()));
        reply(QJsonValue(protocol::toJson(counts.value(), QDateTime::currentDateTimeUtc())));
    });
}

Reply stats(const QJsonObject &, CommandContext &context)
{
    return QJsonValue(protocol::toJson(context.board.picture().stats));
}

Reply subscribe(const QJsonObject &request, CommandContext &context)
{
    QSet<QString> events;
    const QJsonArray wanted = request.value(field::Events).toArray();
    for (const QJsonValue each : wanted) {
        if (!eventNames().contains(each.toString()))
            return fail(QStringLiteral("'subscribe': unknown event \"%1\" (known: %2)")
                            .arg(each.toString(), eventNames().join(QStringLiteral(", "))));
        events.insert(each.toString());
    }
    context.subscription.active = true;
    context.subscription.events = events;
    return QJsonValue(QJsonObject{{field::Subscribed, true}, {field::Seq, double(context.lastSeq)}});
}

Reply unsubscribe(const QJsonObject &, CommandContext &context)
{
    context.subscription = Subscription{};
    return QJsonValue(QJsonObject{{field::Subscribed, false}});
}

QString statusNarrowing(const QJsonObject &request)
{
    // One stage's pool, queue and statistics: nothing the request could leave off.
    if (request.value(field::Stage).toString().isEmpty())
        return QStringLiteral("ask for one \"stage\" at a time");
    return QString(NothingNarrower);
}

QString workersNarrowing(const QJsonObject &request)
{
    const bool oneStage = !request.value(field::Stage).toString().isEmpty();
    const bool withIds = request.value(field::Ids).toBool(true);
    if (!oneStage && withIds)
        return QStringLiteral("ask for one \"stage\" at a time, or without the ids (\"ids\": false)");
    if (!oneStage)
        return QStringLiteral("ask for one \"stage\" at a time");
    if (withIds)
        return QStringLiteral("ask without the ids (\"ids\": false)");
    return QString(NothingNarrower);
}

} // namespace pepsi::querycommands
