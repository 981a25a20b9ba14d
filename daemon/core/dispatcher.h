// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "config/configuration.h"
#include "config/dispatchsettings.h"
#include "config/stagegraph.h"
#include "control/protocol.h"
#include "core/dispatchlifecycle.h"
#include "core/pipelineapplier.h"
#include "core/poolset.h"
#include "core/roundscheduler.h"
#include "core/settlementwriter.h"
#include "core/statisticsflusher.h"
#include "model/claimfloors.h"
#include "model/dispatchview.h"
#include "model/ticket.h"

#include <QObject>
#include <chrono>
#include <optional>

namespace pepsi {

class DatabaseSession;
struct ClaimRound;
struct StageDemand;
class DispatchState;
class WorkerPool;

// The dispatcher, whose concern is running rounds: wakes (notifications,
// worker reports, RoundScheduler's timers) become claim rounds; claimed
// tickets go to the stage pools (PoolSet); what the pools settle goes to the
// SettlementWriter, written before the next claim; their run reports go to
// the StatisticsFlusher. Before a claim comes what waits for one: the writes,
// a reload the database was away for, the orphan reset.
//
// It is also what the program builds and the control plane (DispatchState)
// reads, so it owns its two other concerns as values. Its PipelineApplier
// builds, reconfigures and retires its pools from a graph and runs a reload
// once the database answers. Its DispatchLifecycle drives it: it owns the
// database session, decides each Lifecycle change and every way out, and
// moves it through the few private steps below (a friend). The Lifecycle
// value and its signal stay here, next to the rounds that read it every time
// and with the rest of what DispatchState shows. Parts are built before the
// applier and the lifecycle that use them, and torn down in reverse: pools,
// then the session.
class Dispatcher : public QObject
{
    Q_OBJECT

public:
    Dispatcher(const Configuration &file, const DispatchSettings &settings, bool standby, QObject *parent = nullptr);
    ~Dispatcher() override;

    // Connect (or, as a standby, wait for the lock), apply the overlay, reset
    // orphans, LISTEN, claim.
    void start() { m_life.start(); }
    // Stop claiming, drain and stop workers, put back what they held, flush
    // the statistics, then finished(exitCode).
    void shutdown(int exitCode = 0) { m_life.shutdown(exitCode); }
    // SIGHUP: reload (the file and the overlay, as every reload). Not
    // serving yet (a standby, a database not reached at start), the file is
    // kept for when it starts; with the database down, the reload waits for
    // it. A file or graph that does not parse stops with exit 1.
    void reloadFile() { m_life.reloadFile(); }
    // The control socket's view of this dispatcher and its admin side (a child).
    DispatchState *state() const { return m_state; }

    Lifecycle lifecycle() const { return m_lifecycle; }
    // Reconnecting (or Starting with the database unreachable): why.
    QString lastDatabaseError() const { return m_life.lastDatabaseError(); }

    // What the control plane (DispatchState) reads: the state in force, by
    // const reference or copy, and nothing it could change.
    const StageGraph &graph() const { return m_pipeline.graph(); }
    const DispatchSettings &settings() const { return m_pipeline.settings(); } // the overlay applied
    bool isStandby() const { return m_life.isStandby(); }
    // Pools built and not stopping; the database may be down (Reconnecting).
    bool isServing() const { return m_pipelineBuilt && !isStopping(); }
    bool isStopping() const { return m_lifecycle == Lifecycle::Stopping || m_lifecycle == Lifecycle::Stopped; }
    bool isDatabaseUp() const { return m_life.isDatabaseUp(); }
    // current_database() of the queue connection, once it was up.
    QString databaseName() const { return m_life.databaseName(); }
    // Current stages sorted by name, then retired ones still draining.
    QList<const WorkerPool *> pools() const { return m_pools.ordered(); }
    // A current stage's pool, or null.
    const WorkerPool *pool(const QString &stage) const { return m_pools.find(stage); }
    const StatsDelta &statsTotals() const { return m_stats.totals(); }
    qint64 failedInARow(const QString &stage) const { return m_stats.failedInARow(stage); }
    qint64 claimedTotal() const { return m_claimedTotal; }
    qint64 rounds() const { return m_rounds; }
    // Runs per second over the last `window` (from the once-a-second meter).
    double runRate(std::chrono::milliseconds window) const { return m_stats.runRate(window); }
    double stageRunRate(const QString &stage, std::chrono::milliseconds window) const
    {
        return m_stats.stageRunRate(stage, window);
    }

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
    // The steps its DispatchLifecycle drives.
    friend class DispatchLifecycle;
    void setLifecycle(Lifecycle state);
    // Rounds claim, settle and write statistics through `session` from now
    // on (null: no more), and the heartbeat runs.
    void attach(DatabaseSession *session);
    // The pipeline is served: rounds claim with `settings` from now on (its
    // pools are built right after, before the loop runs a round).
    void serve(const DispatchSettings &settings);
    // Running rows nobody holds go back to pending before the next claim.
    void resetOrphansBeforeClaim() { m_resetDue = true; }
    // The source of a reload that waits for the database or for the overlay
    // to be readable, if one does.
    const std::optional<QString> &pendingReload() const { return m_pendingReload; }
    // The next round reloads first (the one already waiting keeps its source).
    void deferReload(const QString &source);
    // No more rounds. `abandon`: another dispatcher owns the rows now, or
    // nothing may be written at all: workers are stopped at once and nothing
    // is written. Otherwise workers finish what they hold. Returns whether
    // workers are left to wait for (DispatchLifecycle::finishStop once they are gone).
    bool stopRounds(bool abandon);
    // What the last runs left is written, or said to be lost.
    void finishRounds();

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
    void onSettle(const Settlement &settlement);
    void onPoolDrained(WorkerPool *pool);
    void watchPool(WorkerPool *pool);
    // Every reload, whatever its `source` (protocol::value::*): now, or once
    // the database is back. `command`: see PipelineApplier::reload.
    Result<ReloadSnapshot, QString> reload(const QString &source, bool command = false);
    QList<qint64> heldIds() const;

    PoolSet m_pools; // current and retiring
    SettlementWriter m_settlements;
    StatisticsFlusher m_stats;
    RoundScheduler m_schedule; // when the next round runs
    ClaimFloors m_floors;      // where each stage's claim starts
    PipelineApplier m_pipeline;
    DispatchLifecycle m_life;
    DatabaseSession *m_session = nullptr; // its lifecycle's

    qint64 m_rounds = 0;
    qint64 m_claimedTotal = 0;
    Lifecycle m_lifecycle = Lifecycle::Starting;
    bool m_pipelineBuilt = false;           // pools exist (the session may be down)
    bool m_resetDue = false;                // running rows nobody holds go back to pending before the next claim
    std::optional<QString> m_pendingReload; // the source of the reload that waits

    DispatchState *m_state = nullptr; // a child
};

} // namespace pepsi
