// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "model/dispatchview.h"

#include <memory>

namespace pepsi {

class DispatchBoard;

// The dispatcher as the control thread sees it: DispatchView answered from
// the DispatchBoard the dispatch loop publishes, so that `status`, `workers`
// and `stats` never wait for a claim or a commit in progress; the queue
// counts from the board while they are young enough; everything else (the
// admin calls, the operator queries) handed to `loopSide` on the dispatch
// loop, its answer brought back to this thread. Events and lifecycle changes
// are relayed in the order they happened.
//
// Lives on the control thread; `loopView` and `loopControl` (one object,
// DispatchState) on the dispatch loop's.
class DispatchMirror : public DispatchView, public DispatchControl
{
    Q_OBJECT

public:
    DispatchMirror(DispatchView &loopView, DispatchControl &loopControl, const DispatchBoard &board);
    ~DispatchMirror() override;

    // From the dispatch loop's thread, before this object goes: answers
    // still on their way from the loop are dropped from now on.
    void detach();

    DaemonInfo info() const override;
    StageGraph graph() const override;
    DispatchSettings settings() const override;
    bool isDrained(const QString &stage) const override;
    QList<PoolSnapshot> pools() const override;
    QList<WorkerSnapshot> workers() const override;
    StatsSnapshot stats() const override;
    DispatchPicture picture() const override;
    void queueCounts(QObject *context, Freshness freshness, Answer<QueueCounts> answer) override;
    void messages(const MessagesRequest &request, QObject *context, Answer<MessagePage> answer) override;
    void message(qint64 id, QObject *context, Answer<MessageDetail> answer) override;

    void reload(uint uid, QObject *context, Answer<QStringList> answer) override;
    void drain(const QString &stage, uint uid, QObject *context, Answer<bool> answer) override;
    void resume(const QString &stage, uint uid, QObject *context, Answer<bool> answer) override;
    void requeue(const RequeueRequest &request, uint uid, QObject *context, Answer<RequeueOutcome> answer) override;
    void set(const OverlaySetting &setting, uint uid, QObject *context, Answer<bool> answer) override;

private:
    // Runs `call(view, control, relay)` on the dispatch loop; `relay` brings
    // its answer back here and gives it to `answer` if `context` still is.
    template<typename T, typename Call>
    void onLoop(QObject *context, Answer<T> answer, Call call);

    DispatchView &m_loopView;
    DispatchControl &m_loopControl;
    const DispatchBoard &m_board;
    // Where answers from the loop are sent; cleared by detach(), on the
    // loop's thread, the only thread that reads it.
    std::shared_ptr<DispatchMirror *> m_home;
};

} // namespace pepsi
