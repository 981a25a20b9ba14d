// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "control/peercredentials.h"
#include "model/dispatchport.h"
#include "model/operatorqueries.h"
#include "result.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QSet>
#include <QString>
#include <functional>

namespace pepsi {

class DispatchBoard;

// What one connection asked to hear (subscribe / unsubscribe).
struct Subscription
{
    bool active = false;
    QSet<QString> events; // empty: every event

    bool wants(const QString &event) const { return active && (events.isEmpty() || events.contains(event)); }
};

// Everything a command may see: the dispatcher's picture (one
// board.picture() per reply), its port for the admin commands, the database
// for the operator's queries (the queue counts among them), and the asking
// connection.
struct CommandContext
{
    const DispatchBoard &board;
    DispatchPort &port;
    OperatorQueries &operatorQueries;
    PeerCredentials peer;
    bool admin = false;
    Subscription &subscription;
    quint64 lastSeq = 0;                      // the seq of the last event produced so far
    QObject *connection = nullptr;            // answers that come later go nowhere once it is gone
    qsizetype maxLine = qsizetype(64) * 1024; // a reply line, its newline included

    // The queue counts as young as `freshness` asks: the board's when they
    // are, else the operator thread's, answered on this thread; never the
    // dispatch loop's business.
    void queueCounts(OperatorQueries::Freshness freshness, Answer<QueueCounts> answer) const;
};

enum class ArgType { String, Integer, Boolean, IntegerArray, StringArray, StringOrInteger };

struct ArgSpec
{
    QString name;
    ArgType type = ArgType::String;
    bool required = false;
};

using CommandReply = Result<QJsonValue, QString>;
using CommandHandler = CommandReply (*)(const QJsonObject &request, CommandContext &context);
// A command answered later (by the dispatch loop, by the database): it calls `reply` once, later or at once.
using ReplyFunction = std::function<void(CommandReply)>;
using AsyncCommandHandler = void (*)(const QJsonObject &request, CommandContext &context, const ReplyFunction &reply);
// What would narrow the reply to `request` that passed the line limit: what
// the request does not ask for yet ("stage", "ids": false, a smaller
// "limit"), or NothingNarrower once it asks for the narrowest reply there is.
using NarrowingHint = QString (*)(const QJsonObject &request);
inline constexpr QLatin1StringView NothingNarrower{"nothing narrows it further"};

struct CommandSpec
{
    QString name;
    bool admin = false;
    QString summary;
    QList<ArgSpec> args;
    CommandHandler handler = nullptr;           // either this
    AsyncCommandHandler asyncHandler = nullptr; // or this
    // Null: the reply is small whatever the request.
    NarrowingHint narrowedBy = nullptr;
};

// Every command of doc/control-protocol.rst, sorted by name.
const QList<CommandSpec> &commandTable();
// Every event name a subscriber may filter on.
const QStringList &eventNames();

// One request line in, one reply line out ({"id", "ok", "result"|"error"},
// compact JSON and its newline, at most context.maxLine bytes: a longer
// reply becomes an error naming what narrows it). `send` is called once, at
// once or later (a command answered by the loop or the database). Never throws,
// never closes anything: a bad request is an error reply.
void runRequest(const QByteArray &line, CommandContext &context, std::function<void(QByteArray)> send);

// How many bytes of compact JSON the result of a reply to `request` may take
// so that its whole line ({"id", "ok", "result"} and the newline) is at most
// maxLine: what a command that fills its reply up to the limit measures against.
qsizetype resultBudget(const QJsonObject &request, qsizetype maxLine);

} // namespace pepsi
