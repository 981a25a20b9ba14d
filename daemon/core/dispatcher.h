// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "config/configuration.h"
#include "config/dispatchsettings.h"
#include "config/stagegraph.h"
#include "core/statistics.h"
#include "core/ticket.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QTimer>
#include <memory>
#include <optional>

namespace pepsi {

class DatabaseSession;
class DispatchState;
class WorkerPool;

// The composition root's glue: wakes (notifications, worker reports, timers)
// become claim rounds; claimed tickets go to the stage pools; what the pools
// settle is written back; their run reports feed the statistics. It builds
// the database session first and the pools once the session is up, and tears
// them down in reverse (pools, then the session).
class Dispatcher : public QObject
{
    Q_OBJECT

public:
    Dispatcher(const Configuration &file, const DispatchSettings &settings, bool standby, QObject *parent = nullptr);
    ~Dispatcher() override;

    // Connect (or, as a standby, wait for the lock), apply the overlay, reset
    // orphans, LISTEN, claim.
    void start();
    // Stop claiming, drain and stop workers, put back what they held, flush
    // the statistics, then finished(exitCode).
    void shutdown(int exitCode = 0);
    // The control socket's view of this dispatcher and its admin side (a child).
    DispatchState *state() const { return m_state; }

Q_SIGNALS:
    void finished(int exitCode);

private:
    void requestRound();
    void runRound();
    void flushSettlements();
    void flushStatistics();
    void flushStatisticsWhenIdle();
    void onNotified(const QString &channel);
    void onDatabaseUp();
    void onLockedOut(const QString &holder);
    void onSettle(const Settlement &settlement);
    void onPoolDrained(WorkerPool *pool);
    void reload();
    void applyGraph(const StageGraph &graph);
    WorkerPool *createPool(const StageConfig &stage);
    void armRetryTimer(std::optional<qint64> nextPausedInMs);
    void fail(int exitCode, const QString &message);
    void finishShutdown();
    int inFlight() const;

    Configuration m_file;
    DispatchSettings m_fileSettings;
    DispatchSettings m_settings; // with the overlay applied at start
    StageGraph m_graph;
    bool m_standby = false;

    std::unique_ptr<DatabaseSession> m_session;
    QHash<QString, WorkerPool *> m_pools;  // children
    QList<WorkerPool *> m_retiredPools;    // stages removed by a reload, draining
    Statistics m_stats;

    QTimer m_roundTimer;      // zero-delay: coalesces every wake of one loop pass
    QTimer m_retryTimer;      // the earliest paused row
    QTimer m_heartbeat;       // POLL_INTERVAL
    QTimer m_statsTimer;      // STATS_INTERVAL
    QTimer m_idleStatsTimer;  // the idle flush, at most once a second
    QElapsedTimer m_lastStatsFlush;
    Settlements m_pending;    // written before the next claim

    qint64 m_rounds = 0;
    qint64 m_claimedTotal = 0;
    int m_exitCode = 0;
    bool m_running = false;   // pools built, claiming (the session may still be down)
    bool m_reloadPending = false;
    bool m_stopping = false;
    bool m_finished = false;

    // Reads the members above for the control socket; see core/dispatchstate.h.
    friend class DispatchState;
    DispatchState *m_state = nullptr;
};

} // namespace pepsi
