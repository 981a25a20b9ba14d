// SPDX-License-Identifier: AGPL-3.0-or-later
#include "control/querycommands.h"

#include "control/protocol.h"
#include "control/snapshotjson.h"
#include "model/dispatchboard.h"

#include <QJsonArray>

namespace pepsi::querycommands {
namespace cmd = protocol::cmd;
namespace field = protocol::field;

namespace {

using Reply = CommandReply;

Reply fail(const QString &message) { return failure(message); }

QJsonObject stageStatsOrZero(const StatsSnapshot &stats, const QString &stage)
{
    return json::stageStats(stats.stages.value(stage));
}

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
    return failure(QStringLiteral("'%1': unknown stage \"%2\" (stages: %3)")
                       .arg(command, stage.left(64), names.isEmpty() ? QStringLiteral("none") : names.join(u", ")));
}

// One picture: the totals add up the pools listed, and the statistics are of the same moment.
Reply composeStatus(const DispatchPicture &now, const QString &only, const Result<QueueCounts, QString> &queues)
{
    const DaemonInfo &info = now.info;
    const QList<PoolSnapshot> &pools = now.pools;
    const StatsSnapshot &stats = now.stats;

    int workers = 0, busy = 0, inFlight = 0, capacity = 0;
    QJsonObject stages;
    for (const PoolSnapshot &pool : pools) {
        workers += pool.workers;
        busy += pool.busy;
        inFlight += pool.inFlight;
        capacity += pool.capacity;
        if (!only.isEmpty() && pool.stage != only)
            continue;
        QJsonObject stage = json::pool(pool);
        stage.insert(field::Queue,
                     queues ? QJsonValue(json::stageQueue(queues->stages.value(pool.stage)))
                            : QJsonValue(QJsonValue::Null));
        stage.insert(field::Stats, stageStatsOrZero(stats, pool.stage));
        stages.insert(pool.stage, stage);
    }
    // The totals are always the whole daemon's, a stage filter or not.
    QJsonObject totals = json::statsTotals(stats);
    totals.insert(field::Workers, workers);
    totals.insert(field::Busy, busy);
    totals.insert(field::InFlight, inFlight);
    totals.insert(field::Capacity, capacity);

    QJsonObject result{
        {field::Time, json::time(QDateTime::currentDateTimeUtc())},
        {field::State, lifecycleName(info.lifecycle)},
        {field::Totals, totals},
        {field::QueuesAt, queues ? json::time(queues->takenAt) : QJsonValue(QJsonValue::Null)},
        {field::Stages, stages},
    };
    if (!queues)
        result.insert(field::QueuesError, queues.error());
    return QJsonValue(result);
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
        {field::Started, json::time(info.startedAt)},
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
    context.queueCounts(DispatchPort::Freshness::Recent,
                        [now = std::move(now), stage = only.value(), reply](
                            const Result<QueueCounts, QString> &queues) { reply(composeStatus(now, stage, queues)); });
}

Reply stages(const QJsonObject &, CommandContext &context)
{
    const DispatchPicture now = context.board.picture();
    QJsonArray list;
    for (const StageConfig &stage : now.graph.stages())
        list.append(json::stage(stage, now.graph.predecessors(stage.name), now.isDrained(stage.name)));
    return QJsonValue(QJsonObject{{field::Stages, list}, {field::Settings, json::settings(now.settings)}});
}

Reply workers(const QJsonObject &request, CommandContext &context)
{
    // The stage is checked against the pools of the moment whose workers are listed.
    const DispatchPicture now = context.board.picture();
    const auto only = stageFilter(QString(cmd::Workers), request, now.pools);
    if (!only)
        return fail(only.error());
    const bool withIds = request.value(field::Ids).toBool(true);
    QJsonArray list;
    for (const WorkerSnapshot &worker : now.workers) {
        if (only->isEmpty() || worker.stage == *only)
            list.append(json::worker(worker, withIds));
    }
    return QJsonValue(list);
}

void queues(const QJsonObject &, CommandContext &context, const ReplyFunction &reply)
{
    context.queueCounts(DispatchPort::Freshness::Fresh, [reply](const Result<QueueCounts, QString> &counts) {
        if (!counts)
            return reply(fail(QStringLiteral("queue counts unavailable: ") + counts.error()));
        QJsonObject stages;
        for (auto it = counts->stages.cbegin(); it != counts->stages.cend(); ++it)
            stages.insert(it.key(), json::stageQueue(it.value()));
        reply(QJsonValue(QJsonObject{
            {field::At, json::time(counts->takenAt)},
            {field::AgeMs, double(std::max<qint64>(0, counts->takenAt.msecsTo(QDateTime::currentDateTimeUtc())))},
            {field::Stages, stages},
        }));
    });
}

Reply stats(const QJsonObject &, CommandContext &context)
{
    const StatsSnapshot stats = context.board.picture().stats;
    QJsonObject stages;
    for (auto it = stats.stages.cbegin(); it != stats.stages.cend(); ++it)
        stages.insert(it.key(), json::stageStats(it.value()));
    return QJsonValue(QJsonObject{
        {field::Since, json::time(stats.since)}, {field::Totals, json::statsTotals(stats)}, {field::Stages, stages}});
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
