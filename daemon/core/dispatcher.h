// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "config/configuration.h"
#include "config/dispatchsettings.h"
#include "config/stagegraph.h"
#include "control/protocol.h"
#include "core/pipelinereloader.h"
#include "core/poolset.h"
#include "core/roundscheduler.h"
#include "core/settlementwriter.h"
#include "core/statisticsflusher.h"
#include "model/claimfloors.h"
#include "model/dispatchview.h"
#include "model/ticket.h"
#include "service/servicenotifier.h"

#include <QObject>
#include <chrono>
#include <memory>

namespace pepsi {

class DatabaseSession;
struct ClaimRound;
struct StageDemand;
class DispatchState;
class WorkerPool;

// The composition root, whose own concern is running rounds: wakes
// (notifications, worker reports, RoundScheduler's timers) become claim
// rounds; claimed tickets go to the stage pools (PoolSet); what the pools
// settle goes to the SettlementWriter, written before the next claim; their
// run reports go to the StatisticsFlusher. It builds the database session
// first and the pools once the session is up, and tears them down in reverse
// (pools, then the session). Its life is one Lifecycle state, and every way
// out (a signal, a bad reload, the lock taken by another dispatcher, a
// database it cannot use) goes through stop(). Where the graph comes from
// (file, overlay, checks, what changed) is its PipelineReloader's; it applies
// the graph that one hands it.
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
    // SIGHUP: reload (the file and the overlay, as every reload). Not
    // serving yet (a standby, a database not reached at start), the file is
    // kept for when it starts; with the database down, the reload waits for
    // it. A file or graph that does not parse stops with exit 1.
    void reloadFile();
    // The control socket's view of this dispatcher and its admin side (a child).
    DispatchState *state() const { return m_state; }

    Lifecycle lifecycle() const { return m_lifecycle; }
    // Reconnecting (or Starting with the database unreachable): why.
    QString lastDatabaseError() const;

    // What the control plane (DispatchState) reads: the state in force, by
    // const reference or copy, and nothing it could change.
    const StageGraph &graph() const { return m_graph; }
    const DispatchSettings &settings() const { return m_reloader.settings(); } // the overlay applied
    bool isStandby() const { return m_standby; }
    // Pools built and not stopping; the database may be down (Reconnecting).
    bool isServing() const;
    bool isDatabaseUp() const;
    // current_database() of the queue connection, once it was up.
    QString databaseName() const;
    // Current stages sorted by name, then retired ones still draining.
    QList<const WorkerPool *> pools() const;
    // A current stage's pool, or null.
    const WorkerPool *pool(const QString &stage) const { return m_pools.find(stage); }
    const StatsDelta &statsTotals() const { return m_stats.totals(); }
    qint64 failedInARow(const QString &stage) const { return m_stats.failedInARow(stage); }
    qint64 claimedTotal() const { return m_claimedTotal; }
    qint64 rounds() const { return m_rounds; }
    // Runs per second over the last `window` (from the once-a-second meter).
    double runRate(std::chrono::milliseconds window) const;
    double stageRunRate(const QString &stage, std::chrono::milliseconds window) const;
    // A reload waits for the database (or for config_overlay to be read).
    bool isReloadPending() const { return m_reloadPending; }

    // What it may ask: a claim round soon, a reload as on config_changed (the
    // database up), and draining or resuming a current stage (false: no such
    // stage). Whether a command is allowed now is the caller's to check.
    void requestRound();
    // Rows of `stage` went back to pending behind the dispatcher's back (an
    // operator's requeue): its next claim walks the stage from the start.
    void rowsPending(const QString &stage);
    // The `reload` command: the file and the overlay read again and checked
    // (every PROGRAM too); refused with every problem, nothing changed, or
    // the new graph's names and what changed.
    Result<ReloadSnapshot, QString> reloadNow() { return reload(QString(protocol::value::Socket), true); }
    bool setDrained(const QString &stage, bool drained);

Q_SIGNALS:
    void finished(int exitCode);
    void lifecycleChanged(pepsi::Lifecycle state);
    void databaseLost(const QString &reason);
    void databaseRestored(qint64 afterMs);

private:
    // Drain: workers finish what they hold (a signal, a bad reload).
    // Abandon: another dispatcher owns the rows now, or nothing may be
    // written at all: workers are stopped at once and nothing is written.
    enum class StopMode { Drain, Abandon };
    void stop(int exitCode, const QString &why, StopMode mode);
    void finishStop();
    void setLifecycle(Lifecycle state);

    void runRound();
    bool resetOrphansIfDue();
    // Writes the outcomes that wait; the rows written are pending again
    // (or moved on): their stages' claims look again from there.
    void flushSettlements(bool force = false);
    // A statement failed: the session decides whether the connection is
    // gone; on a live one (a timeout, a row lock) the round runs again soon.
    void statementFailed(const QString &what);
    void onNotified(const QString &channel, const QString &payload);
    void onAdvanced(const QString &stage, qint64 messageId, const QList<FusedRun> &fused);
    void updateFloors(const QList<StageDemand> &demands, const ClaimRound &round);
    void onDatabaseUp(bool first);
    bool startPipeline();
    void onSettle(const Settlement &settlement);
    void onPoolDrained(WorkerPool *pool);
    // Every reload, whatever its `source` (protocol::value::*). `command`:
    // refuse what does not pass the check; otherwise what does not parse
    // stops the process.
    Result<ReloadSnapshot, QString> reload(const QString &source, bool command = false);
    // A reloaded file or graph that does not parse: drain and exit 1.
    void refuseReload(const QString &problems);
    void applyGraph(const StageGraph &graph);
    WorkerPool *createPool(const StageConfig &stage);
    QList<qint64> heldIds() const;

    PipelineReloader m_reloader;
    StageGraph m_graph; // applied
    bool m_standby = false;

    std::unique_ptr<DatabaseSession> m_session;
    PoolSet m_pools; // current and retiring; children
    SettlementWriter m_settlements;
    StatisticsFlusher m_stats;
    ServiceNotifier m_notifier;

    RoundScheduler m_schedule; // when the next round runs
    ClaimFloors m_floors;      // where each stage's claim starts

    qint64 m_rounds = 0;
    qint64 m_claimedTotal = 0;
    int m_exitCode = 0;
    Lifecycle m_lifecycle = Lifecycle::Starting;
    bool m_pipelineBuilt = false; // pools exist (the session may be down)
    bool m_resetDue = false;      // running rows nobody holds go back to pending before the next claim
    bool m_reloadPending = false;
    QString m_pendingSource; // of the reload that waits

    DispatchState *m_state = nullptr; // a child
};

} // namespace pepsi
