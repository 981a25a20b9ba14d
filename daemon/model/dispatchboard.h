// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "model/dispatchview.h"

#include <QElapsedTimer>
#include <QMutex>
#include <optional>

namespace pepsi {

// One moment of the dispatcher as DispatchView gives it out.
struct DispatchPicture
{
    DaemonInfo info;
    StageGraph graph;
    DispatchSettings settings;
    QList<PoolSnapshot> pools;
    QList<WorkerSnapshot> workers;
    StatsSnapshot stats;
};

// What the control socket's thread reads of the dispatcher without waiting
// for the dispatch loop, which may be inside a claim or a commit: the last
// picture the loop published and its last queue counts. Written on the loop
// (DispatchState), read on the control thread (DispatchMirror); each call
// takes the lock for a copy of implicitly shared values, nothing longer.
class DispatchBoard
{
public:
    void publish(DispatchPicture picture);
    DispatchPicture picture() const;

    // The counts as of now, or none (forgotten after a requeue or an outage).
    void setCounts(std::optional<QueueCounts> counts);
    struct AgedCounts
    {
        QueueCounts counts;
        qint64 ageMs = 0;
    };
    std::optional<AgedCounts> counts() const;

private:
    mutable QMutex m_mutex;
    DispatchPicture m_picture;
    std::optional<QueueCounts> m_counts;
    QElapsedTimer m_countsAge;
};

} // namespace pepsi
