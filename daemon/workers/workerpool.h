// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "config/stagegraph.h"
#include "model/runreport.h"
#include "model/ticket.h"
#include "workers/idlereaper.h"
#include "workers/workerprocess.h"

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QProcessEnvironment>
#include <QTimer>
#include <chrono>

namespace pepsi {

struct PoolOptions
{
    QString configFile; // passed to workers as -c
    std::chrono::milliseconds maxRuntime{0};
    std::chrono::milliseconds idleTimeout{0};
    std::chrono::milliseconds tempfailDelay{0};
    std::chrono::milliseconds stopGrace{std::chrono::seconds(3)};     // stdin closed -> SIGTERM
    std::chrono::milliseconds killGrace{std::chrono::seconds(2)};     // SIGTERM -> SIGKILL
    std::chrono::milliseconds startTimeout{std::chrono::seconds(60)}; // exec -> first read of its input
};

// The policy for one stage's workers: how many, which one gets the next ids
// (pack onto the fewest), when to start, reap idle, recycle, and hold the
// stage off after start failures. It turns worker reports into settlements
// for the dispatcher to write; it never touches the database itself.
class WorkerPool : public QObject
{
    Q_OBJECT

public:
    WorkerPool(const StageConfig &stage, const PoolOptions &options, QObject *parent);

    const StageConfig &stage() const { return m_stage; }
    // Ids this pool can take now: QUEUE_LIMIT x PARALLELISM minus what it holds,
    // minus the slots of retiring workers; 0 in cooldown or once retired.
    int spareCapacity() const;
    int inFlight() const;
    int workerCount() const { return int(m_workers.size()); }
    bool inCooldown() const { return m_cooldown.isActive(); }
    // Every id a worker of this pool holds.
    QList<qint64> heldIds() const;

    // Hands tickets to workers, busiest accepting worker first; starts workers
    // only when all are full. Returns what it could not place.
    Tickets assign(const Tickets &tickets);

    // Hot reload: every current worker retires (idle ones stop at once, busy
    // ones once what they hold has reported back); new workers use `stage`.
    // Retiring workers still count against PARALLELISM.
    void reconfigure(const StageConfig &stage);
    // No new ids from now on; idle workers stop at once, busy ones once
    // drained; drained() follows the last one.
    void retire();
    // retire(), and report drained() when the last worker is gone.
    void shutdown();

Q_SIGNALS:
    void capacityFreed();
    void settle(const pepsi::Settlement &settlement);
    void runEnded(const pepsi::RunReport &report);
    // The worker answered 0 for the message: its stage committed it pending
    // at a NEXT stage of ours (or of the last fused stage), or finished it.
    void advanced(qint64 messageId, const QList<pepsi::FusedRun> &fused);
    void drained();

    // What happens to the workers, in plain values (for the control socket).
    void workerStarted(qint64 pid);
    // It ended as asked or on its own holding nothing; reason: idle, recycled,
    // retired, stopped (shutdown) or clean; messages: how many it answered.
    void workerExited(qint64 pid, const QString &reason, qint64 messages);
    // It died holding work: messageId failed (-1: it held none), `requeued` went back.
    void workerCrashed(qint64 pid, const QString &cause, qint64 messageId, int requeued);
    // We condemned it; reason: "timeout" or "protocol error"; messageId -1: none.
    void workerKilled(qint64 pid, const QString &reason, qint64 messageId, const QString &detail);
    // The stage's program could not be started or exited before answering anything.
    void startFailed(const QString &cause, const QString &lastStderrLine);
    void cooldownEntered(const QDateTime &until, const QString &reason);
    void cooldownLeft();

private:
    WorkerProcess *spawn();
    // Ids `worker` may take now: QUEUE_LIMIT and what is left of MAX_MESSAGES.
    int room(const WorkerProcess *worker) const;
    QString resolveProgram(QString *why) const;
    void onAnswered(WorkerProcess *worker, Ticket ticket, const StatusLine &status, qint64 busyUsec);
    void onExited(WorkerProcess *worker, const Tickets &unanswered, const WorkerExit &exit);
    void becameIdleMaybe(WorkerProcess *worker);
    void retireWorkers();
    void enterCooldown(const QString &why);
    void stopWorker(WorkerProcess *worker, const QString &reason);
    void requeue(const Tickets &tickets);
    void settleOne(Ticket ticket, Settlement::Outcome outcome, const QString &reason, qint64 pauseMs = 0);
    void report(RunReport::Result result, qint64 busyUsec, QList<FusedRun> fused = {}, bool heldMessage = true,
                const QString &reason = {});

    StageConfig m_stage;
    PoolOptions m_options;
    QProcessEnvironment m_environment;
    QList<WorkerProcess *> m_workers; // children; alive or exiting
    IdleReaper m_idle;
    QHash<WorkerProcess *, QString> m_stopReasons; // why we closed its input
    QTimer m_cooldown;
    int m_startFailures = 0;
    bool m_retired = false;

    // --- read and steered by the control socket (model/snapshots.h) ---
public:
    // A drained pool claims nothing (spare capacity 0): its workers finish
    // what they hold and idle out. Kept across reconfigure(), that is a reload.
    void setDrained(bool drained) { m_drained = drained; }
    bool isDrained() const { return m_drained; }
    PoolSnapshot snapshot() const;
    // Sorted by pid.
    QList<WorkerSnapshot> workerSnapshots() const;

private:
    bool m_drained = false;
};

} // namespace pepsi
