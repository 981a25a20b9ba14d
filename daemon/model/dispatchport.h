// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "model/answerrelay.h"
#include "model/dispatchview.h"

#include <QObject>
#include <QStringList>

namespace pepsi {

// The control thread's one way to act on the dispatcher: the admin commands
// that change what the loop does, and what the loop must hear of an
// operator's change to the queue (OperatorQueries acts on the database
// itself). Each public call is a queued call to this object's thread, the
// dispatch loop, where the implementation (DispatchState; tests give fakes)
// acts; its answer comes back on `asker`'s thread, and not at all once
// `asker` is gone. (On the loop's own thread, a test's, both run at once.)
// The dispatcher's events and lifecycle changes are emitted here, on the
// loop, and reach a receiver on another thread queued, in the order they
// happened.
//
// Every admin call is already authorised by the caller; `uid` is the peer's,
// for the log and the events.
class DispatchPort : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;

    // The stage names of the graph now in force and what changed, or why
    // not (every problem of a configuration it refused).
    void reload(uint uid, QObject *asker, Answer<ReloadSnapshot> answer);
    // Errors: an unknown stage, or not running.
    void drain(const QString &stage, uint uid, QObject *asker, Answer<bool> answer);
    void resume(const QString &stage, uint uid, QObject *asker, Answer<bool> answer);
    // A requeue (OperatorQueries::requeue) moved `outcome`'s rows back to
    // pending: the loop logs it, announces it (`requeued`) and, when rows
    // moved, walks the stage from its first row again. Answers once it has,
    // so that whoever hears the answer has had the event.
    void requeued(const RequeueRequest &request, const RequeueOutcome &outcome, uint uid, QObject *asker,
                  Answer<bool> answer);
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
    virtual void reloadNow(uint uid, Answer<ReloadSnapshot> answer) = 0;
    virtual void setDrained(const QString &stage, bool drained, uint uid, Answer<bool> answer) = 0;
    virtual void rowsRequeued(const RequeueRequest &request, const RequeueOutcome &outcome, uint uid,
                              Answer<bool> answer) = 0;
    virtual void writeSetting(const OverlaySetting &setting, uint uid, Answer<bool> answer) = 0;

private:
    // Runs `act(answer)` on this object's thread, `answer` leading back to `asker`.
    template<typename T, typename Act>
    void post(QObject *asker, Answer<T> answer, Act act);
};

} // namespace pepsi
