// SPDX-License-Identifier: AGPL-3.0-or-later
#include "core/poolset.h"

#include "workers/workerpool.h"

#include <algorithm>

namespace pepsi {

PoolSet::~PoolSet() { clear(); }

void PoolSet::add(WorkerPool *pool)
{
    Q_ASSERT(!m_current.contains(pool->stage().name));
    m_current.insert(pool->stage().name, pool);
}

WorkerPool *PoolSet::retire(const QString &stage)
{
    WorkerPool *pool = m_current.take(stage);
    if (!pool)
        return nullptr;
    // Retiring first: a pool without workers reports drained() at once.
    m_retiring.append(pool);
    pool->retire();
    return pool;
}

bool PoolSet::dropRetired(WorkerPool *pool)
{
    if (!m_retiring.removeOne(pool))
        return false;
    pool->deleteLater();
    return true;
}

void PoolSet::clear()
{
    // Taken out before they are deleted: a pool going down reports nothing
    // back into a set that still lists it.
    const QList<WorkerPool *> current = m_current.values();
    const QList<WorkerPool *> retiring = m_retiring;
    m_current.clear();
    m_retiring.clear();
    qDeleteAll(current);
    qDeleteAll(retiring);
}

QList<const WorkerPool *> PoolSet::ordered() const
{
    QList<const WorkerPool *> pools(m_current.cbegin(), m_current.cend());
    std::sort(pools.begin(), pools.end(),
              [](const WorkerPool *a, const WorkerPool *b) { return a->stage().name < b->stage().name; });
    for (const WorkerPool *pool : m_retiring)
        pools.append(pool);
    return pools;
}

int PoolSet::workerCount() const
{
    int workers = 0;
    forEach([&workers](const WorkerPool *pool) { workers += pool->workerCount(); });
    return workers;
}

int PoolSet::inFlight() const
{
    int total = 0;
    forEach([&total](const WorkerPool *pool) { total += pool->inFlight(); });
    return total;
}

QList<qint64> PoolSet::heldIds() const
{
    QList<qint64> held;
    forEach([&held](const WorkerPool *pool) { held += pool->heldIds(); });
    return held;
}

} // namespace pepsi
