// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "model/answerrelay.h"
#include "model/dispatchview.h"

#include <QObject>
#include <QStringList>

namespace pepsi {

// The control thread's one way to act on the dispatcher: the admin commands
// and the queue counts (cached on the loop, counted off it). Each public call
// is a queued call to this object's thread, the dispatch loop, where the
// implementation (DispatchState; tests give fakes) acts; its answer comes
// back on `asker`'s thread, and not at all once `asker` is gone. (On the
// loop's own thread, a test's, both run at once.) The
// dispatcher's events and lifecycle changes are emitted here, on the loop,
// and reach a receiver on another thread queued, in the order they happened.
//
// Every admin call is already authorised by the caller; `uid` is the peer's,
// for the log and the events.
class DispatchPort : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;

    // How old the counts given to an asker may be. `Fresh`: at most a second,
    // waiting for a count when none is that young (`queues`). `Recent`: up
    // to RecentCountsMs, at once, while a fresh count runs for the next asker,
    // so that a polled `status` never waits for the database; it waits only
    // when no count is that recent (the first, after a requeue or an outage).
    enum class Freshness { Fresh, Recent };
    static constexpr qint64 FreshCountsMs = 1000;
    static constexpr qint64 RecentCountsMs = 10'000;

    // One count off the dispatch loop, shared by every asker; an error while
    // the database is down.
    void queueCounts(Freshness freshness, QObject *asker, Answer<QueueCounts> answer);
    // The stage names of the graph now in force and what changed, or why
    // not (every problem of a configuration it refused).
    void reload(uint uid, QObject *asker, Answer<ReloadSnapshot> answer);
    // Errors: an unknown stage, or not running.
    void drain(const QString &stage, uint uid, QObject *asker, Answer<bool> answer);
    void resume(const QString &stage, uint uid, QObject *asker, Answer<bool> answer);
    // Off the dispatch loop, in order with the operator's queries.
    void requeue(const RequeueRequest &request, uint uid, QObject *asker, Answer<RequeueOutcome> answer);
    // Writes one config_overlay row (already validated), or removes it when
    // the setting has no value, off the dispatch loop; its config_changed
    // reloads the graph as any overlay change does. The answer says whether
    // a row changed: false only for a removal that found no row.
    void set(const OverlaySetting &setting, uint uid, QObject *asker, Answer<bool> answer);

Q_SIGNALS:
    void lifecycleChanged(pepsi::Lifecycle state);
    void happened(const pepsi::DispatchEvent &event);

protected:
    // The calls above, on the dispatch loop. Each calls `answer` once, at
    // once or later, on the loop's thread.
    virtual void countQueues(Freshness freshness, Answer<QueueCounts> answer) = 0;
    virtual void reloadNow(uint uid, Answer<ReloadSnapshot> answer) = 0;
    virtual void setDrained(const QString &stage, bool drained, uint uid, Answer<bool> answer) = 0;
    virtual void requeueRows(const RequeueRequest &request, uint uid, Answer<RequeueOutcome> answer) = 0;
    virtual void writeSetting(const OverlaySetting &setting, uint uid, Answer<bool> answer) = 0;

private:
    // Runs `act(answer)` on this object's thread, `answer` leading back to `asker`.
    template<typename T, typename Act>
    void post(QObject *asker, Answer<T> answer, Act act);
};

} // namespace pepsi
