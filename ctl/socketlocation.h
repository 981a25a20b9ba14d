// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "commandline.h"
#include "result.h"
#include "transport/target.h"

#include <QString>
#include <optional>

namespace pepsi::ctl {

// Where the control socket is, found as the daemon finds it (doc/man/pepsi-ctl.rst):
// --target, else --socket, else $PEPSI_TARGET, else CONTROL_SOCKET of the
// configuration file, else the default for this user. `origin` says which,
// for error messages.
struct SocketLocation
{
    QString path;   // the socket, or an ssh:// target as given (what messages name)
    QString origin; // "--socket", "CONTROL_SOCKET in /etc/pepsi/pepsi.conf", "the default for uid 1000"
    // Set for an ssh:// target; a local socket is `path`.
    std::optional<transport::Target> remote;

    transport::Target target() const { return remote ? *remote : transport::Target::localSocket(path); }
};

// A file named with -c must be read; the implicit one ($PEPSI_CONFIG, then
// /etc/pepsi/pepsi.conf) only when it exists and this user may read it (it
// is root:pepsi 0640 on a packaged host: a member of another group gets the
// default). The error names the file and line, or what is wrong with the
// target (exit 64). The bridge ignores $PEPSI_TARGET: it is the far end.
Result<SocketLocation, QString> locateSocket(const CommandLine &line);

// Why connecting to `where` failed, in one line that says what to do: no
// such socket, not a socket, nothing listening, or permission denied with
// the account and group that may. Looks at the file system, not at Qt's
// error, so the answer is the same whatever the socket layer reported.
QString describeConnectFailure(const SocketLocation &where);

} // namespace pepsi::ctl
