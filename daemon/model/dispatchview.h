// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "config/dispatchsettings.h"
#include "config/stagegraph.h"
#include "model/snapshots.h"
#include "result.h"

#include <QObject>
#include <QStringList>
#include <functional>
#include <optional>

// What the rest of the daemon (the control socket, the systemd notifier) may
// see of the dispatcher and ask of it. Everything here is a value copied out
// in one call; nothing hands out a pointer into a pool or a worker.

namespace pepsi {

// The answer to an operator query that runs off the dispatch loop. It runs on
// the asker's thread, later (or at once, from a cache), and never once the
// asker's `context` object is gone.
template<typename T>
using Answer = std::function<void(Result<T, QString>)>;

// One moment of the dispatcher as DispatchView gives it out.
struct DispatchPicture
{
    DaemonInfo info;
    StageGraph graph;
    DispatchSettings settings;
    QList<PoolSnapshot> pools;
    QList<WorkerSnapshot> workers;
    StatsSnapshot stats;

    // As DispatchView::isDrained(), of this moment.
    bool isDrained(const QString &stage) const
    {
        for (const PoolSnapshot &pool : pools) {
            if (pool.stage == stage)
                return pool.drained;
        }
        return false;
    }
};

// The read-only side. Implemented by the Dispatcher; tests give fakes.
class DispatchView : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;

    virtual DaemonInfo info() const = 0;
    virtual StageGraph graph() const = 0;
    virtual DispatchSettings settings() const = 0;
    virtual bool isDrained(const QString &stage) const = 0;
    // Current stages first (sorted by name), then retired ones still draining.
    virtual QList<PoolSnapshot> pools() const = 0;
    // Sorted by stage, then pid.
    virtual QList<WorkerSnapshot> workers() const = 0;
    virtual StatsSnapshot stats() const = 0;
    // All of the above in one copy. A reply that reads more than one piece
    // reads this: the pieces of two calls may come from two moments (the
    // control thread's DispatchMirror reads a board the loop publishes to
    // meanwhile), and their sums and stages would not agree.
    virtual DispatchPicture picture() const = 0;
    // How old the counts given to an asker may be. `Fresh`: at most a second,
    // waiting for a count when none is that young (`queues`). `Recent`: up
    // to RecentCountsMs, at once, while a fresh count runs for the next asker,
    // so that a polled `status` never waits for the database; it waits only
    // when no count is that recent (the first, after a requeue or an outage).
    enum class Freshness { Fresh, Recent };
    static constexpr qint64 FreshCountsMs = 1000;
    static constexpr qint64 RecentCountsMs = 10'000;
    // One query off the dispatch loop, shared by every asker; an error while
    // the database is down.
    virtual void queueCounts(QObject *context, Freshness freshness, Answer<QueueCounts> answer) = 0;
    // Off the dispatch loop too, in request order with the counts and
    // requeues: a page of one stage's rows in one status (the request is
    // already checked), and one row (an error naming the id if there is none).
    virtual void messages(const MessagesRequest &request, QObject *context, Answer<MessagePage> answer) = 0;
    virtual void message(qint64 id, QObject *context, Answer<MessageDetail> answer) = 0;

Q_SIGNALS:
    void lifecycleChanged(pepsi::Lifecycle state);
    void happened(const pepsi::DispatchEvent &event);
};

// The admin side: every call is already authorised by the caller. `uid` is
// the peer's, for the log and the events. Every answer comes through an
// Answer, as the queries' do: the daemon's control socket runs on a thread
// of its own and the dispatcher answers when its loop gets to it.
class DispatchControl
{
public:
    virtual ~DispatchControl() = default;
    // The stage names of the graph now in force, or why not.
    virtual void reload(uint uid, QObject *context, Answer<QStringList> answer) = 0;
    // Errors: an unknown stage, or not running.
    virtual void drain(const QString &stage, uint uid, QObject *context, Answer<bool> answer) = 0;
    virtual void resume(const QString &stage, uint uid, QObject *context, Answer<bool> answer) = 0;
    // Off the dispatch loop, like queueCounts().
    virtual void requeue(const RequeueRequest &request, uint uid, QObject *context, Answer<RequeueOutcome> answer) = 0;
    // Writes one config_overlay row (already validated), off the dispatch
    // loop; its config_changed reloads the graph as any overlay change does.
    virtual void set(const OverlaySetting &setting, uint uid, QObject *context, Answer<bool> answer) = 0;
};

} // namespace pepsi

Q_DECLARE_METATYPE(pepsi::DispatchEvent)
Q_DECLARE_METATYPE(pepsi::Lifecycle)
