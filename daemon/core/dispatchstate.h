// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "model/dispatchview.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QHash>
#include <QPointer>
#include <QTimer>
#include <memory>

namespace pepsi {

class DatabaseSession;
class DispatchBoard;
class Dispatcher;
class OperatorThread;
class WorkerPool;

// The Dispatcher's face for the control socket: copies of its state
// (DispatchView) and the admin operations (DispatchControl). It sees the
// Dispatcher only through its public port (accessors, the lifecycle signal,
// requestRound, reloadNow, setDrained) and the pools through their const
// snapshot methods, turns what the pools and the session signal into events,
// and keeps what only the socket needs: the one-second cache of the queue
// counts, the last cooldown reason per stage, the operator thread.
class DispatchState : public DispatchView, public DispatchControl
{
    Q_OBJECT

public:
    explicit DispatchState(Dispatcher &dispatcher);
    ~DispatchState() override;

    // Hooks for the Dispatcher: the session was created (before the
    // Dispatcher connects to it); a pool was created; a reload took effect.
    void attachSession(DatabaseSession *session);
    void watchPool(WorkerPool *pool);
    void reloaded();
    // The next reload was asked for by `source` (protocol::value::Signal: SIGHUP).
    void reloadRequested(const QString &source) { m_reloadSource = source; }

    // Keeps `board` (owned by the caller, outliving this) up to date for the
    // control thread: at once before every event and lifecycle change and
    // after every admin action, so that a client that hears of a change sees
    // it; within PublishDelayMs of any other change (a claim, an answer),
    // coalesced; and whenever the board asks (its picture aged while idle).
    static constexpr int PublishDelayMs = 50;
    void publishTo(DispatchBoard *board);
    void markChanged()
    {
        if (m_board && !m_publishSoon.isActive())
            m_publishSoon.start();
    }
    void publishPicture();

    DaemonInfo info() const override;
    StageGraph graph() const override;
    DispatchSettings settings() const override;
    bool isDrained(const QString &stage) const override;
    QList<PoolSnapshot> pools() const override;
    QList<WorkerSnapshot> workers() const override;
    StatsSnapshot stats() const override;
    // On the loop nothing changes between two reads: the pieces, read in turn.
    DispatchPicture picture() const override;
    void queueCounts(QObject *context, Freshness freshness, Answer<QueueCounts> answer) override;
    void messages(const MessagesRequest &request, QObject *context, Answer<MessagePage> answer) override;
    void message(qint64 id, QObject *context, Answer<MessageDetail> answer) override;

    // These three act and answer at once, on the dispatch loop.
    void reload(uint uid, QObject *context, Answer<QStringList> answer) override;
    void drain(const QString &stage, uint uid, QObject *context, Answer<bool> answer) override;
    void resume(const QString &stage, uint uid, QObject *context, Answer<bool> answer) override;
    void requeue(const RequeueRequest &request, uint uid, QObject *context, Answer<RequeueOutcome> answer) override;
    void set(const OverlaySetting &setting, uint uid, QObject *context, Answer<bool> answer) override;

private:
    Lifecycle lifecycle() const;
    Result<QStringList, QString> reloadNow(uint uid);
    // Why an operator query cannot reach the database now, if it cannot.
    std::optional<QString> databaseUnreachable() const;
    void emitEvent(const QString &name, QJsonObject fields);
    std::optional<QString> setDrained(const QString &stage, bool drained, uint uid);
    OperatorThread &operatorThread();
    void startCount();
    void countsArrived(Result<QueueCounts, QString> counts, quint64 generation);
    void forgetCounts();
    void requeueDone(const RequeueRequest &request, uint uid, const Result<RequeueOutcome, QString> &outcome);
    void configChanged();

    Dispatcher &m_d;
    QDateTime m_startedAt;
    // The account it runs as: main() drops to USER before the dispatcher exists.
    const QString m_account;
    QString m_databaseError;
    QElapsedTimer m_downSince;
    QString m_reloadSource = QString(protocol::value::Notify);
    // `set` writes whose config_changed notification has not come yet: that
    // notification's reload names `set` as its source. The notification and
    // the write's answer reach the loop in either order, so the count goes up
    // when the write is asked for and down at the notification (or when the
    // write failed and none will come).
    int m_setsUnheard = 0;
    QHash<QString, QString> m_cooldownReason;
    DispatchBoard *m_board = nullptr;
    QTimer m_publishSoon; // single shot

    std::unique_ptr<OperatorThread> m_operator; // opened at the first operator query
    std::optional<QueueCounts> m_queueCache;
    QElapsedTimer m_queueCacheAge;
    bool m_counting = false;
    // Bumped when the counts are known to have changed (a requeue, an
    // outage): a count that began before is given to its askers, not kept.
    quint64 m_countGeneration = 0;
    // Askers waiting for a count that begins in their generation.
    struct CountWaiter
    {
        QPointer<QObject> context;
        quint64 generation = 0;
        Answer<QueueCounts> answer;
    };
    QList<CountWaiter> m_countWaiters;
};

} // namespace pepsi
