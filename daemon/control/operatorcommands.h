// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "control/commandtable.h"

// The operator's commands (doc/control-protocol.rst):
// `messages`, `message`, `set`, `unset` and `metrics`, each answered off the dispatch
// loop. Their arguments' types are already checked (commandTable()).
namespace pepsi::operatorcommands {

void messages(const QJsonObject &request, CommandContext &context, const ReplyFunction &reply);
void message(const QJsonObject &request, CommandContext &context, const ReplyFunction &reply);
void set(const QJsonObject &request, CommandContext &context, const ReplyFunction &reply);
// Removes the config_overlay row `set` wrote; refused when there is none.
void unset(const QJsonObject &request, CommandContext &context, const ReplyFunction &reply);
void metrics(const QJsonObject &request, CommandContext &context, const ReplyFunction &reply);
// What narrows a `messages` reply that passed the line limit (CommandSpec::narrowedBy).
QString messagesNarrowing(const QJsonObject &request);

// Why `value` cannot be `option` of [stage-`stage`], checked as the
// configuration loader checks an overlay row; nullopt: it can.
std::optional<QString> settingError(const QString &stage, const QString &option, const QString &value);

} // namespace pepsi::operatorcommands
