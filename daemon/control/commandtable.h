// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "control/peercredentials.h"
#include "model/dispatchview.h"
#include "result.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QSet>
#include <QString>

namespace pepsi {

// What one connection asked to hear (subscribe / unsubscribe).
struct Subscription
{
    bool active = false;
    QSet<QString> events; // empty: every event

    bool wants(const QString &event) const { return active && (events.isEmpty() || events.contains(event)); }
};

// Everything a command may see: the daemon's views and the asking connection.
struct CommandContext
{
    DispatchView &view;
    DispatchControl &control;
    PeerCredentials peer;
    bool admin = false;
    Subscription &subscription;
    quint64 lastSeq = 0; // the seq of the last event produced so far
};

enum class ArgType { String, Integer, IntegerArray, StringArray };

struct ArgSpec
{
    QString name;
    ArgType type = ArgType::String;
    bool required = false;
};

using CommandHandler = Result<QJsonValue, QString> (*)(const QJsonObject &request, CommandContext &context);

struct CommandSpec
{
    QString name;
    bool admin = false;
    QString summary;
    QList<ArgSpec> args;
    CommandHandler handler = nullptr;
};

// Every command of doc/control-protocol.rst, sorted by name.
const QList<CommandSpec> &commandTable();
// Every event name a subscriber may filter on.
const QStringList &eventNames();

// One request line in, one reply object out ({"id", "ok", "result"|"error"}).
// Never throws, never closes anything: a bad request is an error reply.
QJsonObject runRequest(const QByteArray &line, CommandContext &context);

} // namespace pepsi
