// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "model/dispatchview.h"

class QObject;

namespace pepsi {

// What an operator asks of the database, which the control thread sends
// straight there, off the dispatch loop (OperatorThread; tests give fakes),
// answered in the order they were asked. Each answer runs on `asker`'s
// thread, and not at all once `asker` is gone. The request is already
// checked (and, for a read, the database known to be reachable:
// DispatchPicture).
class OperatorQueries
{
public:
    virtual ~OperatorQueries() = default;

    // How old the counts given to an asker may be. `Fresh`: at most a second,
    // waiting for a count when none is that young (`queues`). `Recent`: up
    // to RecentCountsMs, at once, while a fresh count runs for the next asker,
    // so that a polled `status` never waits for the database; it waits only
    // when no count is that recent (the first, after a requeue or an outage).
    enum class Freshness { Fresh, Recent };
    static constexpr qint64 FreshCountsMs = 1000;
    static constexpr qint64 RecentCountsMs = 10'000;

    // One count shared by every asker; an error while the dispatcher's
    // database is unreachable.
    virtual void queueCounts(Freshness freshness, QObject *asker, Answer<QueueCounts> answer) = 0;
    // A page of one stage's rows in one status, or their reasons.
    virtual void messages(const MessagesRequest &request, QObject *asker, Answer<MessagePage> answer) = 0;
    // One row; an error naming the id when there is none.
    virtual void message(qint64 id, QObject *asker, Answer<MessageDetail> answer) = 0;
    // Moves the matching rows back to pending; the counts are forgotten
    // before the answer, so that the asker's next count sees them moved. The
    // dispatch loop is told afterwards, by the asker (DispatchPort::requeued).
    virtual void requeue(const RequeueRequest &request, QObject *asker, Answer<RequeueOutcome> answer) = 0;
};

} // namespace pepsi
