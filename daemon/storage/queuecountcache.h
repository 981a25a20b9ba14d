// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "model/operatorqueries.h"

#include <QElapsedTimer>
#include <QList>
#include <QMutex>
#include <functional>
#include <optional>

namespace pepsi {

class DispatchBoard;

// The queue counts every asker shares: one count at a time, kept for the
// next askers as OperatorQueries::Freshness allows, and shown on the board so
// that the control thread reads young counts without asking anyone. Asked on
// the control thread, counted and forgotten on the operator thread (after a
// requeue) and forgotten on the dispatch loop (an outage), so its state is
// behind a lock, which no answer is called under.
class QueueCountCache
{
public:
    using Freshness = OperatorQueries::Freshness;
    // `count` starts one count (of `generation`), whose result goes to
    // arrived(); called without the lock.
    explicit QueueCountCache(std::function<void(quint64 generation)> count);

    // The board (outliving this) that shows the counts, and whose last
    // picture says which stages there are and whether the database is up.
    void publishTo(DispatchBoard *board);
    // `answer` at once when the counts are young enough (or the database is
    // unreachable), else once a count that begins now or later ends.
    void ask(Freshness freshness, Answer<QueueCounts> answer);
    // The counts are known to have changed (a requeue, an outage): a count
    // that began before is given to its askers, not kept.
    void forget();
    void arrived(Result<QueueCounts, QString> counts, quint64 generation);

private:
    // Whether a count must start (none runs); under the lock.
    bool claimCount();

    const std::function<void(quint64)> m_count;
    mutable QMutex m_mutex;
    DispatchBoard *m_board = nullptr;
    std::optional<QueueCounts> m_cache;
    QElapsedTimer m_age;
    bool m_counting = false;
    quint64 m_generation = 0;
    // Askers waiting for a count that begins in their generation.
    struct Waiter
    {
        quint64 generation = 0;
        Answer<QueueCounts> answer;
    };
    QList<Waiter> m_waiters;
};

} // namespace pepsi
