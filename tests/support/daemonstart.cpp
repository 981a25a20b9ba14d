// SPDX-License-Identifier: AGPL-3.0-or-later
#include "daemonstart.h"

#include <QtGlobal>

bool startReady(DaemonProcess &daemon, const QStringList &arguments)
{
    if (!daemon.start(arguments) || !daemon.waitForReady()) {
        qWarning("the daemon did not get ready: %s", qPrintable(daemon.log()));
        return false;
    }
    return true;
}
