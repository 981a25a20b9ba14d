// SPDX-License-Identifier: AGPL-3.0-or-later
#include "model/dispatchview.h"

namespace pepsi {

QString lifecycleName(Lifecycle state)
{
    switch (state) {
    case Lifecycle::Starting:
        return QStringLiteral("starting");
    case Lifecycle::WaitingForLock:
        return QStringLiteral("waiting_for_lock");
    case Lifecycle::Running:
        return QStringLiteral("running");
    case Lifecycle::Reconnecting:
        return QStringLiteral("reconnecting");
    case Lifecycle::Stopping:
        return QStringLiteral("stopping");
    case Lifecycle::Stopped:
        return QStringLiteral("stopped");
    }
    return QStringLiteral("unknown");
}

} // namespace pepsi
