// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "control/commandtable.h"

// The admin commands that act on the dispatch loop (doc/control-protocol.rst):
// `reload`, `drain`, `resume` and `requeue`. The peer is already allowed and
// the arguments' types checked (runRequest()); each answers once the daemon
// has acted.
namespace pepsi::admincommands {

void reload(const QJsonObject &request, CommandContext &context, const ReplyFunction &reply);
void drain(const QJsonObject &request, CommandContext &context, const ReplyFunction &reply);
void resume(const QJsonObject &request, CommandContext &context, const ReplyFunction &reply);
void requeue(const QJsonObject &request, CommandContext &context, const ReplyFunction &reply);

} // namespace pepsi::admincommands
