// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "config/stagegraph.h"
#include "core/runreport.h"
#include "core/ticket.h"
#include "workers/workerprocess.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QProcessEnvironment>
#include <QTimer>
#include <chrono>

namespace pepsi {

struct PoolOptions
{
    QString configFile;                        // passed to workers as -c
    std::chrono::milliseconds maxRuntime{0};
    std::chrono::milliseconds idleTimeout{0};
    std::chrono::milliseconds tempfailDelay{0};
    std::chrono::milliseconds stopGrace{std::chrono::seconds(3)}; // stdin closed -> SIGTERM
    std::chrono::milliseconds killGrace{std::chrono::seconds(2)}; // SIGTERM -> SIGKILL
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
    void drained();

private:
    WorkerProcess *spawn();
    // Ids `worker` may take now: QUEUE_LIMIT and what is left of MAX_MESSAGES.
    int room(const WorkerProcess *worker) const;
    QString resolveProgram(QString *why) const;
    void onAnswered(WorkerProcess *worker, Ticket ticket, const StatusLine &status, qint64 busyUsec);
    void onExited(WorkerProcess *worker, const Tickets &unanswered, const WorkerExit &exit);
    void becameIdleMaybe(WorkerProcess *worker);
    void retireWorkers();
    void reapIdle();
    void armIdleTimer();
    void enterCooldown(const QString &why);
    void requeue(const Tickets &tickets);
    void settleOne(Ticket ticket, Settlement::Outcome outcome, const QString &reason, qint64 pauseMs = 0);
    void report(RunReport::Result result, qint64 busyUsec, QList<FusedRun> fused = {}, bool heldMessage = true);

    StageConfig m_stage;
    PoolOptions m_options;
    QProcessEnvironment m_environment;
    QList<WorkerProcess *> m_workers;              // children; alive or exiting
    QHash<WorkerProcess *, QElapsedTimer> m_idleSince;
    QTimer m_idleTimer;
    QTimer m_cooldown;
    int m_startFailures = 0;
    bool m_retired = false;

    // --- read and steered by the control socket (core/snapshots.h); in workers/workersnapshots.cpp ---
public:
    // A drained pool claims nothing (spare capacity 0): its workers finish
    // what they hold and idle out. Kept across reconfigure(), that is a reload.
    void setDrained(bool drained) { m_drained = drained; }
    bool isDrained() const { return m_drained; }
    bool isRetired() const { return m_retired; }
    PoolSnapshot snapshot() const;
    // Sorted by pid.
    QList<WorkerSnapshot> workerSnapshots() const;

private:
    bool m_drained = false;
};

} // namespace pepsi
