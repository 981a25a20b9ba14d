// SPDX-License-Identifier: AGPL-3.0-or-later
#include "control/snapshots.h"

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

std::optional<Lifecycle> lifecycleFromName(const QString &name)
{
    for (Lifecycle state : {Lifecycle::Starting, Lifecycle::WaitingForLock, Lifecycle::Running, Lifecycle::Reconnecting,
                            Lifecycle::Stopping, Lifecycle::Stopped}) {
        if (lifecycleName(state) == name)
            return state;
    }
    return std::nullopt;
}

PoolTotals PoolTotals::of(const QList<PoolSnapshot> &pools)
{
    PoolTotals totals;
    for (const PoolSnapshot &pool : pools) {
        totals.workers += pool.workers;
        totals.busy += pool.busy;
        totals.inFlight += pool.inFlight;
        totals.capacity += pool.capacity;
    }
    return totals;
}

} // namespace pepsi
