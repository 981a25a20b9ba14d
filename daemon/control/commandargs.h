// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "control/commandtable.h"

#include <optional>

// The arguments of a request checked against its CommandSpec, before any
// handler sees them: a handler may take an argument's type for granted.
namespace pepsi {

// As `help` names it: "string", "array of integers", ...
QString typeName(ArgType type);
// A JSON number that is a whole number, exact in a double.
bool isInteger(const QJsonValue &value);
// Why the request's arguments do not fit `spec` (missing, mistyped), if they do not.
std::optional<QString> checkArguments(const CommandSpec &spec, const QJsonObject &request);

} // namespace pepsi
