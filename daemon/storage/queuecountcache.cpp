// SPDX-License-Identifier: AGPL-3.0-or-later
#include "storage/queuecountcache.h"

#include "model/dispatchboard.h"
#include "model/logcategories.h"

namespace pepsi {

QueueCountCache::QueueCountCache(std::function<void(quint64 generation)> count)
    : m_count(std::move(count))
{ }

void QueueCountCache::publishTo(DispatchBoard *board)
{
    const QMutexLocker lock(&m_mutex);
    m_board = board;
    if (m_board && m_cache)
        m_board->setCounts(m_cache);
}

bool QueueCountCache::claimCount()
{
    // One count at a time, whoever asks: the others wait for its answer.
    return !std::exchange(m_counting, true);
}

void QueueCountCache::ask(Freshness freshness, Answer<QueueCounts> answer)
{
    QMutexLocker lock(&m_mutex);
    const qint64 age = m_cache ? m_age.elapsed() : -1;
    if (m_cache && age < OperatorQueries::FreshCountsMs) {
        const QueueCounts counts = *m_cache;
        lock.unlock();
        return answer(counts);
    }
    // What the loop published last: an outage publishes at once.
    if (const auto down = m_board ? m_board->published().databaseUnreachable() : std::nullopt) {
        lock.unlock();
        return answer(*down);
    }
    const quint64 generation = m_generation;
    if (freshness == Freshness::Recent && m_cache && age < OperatorQueries::RecentCountsMs) {
        // On a long history a count takes tens of milliseconds: a polled
        // status would wait that long once a second. It gets the last counts
        // (`queues_at` says how old), the count runs for whoever asks next.
        const QueueCounts counts = *m_cache;
        const bool start = claimCount();
        lock.unlock();
        if (start)
            m_count(generation);
        return answer(counts);
    }
    m_waiters.append({generation, std::move(answer)});
    const bool start = claimCount();
    lock.unlock();
    if (start)
        m_count(generation);
}

void QueueCountCache::forget()
{
    const QMutexLocker lock(&m_mutex);
    m_cache.reset();
    if (m_board)
        m_board->setCounts(std::nullopt);
    ++m_generation;
}

void QueueCountCache::arrived(Result<QueueCounts, QString> counts, quint64 generation)
{
    QMutexLocker lock(&m_mutex);
    m_counting = false;
    if (counts) {
        // Every stage of the graph appears, with zeros when it has no rows.
        if (m_board) {
            for (const QString &stage : m_board->published().graph.names())
                counts.value().stages[stage];
        }
        if (generation == m_generation) {
            m_cache = counts.value();
            m_age.start();
            if (m_board)
                m_board->setCounts(m_cache);
        }
    } else {
        qCWarning(lcMain).noquote() << counts.error();
    }
    // Askers that came after a requeue or an outage wait for a count that
    // begins after it; a count answers every asker of its generation or an
    // earlier one.
    QList<Waiter> due;
    for (Waiter &waiter : std::exchange(m_waiters, {}))
        (waiter.generation <= generation ? due : m_waiters).append(std::move(waiter));
    const bool again = !m_waiters.isEmpty() && claimCount();
    const quint64 next = m_generation;
    lock.unlock();
    for (const Waiter &waiter : std::as_const(due))
        waiter.answer(counts);
    if (again)
        m_count(next);
}

} // namespace pepsi
