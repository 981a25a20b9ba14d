// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "core/failurewatch.h"
#include "model/dispatchport.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QHash>
#include <QTimer>
#include <memory>

namespace pepsi {

class DispatchBoard;
class Dispatcher;
class OperatorQueries;
class OperatorThread;
class WorkerPool;

// The Dispatcher's face for the control socket, on the dispatch loop: the
// pictures it publishes on a DispatchBoard and the admin commands of its
// DispatchPort. It sees the Dispatcher only through its public port
// (accessors, the lifecycle signal, requestRound, reloadNow, setDrained,
// rowsPending) and the pools through their const snapshot methods, turns what
// the pools and the session signal into events, and keeps what only the
// socket needs: the last cooldown reason per stage, the operator thread
// (which keeps the queue counts), the FailureWatch that turns the runs'
// outcomes into failure events.
class DispatchState : public DispatchPort
{
    Q_OBJECT

public:
    explicit DispatchState(Dispatcher &dispatcher);
    ~DispatchState() override;

    // Hooks for the Dispatcher and its DispatchLifecycle, each called first thing in its own handler of
    // the same cause, so that a reload or lifecycle change that follows knows
    // what caused it and the events keep the order of their causes: the
    // session is up (`first`: for the first time) or down; a config_changed
    // notification came (returns the source its reload names: `set` when
    // it is the echo of a `set`, else `notify`); a pool was created; a
    // reload took effect (its `reload` event).
    void databaseUp(bool first);
    void databaseDown(const QString &reason);
    QString configChanged();
    void watchPool(WorkerPool *pool);
    void reloaded(const ReloadSnapshot &reload);

    // Keeps `board` (owned by the caller, outliving this) up to date for the
    // control thread: at once at every lifecycle change, after every admin
    // action and before the events the operator thread reads (the database
    // lost, a reload); before the pools' events (workers, cooldowns,
    // failures), which come by the hundred when a large pool starts, the
    // board is only marked stale; either way a client that hears of a change
    // and asks sees it (of a pool's, unless the loop is held in a statement
    // longer than DispatchBoard::MaxWaitMs). Other changes (a claim, an
    // answer) are published within PublishDelayMs, coalesced, while the
    // board is watched, and unwatched only mark it stale. And whenever the
    // board asks (its picture stale or aged).
    static constexpr int PublishDelayMs = 50;
    void publishTo(DispatchBoard *board);
    void markChanged();
    void publishPicture();
    DispatchPicture picture() const;

    // Where the control thread sends the operator's queries (queue counts,
    // messages, message, requeue): straight to the database, never through
    // the loop.
    OperatorQueries &operatorQueries();

protected:
    // These three act and answer at once, on the dispatch loop.
    void reloadNow(uint uid, Answer<ReloadSnapshot> answer) override;
    void setDrained(const QString &stage, bool drained, uint uid, Answer<bool> answer) override;
    void rowsRequeued(const RequeueRequest &request, const RequeueOutcome &outcome, uint uid,
                      Answer<bool> answer) override;
    // This one on the operator thread.
    void writeSetting(const OverlaySetting &setting, uint uid, Answer<bool> answer) override;

private:
    Lifecycle lifecycle() const;
    DaemonInfo info() const;
    QList<PoolSnapshot> pools() const;
    QList<WorkerSnapshot> workers() const;
    StatsSnapshot stats() const;
    Result<ReloadSnapshot, QString> reload(uint uid);
    std::optional<QString> drainOrResume(const QString &stage, bool drained, uint uid);
    QString notRunning() const;
    void emitEvent(const QString &name, QJsonObject fields);
    void emitPoolEvent(const QString &name, QJsonObject fields);
    void markStale();
    void watchFailures();

    Dispatcher &m_d;
    QDateTime m_startedAt;
    // The account it runs as: main() drops to USER before the dispatcher exists.
    const QString m_account;
    QString m_databaseError;
    QElapsedTimer m_downSince;
    // `set` writes whose config_changed notification has not come yet: that
    // notification's reload names `set` as its source. The notification and
    // the write's answer reach the loop in either order, so the count goes up
    // when the write is asked for and down at the notification (or when the
    // write failed and none will come).
    int m_setsUnheard = 0;
    QHash<QString, QString> m_cooldownReason;
    FailureWatch m_failures;
    DispatchBoard *m_board = nullptr;
    QTimer m_publishSoon;      // single shot
    bool m_boardStale = false; // marked so since the last picture

    // Its connection opens at the first job, with the settings in force then.
    std::unique_ptr<OperatorThread> m_operator;
};

} // namespace pepsi
