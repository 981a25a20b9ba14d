// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "config/dispatchsettings.h"
#include "config/stagegraph.h"
#include "core/ticket.h"

#include <QHash>
#include <QObject>
#include <QTimer>
#include <memory>

namespace pepsi {

class DatabaseSession;
class WorkerPool;
struct StatusLine;

// The composition root's glue: wakes (notifications, worker reports, timers)
// become claim rounds; claimed tickets go to the stage pools; what the pools
// settle is written back. It owns the managers and builds them in dependency
// order (store, listener + lock, pools); they are torn down in reverse.
class Dispatcher : public QObject
{
    Q_OBJECT

public:
    Dispatcher(const DispatchSettings &settings, const StageGraph &graph, bool standby, QObject *parent = nullptr);
    ~Dispatcher() override;

    // Connect (or, as a standby, wait for the lock), reset orphans, LISTEN, claim.
    void start();
    // Stop claiming, drain and stop workers, put back what they held, then finished(0).
    void shutdown();

    // Counters for the progress display and tests.
    qint64 rounds() const { return m_rounds; }
    qint64 claimedTotal() const { return m_claimedTotal; }

Q_SIGNALS:
    void finished(int exitCode);

private:
    void requestRound();
    void runRound();
    void flushSettlements();
    void onNotified(const QString &channel);
    void onDatabaseUp();
    void onLockedOut(const QString &holder);
    void onSettle(const Settlement &settlement);
    void onPoolDrained();
    void armRetryTimer(std::optional<qint64> nextPausedInMs);
    void fail(const QString &message);
    void finishShutdown();
    void buildPools();

    DispatchSettings m_settings;
    StageGraph m_graph;

    bool m_standby = false;
    std::unique_ptr<DatabaseSession> m_session;
    QHash<QString, WorkerPool *> m_pools; // children

    QTimer m_roundTimer;   // zero-delay: coalesces every wake of one loop pass
    QTimer m_retryTimer;   // the earliest paused row
    QTimer m_heartbeat;    // POLL_INTERVAL
    Settlements m_pending; // written before the next claim

    qint64 m_rounds = 0;
    qint64 m_claimedTotal = 0;
    bool m_running = false; // pools built, claiming (the session may still be down)
    bool m_stopping = false;
    bool m_finished = false;
};

} // namespace pepsi
