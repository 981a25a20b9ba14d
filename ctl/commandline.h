// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "result.h"

#include <QString>
#include <QStringList>
#include <chrono>
#include <optional>

namespace pepsi::ctl {

// The exit statuses of pepsi-ctl(1) (doc/man/pepsi-ctl.rst, "Exit status").
enum Exit : int {
    ExitOk = 0,
    ExitRefused = 1,      // the daemon answered ok:false
    ExitUsage = 64,       // EX_USAGE: a bad command line (or bad ids on stdin)
    ExitDataError = 65,   // EX_DATAERR: the bridge got a line over the limit
    ExitUnavailable = 69, // EX_UNAVAILABLE: no daemon answers on the socket
    ExitIoError = 74,     // EX_IOERR: the bridge's client stopped reading its output
};

// pepsi-ctl [-c FILE] [--socket PATH | --target TARGET] [--json] [-t TIME] [-h] [-v] COMMAND [ARGS]
// Options may come before or after the command; what a command takes is
// checked here, so that nothing is sent for a line that is wrong.
struct CommandLine
{
    enum class Action { Run, Help, Version };
    Action action = Action::Run;
    QString configFile; // -c; empty: $PEPSI_CONFIG, then /etc/pepsi/pepsi.conf, if readable
    QString socketPath; // --socket; wins over any configuration
    QString target;     // --target: a socket path or ssh://...; wins over $PEPSI_TARGET
    bool json = false;
    std::chrono::milliseconds timeout{std::chrono::seconds(15)}; // for each reply

    QString command;
    QString stage;                  // drain, resume, requeue, set, messages, reasons; status and workers (optional)
    QString status;                 // requeue (required), messages and reasons (optional)
    std::optional<int> limit;       // requeue, messages
    std::optional<qint64> afterId;  // messages --after (0: from the start)
    std::optional<qint64> maxAgeMs; // requeue --since (or its older name --max-age)
    std::optional<QString> reason;  // requeue --reason
    bool all = false;               // messages --all: every page
    qint64 messageId = 0;           // message
    QString option;                 // set, unset: upper case
    qint64 value = 0;               // set
    bool idsFromStdin = false;      // requeue --ids -
    bool withIds = true;            // workers --no-ids
    QStringList events;             // events NAME...: only these
    std::chrono::milliseconds interval{std::chrono::seconds(2)}; // top --interval

    // Arguments without the program name. The error is one line for stderr (exit 64).
    static Result<CommandLine, QString> parse(const QStringList &arguments);
    static QString usage();
    // Every command, for the usage text and the bash completion's test.
    static const QStringList &commands();
};

} // namespace pepsi::ctl
