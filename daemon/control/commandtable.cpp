// SPDX-License-Identifier: AGPL-3.0-or-later
#include "control/commandtable.h"

#include "control/admincommands.h"
#include "control/commandargs.h"
#include "control/controllog.h"
#include "control/operatorcommands.h"
#include "control/protocol.h"
#include "control/querycommands.h"
#include "model/dispatchboard.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

namespace pepsi {
namespace cmd = protocol::cmd;
namespace field = protocol::field;

namespace {

using Reply = CommandReply;

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

QJsonObject errorReply(const QJsonValue &id, const QString &message)
{
    return {{field::Id, id}, {field::Ok, false}, {field::Error, message}};
}

QByteArray serialize(const QJsonObject &reply) { return QJsonDocument(reply).toJson(QJsonDocument::Compact) + '\n'; }

// An error as one line: one that does not fit (a huge "id" echoed) goes without its id.
QByteArray errorLine(const QJsonValue &id, const QString &error, qsizetype maxLine)
{
    QByteArray line = serialize(errorReply(id, error));
    if (line.size() <= maxLine)
        return line;
    return serialize(errorReply(QJsonValue::Null, error.left(1000) + u" (the request's id is too long to echo)"));
}

// The reply to `request` as one line of at most maxLine bytes: a result that
// does not fit becomes an error that gives its size and what narrows it.
QByteArray replyLine(const QJsonValue &id, const Reply &reply, qsizetype maxLine, const CommandSpec &spec,
                     const QJsonObject &request)
{
    if (!reply)
        return errorLine(id, reply.error(), maxLine);
    QByteArray line = serialize({{field::Id, id}, {field::Ok, true}, {field::Result, reply.value()}});
    if (line.size() <= maxLine)
        return line;
    qCInfo(lcControl).noquote() << "a" << spec.name << "reply of" << line.size()
                                << "bytes would pass the line limit; refused";
    return errorLine(id,
                     QStringLiteral("the '%1' reply would be %2 bytes, more than the %3-byte line limit%4")
                         .arg(spec.name)
                         .arg(line.size())
                         .arg(maxLine)
                         .arg(spec.narrowedBy ? u"; " + spec.narrowedBy(request) : QString()),
                     maxLine);
}

} // namespace

qsizetype resultBudget(const QJsonObject &request, qsizetype maxLine)
{
    const QJsonValue id = request.contains(field::Id) ? request.value(field::Id) : QJsonValue(QJsonValue::Null);
    // The envelope as replyLine() writes it, with a result of "null" in its place.
    const qsizetype envelope = serialize({{field::Id, id}, {field::Ok, true}, {field::Result, QJsonValue::Null}}).size()
        - qsizetype(sizeof("null") - 1);
    return maxLine - envelope;
}

void CommandContext::queueCounts(OperatorQueries::Freshness freshness, Answer<QueueCounts> answer) const
{
    using Freshness = OperatorQueries::Freshness;
    const auto counts = board.counts();
    const qint64 youngEnough =
        freshness == Freshness::Recent ? OperatorQueries::RecentCountsMs : OperatorQueries::FreshCountsMs;
    if (counts && counts->ageMs < youngEnough) {
        // Stale while revalidating, as the operator thread does: the next asker gets a newer count.
        if (counts->ageMs >= OperatorQueries::FreshCountsMs)
            operatorQueries.queueCounts(Freshness::Recent, connection, [](const Result<QueueCounts, QString> &) {});
        return answer(counts->counts);
    }
    operatorQueries.queueCounts(freshness, connection, std::move(answer));
}

const QList<CommandSpec> &commandTable()
{
    static const ArgSpec stageArg{field::Stage, ArgType::String, true};
    static const QList<CommandSpec> table{
        {QString(cmd::Drain),
         true,
         QStringLiteral("stop claiming for a stage; its workers finish what they hold"),
         {stageArg},
         nullptr,
         admincommands::drain},
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
         operatorcommands::messagesNarrowing},
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
         querycommands::queues},
        {QString(cmd::Reasons),
         false,
         QStringLiteral("the reasons of a stage's rows in one status (default failed) with their counts, oldest "
                        "and newest"),
         {stageArg, {field::Status, ArgType::String, false}},
         nullptr,
         operatorcommands::reasons,
         operatorcommands::messagesNarrowing},
        {QString(cmd::Reload),
         true,
         QStringLiteral("re-read config_overlay now and start a claim round"),
         {},
         nullptr,
         admincommands::reload},
        {QString(cmd::Requeue),
         true,
         QStringLiteral("move failed or timeout rows of a stage back to pending (all, or by ids, reason, since)"),
         {stageArg,
          {field::Status, ArgType::String, true},
          {field::Ids, ArgType::IntegerArray, false},
          {field::MaxAgeMs, ArgType::Integer, false},
          {field::Limit, ArgType::Integer, false},
          {field::Reason, ArgType::String, false},
          {field::Since, ArgType::String, false}},
         nullptr,
         admincommands::requeue},
        {QString(cmd::Resume),
         true,
         QStringLiteral("claim for a drained stage again"),
         {stageArg},
         nullptr,
         admincommands::resume},
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
         querycommands::stages},
        {QString(cmd::Stats), false, QStringLiteral("in-memory totals and per-stage rates"), {}, querycommands::stats},
        {QString(cmd::Status),
         false,
         QStringLiteral("pools, in-flight, queue counts and statistics in one snapshot (all stages, or \"stage\")"),
         {{field::Stage, ArgType::String, false}},
         nullptr,
         querycommands::status,
         querycommands::statusNarrowing},
        {QString(cmd::Subscribe),
         false,
         QStringLiteral("receive events (all, or the named ones)"),
         {{field::Events, ArgType::StringArray, false}},
         querycommands::subscribe},
        {QString(cmd::Unset),
         true,
         QStringLiteral("remove the config_overlay row that set wrote; the file's value or the default applies again "
                        "(the graph reloads)"),
         {stageArg, {field::Option, ArgType::String, true}},
         nullptr,
         operatorcommands::unset},
        {QString(cmd::Unsubscribe), false, QStringLiteral("stop receiving events"), {}, querycommands::unsubscribe},
        {QString(cmd::Version),
         false,
         QStringLiteral("daemon and protocol version, state, and what this peer may do"),
         {},
         querycommands::version},
        {QString(cmd::Workers),
         false,
         QStringLiteral("every live worker process (or one \"stage\"'s), with the ids it holds unless \"ids\": false"),
         {{field::Stage, ArgType::String, false}, {field::Ids, ArgType::Boolean, false}},
         querycommands::workers,
         nullptr,
         querycommands::workersNarrowing},
    };
    return table;
}

const QStringList &eventNames() { return protocol::eventNames(); }

void runRequest(const QByteArray &line, CommandContext &context, std::function<void(QByteArray)> send)
{
    const auto refuse = [&send, &context](const QJsonValue &id, const QString &message) {
        send(errorLine(id, message, context.maxLine));
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
                    .arg(name, context.board.picture().info.user)
                    .arg(context.peer.uid));
        }
        qCInfo(lcControl).noquote()
            << "admin command" << QString::fromUtf8(QJsonDocument(request).toJson(QJsonDocument::Compact)).left(300)
            << "from uid" << context.peer.uid << "pid" << context.peer.pid;
    }
    const auto answer = [id, maxLine = context.maxLine, spec, request, send](const Reply &reply) {
        send(replyLine(id, reply, maxLine, *spec, request));
    };
    if (spec->asyncHandler)
        return spec->asyncHandler(request, context, answer);
    answer(spec->handler(request, context));
}

} // namespace pepsi
