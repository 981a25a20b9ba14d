// SPDX-License-Identifier: AGPL-3.0-or-later
// The Dispatcher's port for the control plane (DispatchState): what it may
// read, as const views and copies, and the few commands it may give.
#include "core/dispatcher.h"

#include "storage/databasesession.h"
#include "workers/workerpool.h"

#include <algorithm>

namespace pepsi {

using namespace std::chrono;

bool Dispatcher::isDatabaseUp() const { return m_session && m_session->isUp(); }

QString Dispatcher::databaseName() const { return m_session ? m_session->databaseName() : QString(); }

bool Dispatcher::isServing() const
{
    return m_pipelineBuilt && m_lifecycle != Lifecycle::Stopping && m_lifecycle != Lifecycle::Stopped;
}

QList<const WorkerPool *> Dispatcher::pools() const
{
    QList<const WorkerPool *> current(m_pools.cbegin(), m_pools.cend());
    std::sort(current.begin(), current.end(),
              [](const WorkerPool *a, const WorkerPool *b) { return a->stage().name < b->stage().name; });
    for (const WorkerPool *pool : m_retiredPools)
        current.append(pool);
    return current;
}

bool Dispatcher::setDrained(const QString &stage, bool drained)
{
    WorkerPool *pool = m_pools.value(stage);
    if (!pool)
        return false;
    pool->setDrained(drained);
    if (!drained)
        requestRound();
    return true;
}

void Dispatcher::sampleRates()
{
    const StatsDelta &totals = m_stats.totals();
    RateMeter::Counts counts{totals.stageRuns, {}};
    for (auto it = totals.stages.cbegin(); it != totals.stages.cend(); ++it)
        counts.stageRuns.insert(it.key(), it.value().runs);
    m_rates.sample(m_clock.elapsed(), std::move(counts));
}

double Dispatcher::runRate(milliseconds window) const
{
    return m_rates.rate(m_clock.elapsed(), window, m_stats.totals().stageRuns);
}

double Dispatcher::stageRunRate(const QString &stage, milliseconds window) const
{
    return m_rates.stageRate(m_clock.elapsed(), window, stage, m_stats.totals().stages.value(stage).runs);
}

} // namespace pepsi
