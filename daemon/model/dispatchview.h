// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "config/dispatchsettings.h"
#include "config/stagegraph.h"
#include "model/snapshots.h"
#include "result.h"

#include <QMetaType>
#include <functional>
#include <optional>

// What the control socket may see of the dispatcher: one picture of it, a
// value copied out at one moment on the dispatch loop (DispatchState) and
// read on the control thread through the DispatchBoard. Nothing here hands
// out a pointer into a pool or a worker.

namespace pepsi {

// An answer that comes later (or at once): from the dispatch loop through
// DispatchPort, from the operator thread through OperatorQueries. It runs on
// the asker's thread, and never once the asker is gone (answerOn()).
template<typename T>
using Answer = std::function<void(Result<T, QString>)>;

// One moment of the dispatcher. A reply reads one picture, never two: the
// pieces of two would come from two moments, and their sums and stages would
// not agree.
struct DispatchPicture
{
    DaemonInfo info;
    StageGraph graph;
    DispatchSettings settings;
    // Current stages first (sorted by name), then retired ones still draining.
    QList<PoolSnapshot> pools;
    // Sorted by stage, then pid.
    QList<WorkerSnapshot> workers;
    StatsSnapshot stats;
    // The dispatcher's own connection is up: an operator query may go to the database.
    bool databaseUp = false;
    // The pipeline is built and no stop has begun: an admin command may act.
    bool serving = false;

    // Whether `stage`, a current stage, claims nothing now.
    bool isDrained(const QString &stage) const
    {
        for (const PoolSnapshot &pool : pools) {
            if (pool.stage == stage)
                return pool.drained;
        }
        return false;
    }
    // Why an operator query cannot reach the database now, if it cannot.
    std::optional<QString> databaseUnreachable() const
    {
        if (databaseUp)
            return std::nullopt;
        return QStringLiteral("the database is unreachable")
            + (info.databaseError.isEmpty() ? QString() : u": " + info.databaseError);
    }
    // Why an admin command may not act now, if it may not.
    std::optional<QString> notServing() const
    {
        if (serving)
            return std::nullopt;
        return QStringLiteral("the dispatcher is not running (%1)").arg(lifecycleName(info.lifecycle));
    }
};

} // namespace pepsi

Q_DECLARE_METATYPE(pepsi::DispatchEvent)
Q_DECLARE_METATYPE(pepsi::Lifecycle)
