// SPDX-License-Identifier: AGPL-3.0-or-later
#include "socketpath.h"

#include <QtGlobal>
#include <unistd.h>

namespace pepsi::console {

QString defaultSocketPath()
{
    if (::geteuid() == 0)
        return QStringLiteral("/run/pepsi/dispatch.sock");
    const QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
    // The daemon's own fallback when XDG_RUNTIME_DIR is unset (daemon/control).
    if (runtime.isEmpty())
        return QStringLiteral("/tmp/pepsi-%1/dispatch.sock").arg(::geteuid());
    return runtime + QStringLiteral("/pepsi/dispatch.sock");
}

} // namespace pepsi::console
