// SPDX-License-Identifier: AGPL-3.0-or-later
#include "control/admincommands.h"

#include "config/relativetime.h"
#include "control/commandargs.h"
#include "control/protocol.h"
#include "control/reloadcodec.h"
#include "model/answerrelay.h"
#include "model/dispatchboard.h"
#include "model/logcategories.h"

#include <QJsonArray>

namespace pepsi::admincommands {
namespace field = protocol::field;

namespace {

using protocol::MaxRequeueIds;
using protocol::MaxRequeueLimit;

CommandReply fail(const QString &message) { return failure(message); }

void setDrained(const QJsonObject &request, CommandContext &context, const ReplyFunction &reply, bool drained)
{
    const QString stage = request.value(field::Stage).toString();
    auto answer = [reply, stage, drained](const Result<bool, QString> &done) {
        if (!done)
            return reply(fail(done.error()));
        reply(QJsonValue(QJsonObject{{field::Stage, stage}, {field::Drained, drained}}));
    };
    if (drained)
        context.port.drain(stage, context.peer.uid, context.connection, answer);
    else
        context.port.resume(stage, context.peer.uid, context.connection, answer);
}

} // namespace

void reload(const QJsonObject &, CommandContext &context, const ReplyFunction &reply)
{
    context.port.reload(context.peer.uid, context.connection, [reply](const Result<ReloadSnapshot, QString> &reloaded) {
        if (!reloaded)
            return reply(fail(reloaded.error()));
        ReloadSnapshot answer = reloaded.value();
        answer.source.clear(); // the event's, not the reply's
        reply(QJsonValue(protocol::toJson(answer)));
    });
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
    if (const QJsonValue since = request.value(field::Since); since.isString()) {
        // "since" is max_age_ms spelt as pepsi.conf spells a time: both are one bound.
        const auto within = parseRelativeTime(since.toString());
        if (!within)
            return reply(fail(QStringLiteral("'requeue': \"since\": %1").arg(within.error())));
        if (what.maxAgeMs)
            return reply(fail(QStringLiteral("'requeue': give \"since\" or \"max_age_ms\", not both")));
        what.maxAgeMs = qint64(within->count());
    }
    if (const QJsonValue reason = request.value(field::Reason); reason.isString())
        what.reason = reason.toString();
    if (const QJsonValue limit = request.value(field::Limit); isInteger(limit)) {
        if (limit.toDouble() < 1 || limit.toDouble() > MaxRequeueLimit)
            return reply(fail(QStringLiteral("'requeue': \"limit\" must be 1 to %1").arg(MaxRequeueLimit)));
        what.limit = int(limit.toDouble());
    }
    // Refused as the loop would refuse it, by the picture of now.
    const DispatchPicture now = context.board.picture();
    if (const auto why = now.notServing())
        return reply(fail(*why));
    if (!now.databaseUp)
        return reply(fail(QStringLiteral("the database is unreachable; nothing was requeued")));
    // The client may be gone by the time the rows moved; the reply goes
    // nowhere then, but the loop still hears of it.
    const Answer<RequeueOutcome> back =
        answerOn<RequeueOutcome>(context.connection, [reply](const Result<RequeueOutcome, QString> &outcome) {
            if (!outcome)
                return reply(fail(outcome.error()));
            reply(QJsonValue(QJsonObject{{field::Requeued, double(outcome->requeued)}, {field::More, outcome->more}}));
        });
    // The statement's answer goes to the loop (the port's thread, which
    // outlives every connection): it logs and announces what moved before
    // the client hears.
    DispatchPort *port = &context.port;
    const uint uid = context.peer.uid;
    context.operatorQueries.requeue(
        what, port, [port, what, uid, back](const Result<RequeueOutcome, QString> &outcome) {
            if (!outcome) {
                qCWarning(lcMain).noquote() << "requeue of stage" << what.stage << "failed:" << outcome.error();
                return back(outcome);
            }
            port->requeued(what, *outcome, uid, port,
                           [back, outcome](const Result<bool, QString> &) { back(outcome); });
        });
}

} // namespace pepsi::admincommands
