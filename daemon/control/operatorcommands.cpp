// SPDX-License-Identifier: AGPL-3.0-or-later
#include "control/operatorcommands.h"

#include "config/configuration.h"
#include "config/stagegraph.h"
#include "control/messagecodec.h"
#include "control/metricstext.h"
#include "control/protocol.h"
#include "control/snapshotcodec.h"
#include "model/dispatchboard.h"
#include "model/operatorqueries.h"
#include "model/unknownstage.h"

#include <QJsonArray>

namespace pepsi::operatorcommands {
namespace cmd = protocol::cmd;
namespace field = protocol::field;

namespace {

CommandReply fail(const QString &message) { return failure(message); }

// The argument's types were checked: an integer here is exact in a double.
qint64 integerOf(const QJsonValue &value) { return qint64(value.toDouble()); }

// The stages a row may be listed under: the graph's and the retired ones still draining.
QStringList knownStages(const DispatchPicture &now)
{
    QStringList names;
    for (const PoolSnapshot &pool : now.pools)
        names << pool.stage;
    return names;
}

// "8" or 8, as a config file would have it.
QString valueText(const QJsonValue &value)
{
    return value.isString() ? value.toString() : QString::number(integerOf(value));
}

// The stage and status of `messages` and `reasons`, checked; the
// dispatcher's picture tells the stages.
Result<MessagesRequest, QString> stageAndStatus(QLatin1StringView command, const QJsonObject &request,
                                                const CommandContext &context)
{
    MessagesRequest what;
    what.stage = request.value(field::Stage).toString();
    what.status = request.value(field::Status).toString(QString(protocol::value::Failed));
    const DispatchPicture now = context.board.picture();
    const QStringList stages = knownStages(now);
    if (!stages.contains(what.stage))
        return failure(unknownStage(command, what.stage, stages));
    static const QStringList listable{protocol::value::Pending, protocol::value::Running, protocol::value::Paused,
                                      protocol::value::Failed, protocol::value::Timeout};
    if (what.status == protocol::value::Done)
        return failure(QStringLiteral("'%1': done rows are not listed: they have no index of their own and "
                                      "their history may hold millions (\"message\" shows one by id)")
                           .arg(command));
    if (!listable.contains(what.status))
        return failure(QStringLiteral("'%1': \"status\" must be one of %2, not \"%3\"")
                           .arg(command, listable.join(u", "), what.status.left(64)));
    if (const auto down = now.databaseUnreachable())
        return failure(QString(QStringLiteral("'%1': ").arg(command) + *down));
    return what;
}

// Asks for the page and answers with as much of it as fits in the reply's line.
void answerPage(QLatin1StringView command, const MessagesRequest &what, const QJsonObject &request,
                CommandContext &context, const ReplyFunction &reply)
{
    const qsizetype budget = resultBudget(request, context.maxLine);
    context.operatorQueries.messages(
        what, context.connection, [reply, command, budget](const Result<MessagePage, QString> &page) {
            if (!page)
                return reply(fail(QStringLiteral("'%1': ").arg(command) + page.error()));
            reply(QJsonValue(protocol::toJson(protocol::fittedPage(page.value(), budget))));
        });
}

} // namespace

void messages(const QJsonObject &request, CommandContext &context, const ReplyFunction &reply)
{
    auto checked = stageAndStatus(cmd::Messages, request, context);
    if (!checked)
        return reply(fail(checked.error()));
    MessagesRequest what = checked.value();
    if (const QJsonValue after = request.value(field::AfterId); after.isDouble()) {
        if (integerOf(after) < 0)
            return reply(fail(QStringLiteral("'messages': \"after_id\" must not be negative")));
        what.afterId = integerOf(after);
    }
    if (const QJsonValue limit = request.value(field::Limit); limit.isDouble()) {
        if (integerOf(limit) < 1 || integerOf(limit) > protocol::MaxMessagesLimit)
            return reply(fail(QStringLiteral("'messages': \"limit\" must be 1 to %1").arg(protocol::MaxMessagesLimit)));
        what.limit = int(integerOf(limit));
    }
    if (const QJsonValue reason = request.value(field::Reason); reason.isString())
        what.reason = reason.toString();
    if (const QJsonValue age = request.value(field::MaxAgeMs); age.isDouble()) {
        if (integerOf(age) < 0)
            return reply(fail(QStringLiteral("'messages': \"max_age_ms\" must not be negative")));
        what.maxAgeMs = integerOf(age);
    }
    what.reasons = request.value(field::Reasons).toBool();
    answerPage(cmd::Messages, what, request, context, reply);
}

void reasons(const QJsonObject &request, CommandContext &context, const ReplyFunction &reply)
{
    auto checked = stageAndStatus(cmd::Reasons, request, context);
    if (!checked)
        return reply(fail(checked.error()));
    MessagesRequest what = checked.value();
    what.reasons = true;
    answerPage(cmd::Reasons, what, request, context, reply);
}

QString messagesNarrowing(const QJsonObject &)
{
    // A page holds as many rows (or reasons) as fit: only one that does not
    // fit on its own (a reason of 1000 characters and an "id" of 60 KiB) gets here.
    return QString(NothingNarrower);
}

void message(const QJsonObject &request, CommandContext &context, const ReplyFunction &reply)
{
    const qint64 id = integerOf(request.value(field::MessageId));
    if (id < 1)
        return reply(fail(QStringLiteral("'message': no message with id %1").arg(id)));
    if (const auto down = context.board.picture().databaseUnreachable())
        return reply(fail(QStringLiteral("'message': ") + *down));
    context.operatorQueries.message(id, context.connection, [reply](const Result<MessageDetail, QString> &detail) {
        if (!detail)
            return reply(fail(QStringLiteral("'message': ") + detail.error()));
        reply(QJsonValue(protocol::toJson(detail.value())));
    });
}

std::optional<QString> settingError(const QString &stage, const QString &option, const QString &value)
{
    // A value the loader would expand ($VAR) is expanded against the file's
    // [PATHS] and the environment of whoever reads it: not what the operator
    // sees here. Control characters would not survive a config file either.
    for (const QChar c : value) {
        if (c == u'$' || c.category() == QChar::Other_Control)
            return QStringLiteral("'set': the value of %1 must be a plain number, not \"%2\"")
                .arg(option, value.left(64));
    }
    // The loader's own checks on a graph of this stage alone, the value as an
    // overlay row: the same bounds and the same words as a reload would use.
    const QString section = QStringLiteral("stage-") + stage;
    const auto base = Configuration::parse(QStringLiteral("[%1]\nPROGRAM = /bin/true\n").arg(section).toUtf8(),
                                           QStringLiteral("set"));
    if (!base)
        return QStringLiteral("'set': ") + base.error().toString();
    const Configuration config = base.value().withOverlay({OverlayRow{section, option, value}});
    const auto graph = StageGraph::fromConfiguration(config);
    if (!graph)
        return QStringLiteral("'set': ") + graph.error().toString();
    return std::nullopt;
}

namespace {

// The row `set` writes and `unset` removes, checked alike: a stage of the
// graph in force, and an option `set` may write.
Result<OverlaySetting, QString> overlayRow(QLatin1StringView command, const QJsonObject &request,
                                           const StageGraph &graph)
{
    const QString stage = request.value(field::Stage).toString();
    const QString option = request.value(field::Option).toString().trimmed().toUpper();
    if (!graph.stage(stage))
        return failure(unknownStage(command, stage, graph.names()));
    if (!protocol::settableOptions().contains(option))
        return failure(QStringLiteral("'%1': \"option\" must be one of %2, not \"%3\"")
                           .arg(command, protocol::settableOptions().join(u", "),
                                request.value(field::Option).toString().left(64)));
    return OverlaySetting{QStringLiteral("stage-") + stage, option, std::nullopt};
}

// Writes or removes the row; the reply names the stage, the option and the value written.
void changeOverlay(QLatin1StringView command, const QString &stage, const OverlaySetting &row, CommandContext &context,
                   const ReplyFunction &reply)
{
    context.port.set(row, context.peer.uid, context.connection,
                     [reply, command, stage, row](const Result<bool, QString> &changed) {
                         if (!changed)
                             return reply(fail(QStringLiteral("'%1': ").arg(command) + changed.error()));
                         if (!*changed)
                             return reply(fail(QStringLiteral("'%1': config_overlay has no %2 row for stage %3; "
                                                              "nothing was removed")
                                                   .arg(command, row.option, stage)));
                         QJsonObject result{{field::Stage, stage}, {field::Option, row.option}};
                         if (row.value)
                             result.insert(field::Value, *row.value);
                         reply(QJsonValue(result));
                     });
}

} // namespace

void set(const QJsonObject &request, CommandContext &context, const ReplyFunction &reply)
{
    const QString stage = request.value(field::Stage).toString();
    auto row = overlayRow(cmd::Set, request, context.board.picture().graph);
    if (!row)
        return reply(fail(row.error()));
    const QString value = valueText(request.value(field::Value)).trimmed();
    if (const auto bad = settingError(stage, row->option, value))
        return reply(fail(*bad));
    row.value().value = value;
    changeOverlay(cmd::Set, stage, row.value(), context, reply);
}

void unset(const QJsonObject &request, CommandContext &context, const ReplyFunction &reply)
{
    const auto row = overlayRow(cmd::Unset, request, context.board.picture().graph);
    if (!row)
        return reply(fail(row.error()));
    changeOverlay(cmd::Unset, request.value(field::Stage).toString(), row.value(), context, reply);
}

void metrics(const QJsonObject &, CommandContext &context, const ReplyFunction &reply)
{
    // As `status`: one picture, of the moment asked in, and the last counts
    // at once while a fresh one runs.
    const DispatchPicture now = context.board.picture();
    context.queueCounts(OperatorQueries::Freshness::Recent, [now, reply](const Result<QueueCounts, QString> &counts) {
        MetricsInput input{now.info, now.pools, now.stats, std::nullopt};
        if (counts)
            input.queues = counts.value();
        reply(QJsonValue(QJsonObject{{field::Text, metricsText(input, QDateTime::currentDateTimeUtc())}}));
    });
}

} // namespace pepsi::operatorcommands
