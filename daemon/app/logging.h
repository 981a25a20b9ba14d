// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "model/logcategories.h"

#include <QLoggingCategory>
#include <QString>
#include <optional>

namespace pepsi {

enum class LogLevel { Error, Warning, Info, Debug };

// "ERROR", "WARNING", "INFO", "DEBUG" (any case).
std::optional<LogLevel> parseLogLevel(const QString &text);

// One line per event on stderr: "<LEVEL> <category>: <message>". The daemon's
// log is not translated.
void installLogging(LogLevel level);

} // namespace pepsi
