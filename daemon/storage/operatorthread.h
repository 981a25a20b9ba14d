// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "model/operatorqueries.h"
#include "model/snapshots.h"
#include "result.h"
#include "storage/dispatcherconnection.h"
#include "storage/queuecountcache.h"

#include <QObject>
#include <QThread>
#include <atomic>
#include <functional>

namespace pepsi {

class DispatchBoard;
class OperatorWorker;

// The operator's queries (queue counts, requeue, messages, message, set) on a database connection of
// their own, in a thread of their own, so that a slow count on a table with a
// long history never holds up a claim round (a connection belongs to one
// thread: it is opened, used and removed in this one; doc/architecture.rst,
// "Threads and who owns what"). Jobs run one at a time in the
// order they were submitted, from whichever thread (the control thread's
// counts, requeues and reads; the dispatch loop's writes); each answer is
// delivered on the thread of its `context`, and dropped if `context` is gone
// by then. The counts the control thread asks for are shared and kept a
// while (QueueCountCache). The connection opens at the first job and again
// after it broke; it carries the dispatcher's application_name and statement
// and lock timeouts.
class OperatorThread : public QObject, public OperatorQueries
{
    Q_OBJECT

public:
    template<typename T>
    using Done = Answer<T>;

    OperatorThread(QString database, QString applicationName, SessionLimits limits, QObject *parent = nullptr);
    // Waits for the job that runs (bounded by the statement timeout) and
    // closes the connection.
    ~OperatorThread() override;

    // The connection opened from here on (by the next job that opens one)
    // uses these; jobs already submitted keep the earlier ones.
    void configure(const QString &database, SessionLimits limits);

    // One count of its own, not shared.
    void queueCounts(QObject *context, Done<QueueCounts> done);
    // The shared counts (QueueCountCache), shown on `board` (outliving this).
    void queueCounts(Freshness freshness, QObject *asker, Answer<QueueCounts> answer) override;
    void publishCountsTo(DispatchBoard *board) { m_counts.publishTo(board); }
    // The database went away: the counts of before are no longer the queue's.
    void forgetCounts() { m_counts.forget(); }
    void requeue(const RequeueRequest &request, QObject *context, Done<RequeueOutcome> done) override;
    void messages(const MessagesRequest &request, QObject *context, Done<MessagePage> done) override;
    // An error naming the id when there is no such row.
    void message(qint64 id, QObject *context, Done<MessageDetail> done) override;
    // Writes the row, or removes it for a setting without a value (false: there was none).
    void setOverlay(const OverlaySetting &setting, QObject *context, Done<bool> done);
    // The dispatcher is stopping: jobs not yet begun are answered with an
    // error instead of touching the database (a requeue after a stop began
    // would go unlogged and unannounced).
    void stop() { m_stopping = true; }

    // The database came back after an outage: the next job opens a fresh
    // connection instead of finding out that the old one is dead.
    void reconnect();

private:
    template<typename T>
    void submit(std::function<Result<T, QString>(OperatorWorker &)> job, QObject *context, Done<T> done);

    // One count for m_counts, run on the operator thread, in turn with the jobs.
    void count(quint64 generation);

    QueueCountCache m_counts;
    QThread m_thread;
    OperatorWorker *m_worker = nullptr; // lives in m_thread
    std::atomic<bool> m_stopping{false};
};

} // namespace pepsi
