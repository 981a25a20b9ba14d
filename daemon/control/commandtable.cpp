// SPDX-License-Identifier: AGPL-3.0-or-later
#include "control/commandtable.h"

#include "control/controllog.h"
#include "control/operatorcommands.h"
#include "control/protocol.h"
#include "control/snapshotjson.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <cmath>

namespace pepsi {
namespace cmd = protocol::cmd;
namespace field = protocol::field;

namespace {

using protocol::MaxRequeueIds;
using protocol::MaxRequeueLimit;

using Reply = CommandReply;

Reply fail(const QString &message) { return failure(message); }

QString typeName(ArgType type)
{
    switch (type) {
    case ArgType::String:
        return QStringLiteral("string");
    case ArgType::Integer:
        return QStringLiteral("integer");
    case ArgType::Boolean:
        return QStringLiteral("boolean");
    case ArgType::IntegerArray:
        return QStringLiteral("array of integers");
    case ArgType::StringArray:
        return QStringLiteral("array of strings");
    case ArgType::StringOrInteger:
        return QStringLiteral("string or integer");
    }
    return {};
}

bool isInteger(const QJsonValue &value)
{
    if (!value.isDouble())
        return false;
    const double number = value.toDouble();
    // Integral and exact in a double.
    return std::isfinite(number) && std::trunc(number) == number && std::fabs(number) <= 9007199254740992.0;
}

bool hasType(const QJsonValue &value, ArgType type)
{
    switch (type) {
    case ArgType::String:
        return value.isString();
    case ArgType::Integer:
        return isInteger(value);
    case ArgType::Boolean:
        return value.isBool();
    case ArgType::StringOrInteger:
        return value.isString() || isInteger(value);
    case ArgType::IntegerArray:
    case ArgType::StringArray: {
        if (!value.isArray())
            return false;
        const QJsonArray array = value.toArray();
        for (const QJsonValue each : array) {
            if (type == ArgType::IntegerArray ? !isInteger(each) : !each.isString())
                return false;
        }
        return true;
    }
    }
    return false;
}

std::optional<QString> checkArguments(const CommandSpec &spec, const QJsonObject &request)
{
    for (const ArgSpec &arg : spec.args) {
        const QJsonValue value = request.value(arg.name);
        if (value.isUndefined() || value.isNull()) {
            if (arg.required)
                return QStringLiteral("'%1' needs the argument \"%2\" (%3)")
                    .arg(spec.name, arg.name, typeName(arg.type));
            continue;
        }
        if (!hasType(value, arg.type))
            return QStringLiteral("'%1': the argument \"%2\" must be %3 %4")
                .arg(spec.name, arg.name,
                     arg.type == ArgType::Integer || arg.type == ArgType::IntegerArray
                             || arg.type == ArgType::StringArray
                         ? QStringLiteral("an")
                         : QStringLiteral("a"),
                     typeName(arg.type));
    }
    return std::nullopt;
}

// --- read commands -----------------------------------------------------------

Reply help(const QJsonObject &, CommandContext &)
{
    QJsonArray commands;
    for (const CommandSpec &spec : commandTable()) {
        QJsonArray args;
        for (const ArgSpec &arg : spec.args)
            args.append(QJsonObject{
                {field::Name, arg.name}, {field::Type, typeName(arg.type)}, {field::Required, arg.required}});
        commands.append(QJsonObject{
            {field::Cmd, spec.name}, {field::Admin, spec.admin}, {field::Summary, spec.summary}, {field::Args, args}});
    }
    return QJsonValue(
        QJsonObject{{field::Commands, commands}, {field::Events, QJsonArray::fromStringList(eventNames())}});
}

Reply version(const QJsonObject &, CommandContext &context)
{
    const DaemonInfo info = context.view.info();
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

Reply composeStatus(DispatchView &view, const QString &only, const Result<QueueCounts, QString> &queues)
{
    // One picture: the totals add up the pools listed, and the statistics are of the same moment.
    const DispatchPicture now = view.picture();
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

void status(const QJsonObject &request, CommandContext &context, const ReplyFunction &reply)
{
    const auto only = stageFilter(QString(cmd::Status), request, context.view.pools());
    if (!only)
        return reply(fail(only.error()));
    DispatchView *view = &context.view;
    // The pools and statistics are read when the counts arrive, so the reply is one moment's.
    context.view.queueCounts(context.connection, DispatchView::Freshness::Recent,
                             [view, stage = only.value(), reply](const Result<QueueCounts, QString> &queues) {
                                 reply(composeStatus(*view, stage, queues));
                             });
}

Reply stages(const QJsonObject &, CommandContext &context)
{
    const DispatchPicture now = context.view.picture();
    QJsonArray list;
    for (const StageConfig &stage : now.graph.stages())
        list.append(json::stage(stage, now.graph.predecessors(stage.name), now.isDrained(stage.name)));
    return QJsonValue(QJsonObject{{field::Stages, list}, {field::Settings, json::settings(now.settings)}});
}

Reply workers(const QJsonObject &request, CommandContext &context)
{
    // The stage is checked against the pools of the moment whose workers are listed.
    const DispatchPicture now = context.view.picture();
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
    context.view.queueCounts(
        context.connection, DispatchView::Freshness::Fresh, [reply](const Result<QueueCounts, QString> &counts) {
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
    const StatsSnapshot stats = context.view.stats();
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

// --- admin commands ----------------------------------------------------------

void reload(const QJsonObject &, CommandContext &context, const ReplyFunction &reply)
{
    context.control.reload(context.peer.uid, context.connection, [reply](const Result<QStringList, QString> &names) {
        if (!names)
            return reply(fail(names.error()));
        reply(QJsonValue(QJsonObject{{field::Stages, QJsonArray::fromStringList(*names)}}));
    });
}

void setDrained(const QJsonObject &request, CommandContext &context, const ReplyFunction &reply, bool drained)
{
    const QString stage = request.value(field::Stage).toString();
    auto answer = [reply, stage, drained](const Result<bool, QString> &done) {
        if (!done)
            return reply(fail(done.error()));
        reply(QJsonValue(QJsonObject{{field::Stage, stage}, {field::Drained, drained}}));
    };
    if (drained)
        context.control.drain(stage, context.peer.uid, context.connection, answer);
    else
        context.control.resume(stage, context.peer.uid, context.connection, answer);
}

void drain(const QJsonObject &request, CommandContext &context, const ReplyFunction &reply)
{
    setDrained(request, context, reply, true);
}

void resume(const QJsonObject &request, CommandContext &context, const ReplyFunction &reply)
{
    setDrained(request, context, reply, false);
}

void requeue(const QJsonObject &request, CommandContext &context, const ReplyFunction &reply)
{
    RequeueRequest what;
    what.stage = request.value(field::Stage).toString();
    what.status = request.value(field::Status).toString();
    if (what.status != protocol::value::Failed && what.status != protocol::value::Timeout)
        return reply(fail(
            QStringLiteral("'requeue': \"status\" must be \"failed\" or \"timeout\", not \"%1\"").arg(what.status)));
    const QJsonArray ids = request.value(field::Ids).toArray();
    if (ids.size() > MaxRequeueIds)
        return reply(
            fail(QStringLiteral("'requeue': at most %1 ids at once (%2 given)").arg(MaxRequeueIds).arg(ids.size())));
    for (const QJsonValue id : ids)
        what.ids.append(qint64(id.toDouble()));
    if (const QJsonValue age = request.value(field::MaxAgeMs); isInteger(age)) {
        if (age.toDouble() < 0)
            return reply(fail(QStringLiteral("'requeue': \"max_age_ms\" must not be negative")));
        what.maxAgeMs = qint64(age.toDouble());
    }
    if (const QJsonValue limit = request.value(field::Limit); isInteger(limit)) {
        if (limit.toDouble() < 1 || limit.toDouble() > MaxRequeueLimit)
            return reply(fail(QStringLiteral("'requeue': \"limit\" must be 1 to %1").arg(MaxRequeueLimit)));
        what.limit = int(limit.toDouble());
    }
    context.control.requeue(
        what, context.peer.uid, context.connection, [reply](const Result<RequeueOutcome, QString> &outcome) {
            if (!outcome)
                return reply(fail(outcome.error()));
            reply(QJsonValue(QJsonObject{{field::Requeued, double(outcome->requeued)}, {field::More, outcome->more}}));
        });
}

QJsonObject errorReply(const QJsonValue &id, const QString &message)
{
    return {{field::Id, id}, {field::Ok, false}, {field::Error, message}};
}

QByteArray serialize(const QJsonObject &reply) { return QJsonDocument(reply).toJson(QJsonDocument::Compact) + '\n'; }

// The reply as one line of at most maxLine bytes: a result that does not fit
// becomes an error that says what narrows it; an error that does not fit
// (a huge "id" echoed) goes without its id.
QByteArray boundedLine(const QJsonValue &id, const Reply &reply, qsizetype maxLine, const CommandSpec *spec)
{
    if (reply) {
        QByteArray line = serialize({{field::Id, id}, {field::Ok, true}, {field::Result, reply.value()}});
        if (line.size() <= maxLine)
            return line;
        qCInfo(lcControl).noquote() << "a" << spec->name << "reply of" << line.size()
                                    << "bytes would pass the line limit; refused";
        return boundedLine(
            id,
            failure(QStringLiteral("the '%1' reply would be %2 bytes, more than the %3-byte line limit%4")
                        .arg(spec->name)
                        .arg(line.size())
                        .arg(maxLine)
                        .arg(spec->narrowedBy.isEmpty() ? QString() : u"; " + spec->narrowedBy)),
            maxLine, spec);
    }
    QByteArray line = serialize(errorReply(id, reply.error()));
    if (line.size() <= maxLine)
        return line;
    return serialize(
        errorReply(QJsonValue::Null, reply.error().left(1000) + u" (the request's id is too long to echo)"));
}

} // namespace

const QList<CommandSpec> &commandTable()
{
    static const ArgSpec stageArg{field::Stage, ArgType::String, true};
    static const QList<CommandSpec> table{
        {QString(cmd::Drain),
         true,
         QStringLiteral("stop claiming for a stage; its workers finish what they hold"),
         {stageArg},
         nullptr,
         drain},
        {QString(cmd::Help),
         false,
         QStringLiteral("every command, its arguments and whether it needs admin"),
         {},
         help},
        {QString(cmd::Message),
         false,
         QStringLiteral("one row by id: its status, claims, times and state (cut to 16 KiB)"),
         {{field::MessageId, ArgType::Integer, true}},
         nullptr,
         operatorcommands::message},
        {QString(cmd::Messages),
         false,
         QStringLiteral("a stage's rows in one status (not done), in id order, a page at a time; or "
                        "(\"reasons\": true) their reasons with counts"),
         {stageArg,
          {field::Status, ArgType::String, true},
          {field::AfterId, ArgType::Integer, false},
          {field::Limit, ArgType::Integer, false},
          {field::Reason, ArgType::String, false},
          {field::MaxAgeMs, ArgType::Integer, false},
          {field::Reasons, ArgType::Boolean, false}},
         nullptr,
         operatorcommands::messages,
         QStringLiteral("ask for fewer rows (\"limit\")")},
        {QString(cmd::Metrics),
         false,
         QStringLiteral("live state and counters in the Prometheus text format (result.text)"),
         {},
         nullptr,
         operatorcommands::metrics},
        {QString(cmd::Queues),
         false,
         QStringLiteral("row counts per stage and status, pending rows by age (cached for at most 1 s)"),
         {},
         nullptr,
         queues},
        {QString(cmd::Reload),
         true,
         QStringLiteral("re-read config_overlay now and start a claim round"),
         {},
         nullptr,
         reload},
        {QString(cmd::Requeue),
         true,
         QStringLiteral("move failed or timeout rows of a stage back to pending"),
         {stageArg,
          {field::Status, ArgType::String, true},
          {field::Ids, ArgType::IntegerArray, false},
          {field::MaxAgeMs, ArgType::Integer, false},
          {field::Limit, ArgType::Integer, false}},
         nullptr,
         requeue},
        {QString(cmd::Resume), true, QStringLiteral("claim for a drained stage again"), {stageArg}, nullptr, resume},
        {QString(cmd::Set),
         true,
         QStringLiteral(
             "write a stage's PARALLELISM, QUEUE_LIMIT or MAX_MESSAGES to config_overlay (the graph reloads)"),
         {stageArg, {field::Option, ArgType::String, true}, {field::Value, ArgType::StringOrInteger, true}},
         nullptr,
         operatorcommands::set},
        {QString(cmd::Stages),
         false,
         QStringLiteral("the pipeline graph as loaded, and the daemon settings"),
         {},
         stages},
        {QString(cmd::Stats), false, QStringLiteral("in-memory totals and per-stage rates"), {}, stats},
        {QString(cmd::Status),
         false,
         QStringLiteral("pools, in-flight, queue counts and statistics in one snapshot (all stages, or \"stage\")"),
         {{field::Stage, ArgType::String, false}},
         nullptr,
         status,
         QStringLiteral("ask for one \"stage\" at a time")},
        {QString(cmd::Subscribe),
         false,
         QStringLiteral("receive events (all, or the named ones)"),
         {{field::Events, ArgType::StringArray, false}},
         subscribe},
        {QString(cmd::Unsubscribe), false, QStringLiteral("stop receiving events"), {}, unsubscribe},
        {QString(cmd::Version),
         false,
         QStringLiteral("daemon and protocol version, state, and what this peer may do"),
         {},
         version},
        {QString(cmd::Workers),
         false,
         QStringLiteral("every live worker process (or one \"stage\"'s), with the ids it holds unless \"ids\": false"),
         {{field::Stage, ArgType::String, false}, {field::Ids, ArgType::Boolean, false}},
         workers,
         nullptr,
         QStringLiteral("ask for one \"stage\" at a time, or without the ids (\"ids\": false)")},
    };
    return table;
}

const QStringList &eventNames() { return protocol::eventNames(); }

void runRequest(const QByteArray &line, CommandContext &context, std::function<void(QByteArray)> send)
{
    const auto refuse = [&send, &context](const QJsonValue &id, const QString &message) {
        send(boundedLine(id, Reply(failure(message)), context.maxLine, nullptr));
    };
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(line, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return refuse(QJsonValue::Null,
                      QStringLiteral("bad JSON at offset %1: %2").arg(parseError.offset).arg(parseError.errorString()));
    if (!document.isObject())
        return refuse(QJsonValue::Null, QStringLiteral("a request must be a JSON object"));
    const QJsonObject request = document.object();
    const QJsonValue id = request.contains(field::Id) ? request.value(field::Id) : QJsonValue(QJsonValue::Null);
    const QJsonValue cmd = request.value(field::Cmd);
    if (!cmd.isString())
        return refuse(
            id, cmd.isUndefined() ? QStringLiteral("missing \"cmd\"") : QStringLiteral("\"cmd\" must be a string"));
    const QString name = cmd.toString();
    const CommandSpec *spec = nullptr;
    for (const CommandSpec &each : commandTable()) {
        if (each.name == name)
            spec = &each;
    }
    if (!spec)
        return refuse(id, QStringLiteral("unknown command \"%1\" (\"help\" lists them)").arg(name.left(64)));
    if (const auto bad = checkArguments(*spec, request))
        return refuse(id, *bad);
    if (spec->admin) {
        if (!context.admin) {
            qCInfo(lcControl).noquote() << "refused" << name << "to uid" << context.peer.uid << "pid"
                                        << context.peer.pid;
            return refuse(
                id,
                QStringLiteral("permission denied: '%1' needs root or the service account %2 (you are uid %3)")
                    .arg(name, context.view.info().user)
                    .arg(context.peer.uid));
        }
        qCInfo(lcControl).noquote()
            << "admin command" << QString::fromUtf8(QJsonDocument(request).toJson(QJsonDocument::Compact)).left(300)
            << "from uid" << context.peer.uid << "pid" << context.peer.pid;
    }
    const auto answer = [id, maxLine = context.maxLine, spec, send](const Reply &reply) {
        send(boundedLine(id, reply, maxLine, spec));
    };
    if (spec->asyncHandler)
        return spec->asyncHandler(request, context, answer);
    answer(spec->handler(request, context));
}

} // namespace pepsi
