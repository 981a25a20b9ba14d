// SPDX-License-Identifier: AGPL-3.0-or-later
// The Dispatcher's port for the control plane (DispatchState): what it may
// read, as const views and copies, and the few commands it may give.
#include "core/dispatcher.h"

#include "storage/databasesession.h"
#include "workers/workerpool.h"

namespace pepsi {

using namespace std::chrono;

bool Dispatcher::isDatabaseUp() const { return m_session && m_session->isUp(); }

QString Dispatcher::databaseName() const { return m_session ? m_session->databaseName() : QString(); }

bool Dispatcher::isServing() const
{
    return m_pipelineBuilt && m_lifecycle != Lifecycle::Stopping && m_lifecycle != Lifecycle::Stopped;
}

QList<const WorkerPool *> Dispatcher::pools() const { return m_pools.ordered(); }

bool Dispatcher::setDrained(const QString &stage, bool drained)
{
    WorkerPool *pool = m_pools.find(stage);
    if (!pool)
        return false;
    pool->setDrained(drained);
    if (!drained)
        requestRound();
    return true;
}

double Dispatcher::runRate(milliseconds window) const { return m_stats.runRate(window); }

double Dispatcher::stageRunRate(const QString &stage, milliseconds window) const
{
    return m_stats.stageRunRate(stage, window);
}

} // namespace pepsi
