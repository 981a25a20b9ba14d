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
        event::MessageFailed,   event::StageFailing, event::StageRecovered,
    };
    return names;
}

const QStringList &pendingAgeBuckets()
{
    static const QStringList buckets{
        QStringLiteral("1s"),  QStringLiteral("10s"), QStringLiteral("1m"),
        QStringLiteral("10m"), QStringLiteral("1h"),  QStringLiteral("older"),
    };
    return buckets;
}

const QStringList &settableOptions()
{
    static const QStringList options{
        QStringLiteral("PARALLELISM"),
        QStringLiteral("QUEUE_LIMIT"),
        QStringLiteral("MAX_MESSAGES"),
    };
    return options;
}

} // namespace pepsi::protocol
