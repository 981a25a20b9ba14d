// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "control/commandtable.h"

// The read commands anyone may send (doc/control-protocol.rst): what the
// daemon is, its stages, pools, workers, queues and statistics, and the
// events a connection hears. Their arguments' types are already checked.
namespace pepsi::querycommands {

CommandReply version(const QJsonObject &request, CommandContext &context);
void status(const QJsonObject &request, CommandContext &context, const ReplyFunction &reply);
CommandReply stages(const QJsonObject &request, CommandContext &context);
CommandReply workers(const QJsonObject &request, CommandContext &context);
void queues(const QJsonObject &request, CommandContext &context, const ReplyFunction &reply);
CommandReply stats(const QJsonObject &request, CommandContext &context);
CommandReply subscribe(const QJsonObject &request, CommandContext &context);
CommandReply unsubscribe(const QJsonObject &request, CommandContext &context);

// What narrows a reply that passed the line limit (CommandSpec::narrowedBy).
QString statusNarrowing(const QJsonObject &request);
QString workersNarrowing(const QJsonObject &request);

} // namespace pepsi::querycommands
