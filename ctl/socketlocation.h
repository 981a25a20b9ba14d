// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "commandline.h"
#include "result.h"

#include <QString>

namespace pepsi::ctl {

// Where the control socket is, found as the daemon finds it (doc/man/pepsi-ctl.rst):
// --socket, else CONTROL_SOCKET of the configuration file, else the default
// for this user. `origin` says which, for error messages.
struct SocketLocation
{
    QString path;
    QString origin; // "--socket", "CONTROL_SOCKET in /etc/pepsi/pepsi.conf", "the default for uid 1000"
};

// A file named with -c must be read; the implicit one ($PEPSI_CONFIG, then
// /etc/pepsi/pepsi.conf) only when it exists and this user may read it (it
// is root:pepsi 0640 on a packaged host: a member of another group gets the
// default). The error names the file and line (exit 64).
Result<SocketLocation, QString> locateSocket(const CommandLine &line);

// Why connecting to `where` failed, in one line that says what to do: no
// such socket, not a socket, nothing listening, or permission denied with
// the account and group that may. Looks at the file system, not at Qt's
// error, so the answer is the same whatever the socket layer reported.
QString describeConnectFailure(const SocketLocation &where);

} // namespace pepsi::ctl
