// SPDX-License-Identifier: AGPL-3.0-or-later
#include "control/protocol.h"

#include <unistd.h>

namespace pepsi::protocol {

QString defaultSocketPath()
{
    if (::geteuid() == 0)
        return QStringLiteral("/run/pepsi/dispatch.sock");
    const QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (!runtime.isEmpty())
        return runtime + QStringLiteral("/pepsi/dispatch.sock");
    return QStringLiteral("/tmp/pepsi-%1/dispatch.sock").arg(::geteuid());
}

const QStringList &eventNames()
{
    static const QStringList names{
        event::WorkerStarted,   event::WorkerExited, event::WorkerCrashed,    event::WorkerKilled, event::StartFailed,
        event::CooldownEntered, event::CooldownLeft, event::StageDrained,     event::StageResumed, event::Requeued,
        event::Reload,          event::DatabaseLost, event::DatabaseRestored, event::State,        event::Tick,
    };
    return names;
}

} // namespace pepsi::protocol
