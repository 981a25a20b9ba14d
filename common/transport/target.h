// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "result.h"

#include <QString>

namespace pepsi::transport {

// Where a control client reaches a daemon (doc/operations.rst, "Watching
// several systems"): a local socket path, or
// ssh://[USER@]HOST[:PORT][/SOCKET/PATH], the daemon of another host reached
// through the system's ssh and `pepsi-ctl bridge` on that host. Parsed here
// only, for pepsi-ctl and the console alike.
struct Target
{
    enum class Kind { LocalSocket, Ssh };
    Kind kind = Kind::LocalSocket;
    // LocalSocket: the socket. Ssh: the socket on the far host; empty for
    // the one its pepsi-ctl finds (its configuration, its default).
    QString socketPath;
    QString user; // Ssh: empty for ssh's own choice (its config, the local user)
    QString host; // Ssh: a name or an address (an IPv6 one without its brackets)
    int port = 0; // Ssh: 0 for ssh's own choice
    QString text; // as given, for messages

    static Target localSocket(const QString &path);
    // The error is one line naming what is wrong with `text`.
    static Result<Target, QString> parse(const QString &text);
    bool isSsh() const { return kind == Kind::Ssh; }
};

} // namespace pepsi::transport
