// SPDX-License-Identifier: AGPL-3.0-or-later
// The control socket's copies of a pool (model/snapshots.h), kept apart from
// the pool's policy they only read.
#include "workers/workerpool.h"

#include <QDateTime>
#include <algorithm>

namespace pepsi {

PoolSnapshot WorkerPool::snapshot() const
{
    PoolSnapshot snapshot;
    snapshot.stage = m_stage.name;
    for (const WorkerProcess *worker : m_workers) {
        ++snapshot.workers;
        if (worker->state() == WorkerProcess::State::Starting)
            ++snapshot.starting;
        else if (worker->isRetiring() || worker->state() != WorkerProcess::State::Running)
            ++snapshot.retiring;
        else if (worker->outstanding() > 0)
            ++snapshot.busy;
        else
            ++snapshot.idle;
    }
    snapshot.parallelism = m_stage.parallelism;
    snapshot.queueLimit = m_stage.queueLimit;
    snapshot.inFlight = inFlight();
    snapshot.drained = m_drained;
    snapshot.retired = m_retired;
    if (inCooldown())
        snapshot.cooldownUntil = QDateTime::currentDateTimeUtc().addMSecs(std::max(0, m_cooldown.remainingTime()));
    snapshot.capacity = m_retired || m_drained || inCooldown() ? 0 : m_stage.capacity();
    return snapshot;
}

QList<WorkerSnapshot> WorkerPool::workerSnapshots() const
{
    QList<WorkerSnapshot> snapshots;
    for (const WorkerProcess *worker : m_workers)
        snapshots.append(worker->snapshot(m_options.maxRuntime.count()));
    std::sort(snapshots.begin(), snapshots.end(),
              [](const WorkerSnapshot &a, const WorkerSnapshot &b) { return a.pid < b.pid; });
    return snapshots;
}

} // namespace pepsi
