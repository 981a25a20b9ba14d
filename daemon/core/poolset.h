// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

namespace pepsi {

class WorkerPool;

// The stage pools the dispatcher owns: one current pool per stage of the
// graph in force, and the retiring ones of stages a reload removed, which
// drain before they go. Every walk over "all pools" is written here once:
// forEach() visits current pools, then retiring ones. It owns the pools and
// deletes what it still holds when it goes.
class PoolSet
{
public:
    PoolSet() = default;
    ~PoolSet();
    PoolSet(const PoolSet &) = delete;
    PoolSet &operator=(const PoolSet &) = delete;

    // Takes `pool` as the current pool of its stage (none must be there).
    void add(WorkerPool *pool);
    // The current pool of `stage`; null for none (a retiring one is not found).
    WorkerPool *find(const QString &stage) const { return m_current.value(stage); }
    // The current pool of `stage` becomes a retiring one and is retired: its
    // workers stop taking ids. It may report drained() from inside this call,
    // and is a retiring pool by then. Null: no such stage.
    WorkerPool *retire(const QString &stage);
    // A retiring pool that drained leaves the set (deleted later, from the
    // event loop: it is reporting now). False: not a retiring pool.
    bool dropRetired(WorkerPool *pool);
    // Deletes every pool now, current and retiring.
    void clear();

    bool isEmpty() const { return m_current.isEmpty() && m_retiring.isEmpty(); }
    QStringList currentStages() const { return m_current.keys(); }
    // Current pools sorted by stage name, then retiring ones as they retired.
    QList<const WorkerPool *> ordered() const;

    // Every pool: current ones, then retiring ones.
    template<typename Visit>
    void forEach(Visit visit) const
    {
        for (WorkerPool *pool : m_current)
            visit(pool);
        for (WorkerPool *pool : m_retiring)
            visit(pool);
    }
    // The current pools only: those that claim.
    template<typename Visit>
    void forEachCurrent(Visit visit) const
    {
        for (WorkerPool *pool : m_current)
            visit(pool);
    }

    // Over every pool: the workers alive or exiting, the ids they hold.
    int workerCount() const;
    int inFlight() const;
    QList<qint64> heldIds() const;

private:
    QHash<QString, WorkerPool *> m_current;
    QList<WorkerPool *> m_retiring;
};

} // namespace pepsi
