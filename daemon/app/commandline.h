// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "app/logging.h"
#include "result.h"

#include <QString>
#include <QStringList>

namespace pepsi {

// pepsi-dispatch [-c FILE] [-L LEVEL] [-v] [-h] serve [--standby] | check
struct CommandLine
{
    enum class Action { Serve, Check, Help, Version };
    Action action = Action::Serve;
    QString configFile; // empty: $PEPSI_CONFIG, then /etc/pepsi/pepsi.conf
    LogLevel logLevel = LogLevel::Info;
    bool standby = false;

    // arguments without the program name; the error is one line for stderr (exit 64)
    static Result<CommandLine, QString> parse(const QStringList &arguments);
    static QString usage();
    // -c, else $PEPSI_CONFIG, else /etc/pepsi/pepsi.conf
    QString resolvedConfigFile() const;
};

} // namespace pepsi
