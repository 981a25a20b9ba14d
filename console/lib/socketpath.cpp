// SPDX-License-Identifier: AGPL-3.0-or-later
#include "socketpath.h"

#include <QtGlobal>
#include <unistd.h>

namespace pepsi::console {

QString defaultSocketPath()
{
    if (::geteuid() == 0)
        return QStringLiteral("/run/pepsi/dispatch.sock");
    QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (runtime.isEmpty())
        runtime = QStringLiteral("/run/user/%1").arg(::geteuid());
    return runtime + QStringLiteral("/pepsi/dispatch.sock");
}

} // namespace pepsi::console
