// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "control/commandtable.h"

// The operator's commands (doc/control-protocol.rst):
// `messages`, `reasons`, `message`, `set`, `unset` and `metrics`, each
// answered off the dispatch loop. A page of `messages` or `reasons` holds as
// many rows as fit in the reply's line, never more than asked. Their
// arguments' types are already checked (commandTable()).
namespace pepsi::operatorcommands {

void messages(const QJsonObject &request, CommandContext &context, const ReplyFunction &reply);
// The reasons of a stage's rows in one status ("failed" unless asked), by
// count: the query and the reply of `messages` with "reasons": true.
void reasons(const QJsonObject &request, CommandContext &context, const ReplyFunction &reply);
void message(const QJsonObject &request, CommandContext &context, const ReplyFunction &reply);
void set(const QJsonObject &request, CommandContext &context, const ReplyFunction &reply);
// Removes the config_overlay row `set` wrote; refused when there is none.
void unset(const QJsonObject &request, CommandContext &context, const ReplyFunction &reply);
void metrics(const QJsonObject &request, CommandContext &context, const ReplyFunction &reply);
// What narrows a `messages` or `reasons` reply that passed the line limit (CommandSpec::narrowedBy).
QString messagesNarrowing(const QJsonObject &request);

// Why `value` cannot be `option` of [stage-`stage`], checked as the
// configuration loader checks an overlay row; nullopt: it can.
std::optional<QString> settingError(const QString &stage, const QString &option, const QString &value);

} // namespace pepsi::operatorcommands
