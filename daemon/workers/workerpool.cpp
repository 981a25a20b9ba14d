// SPDX-License-Identifier: AGPL-3.0-or-later
#include "workers/workerpool.h"

#include "config/relativetime.h"
#include "model/logcategories.h"
#include "workers/cooldown.h"

#include <QDateTime>
#include <QFileInfo>
#include <QStandardPaths>
#include <algorithm>

namespace pepsi {

using namespace std::chrono;

WorkerPool::WorkerPool(const StageConfig &stage, const PoolOptions &options, QObject *parent)
    : QObject(parent)
    , m_stage(stage)
    , m_options(options)
    , m_environment(QProcessEnvironment::systemEnvironment())
    , m_idle(options.idleTimeout, this)
{
    m_environment.insert(QStringLiteral("PEPSI_STAGE"), stage.name);
    // systemd's notification socket and watchdog are the daemon's, not its workers'.
    for (const char *name : {"NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"})
        m_environment.remove(QString::fromLatin1(name));
    m_cooldown.setSingleShot(true);
    connect(&m_idle, &IdleReaper::expired, this, [this](QObject *idle) {
        auto *worker = static_cast<WorkerProcess *>(idle);
        if (worker->outstanding() > 0)
            return;
        qCDebug(lcPool).noquote() << "stage" << m_stage.name << "pid" << worker->pid() << "idle; stopping it";
        worker->retire();
        stopWorker(worker, QStringLiteral("idle"));
    });
    connect(&m_cooldown, &QTimer::timeout, this, [this] {
        qCDebug(lcPool).noquote() << "stage" << m_stage.name << "cooldown over";
        Q_EMIT cooldownLeft();
        Q_EMIT capacityFreed();
    });
}

int WorkerPool::spareCapacity() const
{
    if (m_retired || inCooldown() || m_drained)
        return 0;
    const int perNewWorker = std::min(m_stage.queueLimit, m_stage.maxMessages);
    int spare = (m_stage.parallelism - int(m_workers.size())) * perNewWorker;
    for (const WorkerProcess *worker : m_workers)
        spare += room(worker);
    return std::max(spare, 0);
}

int WorkerPool::room(const WorkerProcess *worker) const
{
    if (!worker->accepting())
        return 0;
    // A worker near MAX_MESSAGES gets only what it may still run: ids handed
    // over beyond that would make it run more than MAX_MESSAGES before it recycles.
    const qint64 budget = m_stage.maxMessages - worker->answeredCount() - worker->outstanding();
    return int(std::clamp<qint64>(std::min<qint64>(m_stage.queueLimit - worker->outstanding(), budget), 0,
                                  m_stage.queueLimit));
}

int WorkerPool::inFlight() const
{
    int total = 0;
    for (const WorkerProcess *worker : m_workers)
        total += worker->outstanding();
    return total;
}

QList<qint64> WorkerPool::heldIds() const
{
    QList<qint64> ids;
    for (const WorkerProcess *worker : m_workers) {
        for (const Ticket &ticket : worker->inFlight())
            ids.append(ticket.id);
    }
    return ids;
}

Tickets WorkerPool::assign(const Tickets &tickets)
{
    if (m_retired)
        return tickets;
    qsizetype next = 0;
    const auto handOut = [&](WorkerProcess *worker) {
        const qsizetype count = std::min<qsizetype>(room(worker), tickets.size() - next);
        if (count <= 0)
            return;
        worker->send(tickets.mid(next, count));
        m_idle.forget(worker);
        next += count;
    };

    // Pack: fill the busiest accepting workers first, so surplus ones idle out.
    QList<WorkerProcess *> candidates;
    for (WorkerProcess *worker : std::as_const(m_workers)) {
        if (room(worker) > 0)
            candidates.append(worker);
    }
    std::stable_sort(candidates.begin(), candidates.end(), [](const WorkerProcess *a, const WorkerProcess *b) {
        return a->outstanding() > b->outstanding();
    });
    for (WorkerProcess *worker : std::as_const(candidates)) {
        if (next == tickets.size())
            break;
        handOut(worker);
    }
    while (next < tickets.size() && m_workers.size() < m_stage.parallelism && !inCooldown()) {
        WorkerProcess *worker = spawn();
        if (!worker)
            break;
        handOut(worker);
    }
    return tickets.mid(next);
}

QString WorkerPool::resolveProgram(QString *why) const
{
    const QString &program = m_stage.program;
    if (QFileInfo(program).isAbsolute()) {
        const QFileInfo info(program);
        if (info.isFile() && info.isExecutable())
            return program;
        *why =
            QStringLiteral("PROGRAM \"%1\" %2")
                .arg(program, info.exists() ? QStringLiteral("is not executable") : QStringLiteral("does not exist"));
        return {};
    }
    QString found = QStandardPaths::findExecutable(program);
    if (found.isEmpty())
        *why = QStringLiteral("PROGRAM \"%1\" is not found on PATH").arg(program);
    return found;
}

WorkerProcess *WorkerPool::spawn()
{
    QString why;
    const QString program = resolveProgram(&why);
    if (program.isEmpty()) {
        Q_EMIT startFailed(why, QString());
        enterCooldown(why);
        return nullptr;
    }
    WorkerLaunch launch;
    launch.stage = m_stage.name;
    launch.program = program;
    if (!m_options.configFile.isEmpty())
        launch.arguments << QStringLiteral("-c") << m_options.configFile;
    launch.arguments << QStringLiteral("worker");
    launch.environment = m_environment;
    launch.maxRuntime = m_options.maxRuntime;
    launch.terminateGrace = m_options.killGrace;
    launch.startTimeout = m_options.startTimeout;

    auto *worker = new WorkerProcess(launch, this);
    connect(worker, &WorkerProcess::answered, this, &WorkerPool::onAnswered);
    connect(worker, &WorkerProcess::exited, this, &WorkerPool::onExited);
    connect(worker, &WorkerProcess::started, this, [this](WorkerProcess *w) { Q_EMIT workerStarted(w->pid()); });
    connect(worker, &WorkerProcess::timedOut, this, [this](WorkerProcess *w, Ticket ticket) {
        const QString reason = QStringLiteral("timeout after %1").arg(formatRelativeTime(m_options.maxRuntime));
        qCWarning(lcPool).noquote() << "stage" << m_stage.name << "pid" << w->pid() << "message" << ticket.id
                                    << "timed out after" << formatRelativeTime(m_options.maxRuntime)
                                    << "; terminating the worker";
        settleOne(ticket, Settlement::Outcome::Timeout, reason);
        report(RunReport::Result::TimedOut, duration_cast<microseconds>(m_options.maxRuntime).count(), {}, true,
               reason);
        Q_EMIT workerKilled(w->pid(), QStringLiteral("timeout"), ticket.id, reason);
    });
    connect(worker, &WorkerProcess::protocolViolation, this,
            [this](WorkerProcess *w, Ticket ticket, const QString &reason) {
                qCWarning(lcPool).noquote() << "stage" << m_stage.name << "pid" << w->pid() << "message" << ticket.id
                                            << reason << "; replacing the worker";
                if (ticket.id != 0) {
                    settleOne(ticket, Settlement::Outcome::Fail, reason);
                    report(RunReport::Result::Failed, 0, {}, true, reason);
                }
                Q_EMIT workerKilled(w->pid(), QStringLiteral("protocol error"), ticket.id != 0 ? ticket.id : -1,
                                    reason);
            });
    m_workers.append(worker);
    worker->start();
    return worker;
}

void WorkerPool::onAnswered(WorkerProcess *worker, Ticket ticket, const StatusLine &status, qint64 busyUsec)
{
    if (status.code == 0) {
        if (m_startFailures > 0) {
            qCInfo(lcPool).noquote() << "stage" << m_stage.name << "workers run again";
            m_startFailures = 0;
        }
        Q_EMIT advanced(ticket.id, status.fused);
        report(RunReport::Result::Succeeded, busyUsec, status.fused);
    } else if (status.code == StatusLine::TryLater) {
        settleOne(ticket, Settlement::Outcome::Pause, QStringLiteral("status 75: ") + status.reason,
                  m_options.tempfailDelay.count());
        report(RunReport::Result::TriedLater, busyUsec);
    } else {
        const QString reason = QStringLiteral("status %1: %2").arg(status.code).arg(status.reason);
        settleOne(ticket, Settlement::Outcome::Fail, reason);
        report(RunReport::Result::Failed, busyUsec, {}, true, reason);
    }
    if (!worker->isRetiring() && worker->answeredCount() >= m_stage.maxMessages) {
        qCDebug(lcPool).noquote() << "stage" << m_stage.name << "pid" << worker->pid() << "recycles after"
                                  << worker->answeredCount() << "messages";
        worker->retire();
        m_stopReasons.insert(worker, QStringLiteral("recycled"));
    }
    becameIdleMaybe(worker);
    Q_EMIT capacityFreed();
}

void WorkerPool::becameIdleMaybe(WorkerProcess *worker)
{
    if (worker->outstanding() > 0 || worker->state() != WorkerProcess::State::Running)
        return;
    if (worker->isRetiring()) {
        stopWorker(worker, m_stopReasons.value(worker, QStringLiteral("retired")));
        return;
    }
    m_idle.markIdle(worker);
}

void WorkerPool::onExited(WorkerProcess *worker, const Tickets &unanswered, const WorkerExit &exit)
{
    m_workers.removeOne(worker);
    m_idle.forget(worker);
    const QString stopReason = m_stopReasons.take(worker);
    worker->deleteLater();
    const qint64 pid = worker->pid();
    switch (exit.kind) {
    case WorkerExit::Kind::Clean:
        Q_EMIT workerExited(pid, stopReason.isEmpty() ? QStringLiteral("clean") : stopReason, worker->answeredCount());
        break;
    case WorkerExit::Kind::Stopped:
        requeue(unanswered);
        if (!worker->isCondemned())
            Q_EMIT workerExited(pid, stopReason.isEmpty() ? QStringLiteral("stopped") : stopReason,
                                worker->answeredCount());
        break;
    case WorkerExit::Kind::FailedToStart: {
        // Its ids never ran: they go back, and no message fails for a stage
        // that cannot start. The stage waits; the cooldown grows while it lasts.
        requeue(unanswered);
        QString why = exit.cause;
        if (!exit.lastStderrLine.isEmpty())
            why += QStringLiteral("; last stderr line: \"%1\"").arg(exit.lastStderrLine);
        Q_EMIT startFailed(exit.cause, exit.lastStderrLine);
        enterCooldown(why);
        break;
    }
    case WorkerExit::Kind::Died:
        report(RunReport::Result::Crashed, 0, {}, !unanswered.isEmpty(), unanswered.isEmpty() ? QString() : exit.cause);
        if (!unanswered.isEmpty()) {
            qCWarning(lcPool).noquote() << "stage" << m_stage.name << "pid" << pid << exit.cause << "holding message"
                                        << unanswered.first().id;
            settleOne(unanswered.first(), Settlement::Outcome::Fail, exit.cause);
            requeue(unanswered.mid(1));
        } else {
            qCWarning(lcPool).noquote() << "stage" << m_stage.name << "pid" << pid << exit.cause;
        }
        Q_EMIT workerCrashed(pid, exit.cause, unanswered.isEmpty() ? -1 : unanswered.first().id,
                             std::max<int>(0, int(unanswered.size()) - 1));
        // Dying before the first answer means trouble with the program or its
        // environment rather than with one message: do not respawn at full speed.
        if (!worker->hasAnswered())
            enterCooldown(exit.cause);
        break;
    }
    if (m_retired && m_workers.isEmpty())
        Q_EMIT drained();
    else
        Q_EMIT capacityFreed();
}

void WorkerPool::stopWorker(WorkerProcess *worker, const QString &reason)
{
    m_stopReasons.insert(worker, reason);
    worker->closeInput(m_options.stopGrace);
}

void WorkerPool::enterCooldown(const QString &why)
{
    ++m_startFailures;
    const milliseconds delay = cooldownDelay(m_startFailures);
    if (m_startFailures == 1)
        qCWarning(lcPool).noquote() << "stage" << m_stage.name << "cannot run workers:" << why
                                    << "; holding the stage off for" << formatRelativeTime(delay);
    else
        qCDebug(lcPool).noquote() << "stage" << m_stage.name << "still cannot run workers:" << why
                                  << "; holding off for" << formatRelativeTime(delay);
    m_cooldown.start(delay);
    Q_EMIT cooldownEntered(QDateTime::currentDateTimeUtc().addMSecs(delay.count()), why);
}

void WorkerPool::requeue(const Tickets &tickets)
{
    for (const Ticket &ticket : tickets)
        settleOne(ticket, Settlement::Outcome::Requeue, {});
}

void WorkerPool::settleOne(Ticket ticket, Settlement::Outcome outcome, const QString &reason, qint64 pauseMs)
{
    Q_EMIT settle(Settlement{ticket, outcome, reason, pauseMs});
}

void WorkerPool::report(RunReport::Result result, qint64 busyUsec, QList<FusedRun> fused, bool heldMessage,
                        const QString &reason)
{
    Q_EMIT runEnded(RunReport{m_stage.name, result, heldMessage, busyUsec, std::move(fused), reason});
}

void WorkerPool::retireWorkers()
{
    m_idle.clear();
    const QString reason = QStringLiteral("retired");
    for (WorkerProcess *worker : std::as_const(m_workers)) {
        worker->retire();
        m_stopReasons.insert(worker, reason);
        if (worker->outstanding() == 0)
            worker->closeInput(m_options.stopGrace);
    }
}

void WorkerPool::reconfigure(const StageConfig &stage)
{
    m_stage = stage;
    m_startFailures = 0;
    if (m_cooldown.isActive()) {
        m_cooldown.stop();
        Q_EMIT cooldownLeft();
    }
    retireWorkers();
}

void WorkerPool::retire()
{
    m_retired = true;
    retireWorkers();
    if (m_workers.isEmpty())
        Q_EMIT drained();
}

void WorkerPool::shutdown()
{
    retire();
    // Workers finish what they hold within the grace; after it they are
    // terminated and what they still hold goes back to pending.
    for (WorkerProcess *worker : std::as_const(m_workers))
        stopWorker(worker, QStringLiteral("stopped"));
}

// The control socket's copies (model/snapshots.h) only read the policy above.
PoolSnapshot WorkerPool::snapshot() const
{
    PoolSnapshot snapshot;
    snapshot.stage = m_stage.name;
    for (const WorkerProcess *worker : m_workers) {
        ++snapshot.workers;
        if (worker->state() == WorkerProcess::State::Starting)
            ++snapshot.starting;
        else if (worker->isRetiring() || worker->state() != WorkerProcess::State::Running)
            ++snapshot.retiring;
        else if (worker->outstanding() > 0)
            ++snapshot.busy;
        else
            ++snapshot.idle;
    }
    snapshot.parallelism = m_stage.parallelism;
    snapshot.queueLimit = m_stage.queueLimit;
    snapshot.inFlight = inFlight();
    snapshot.drained = m_drained;
    snapshot.retired = m_retired;
    if (inCooldown())
        snapshot.cooldownUntil = QDateTime::currentDateTimeUtc().addMSecs(std::max(0, m_cooldown.remainingTime()));
    snapshot.capacity = m_retired || m_drained || inCooldown() ? 0 : m_stage.capacity();
    return snapshot;
}

QList<WorkerSnapshot> WorkerPool::workerSnapshots() const
{
    QList<WorkerSnapshot> snapshots;
    for (const WorkerProcess *worker : m_workers)
        snapshots.append(worker->snapshot(m_options.maxRuntime.count()));
    std::sort(snapshots.begin(), snapshots.end(),
              [](const WorkerSnapshot &a, const WorkerSnapshot &b) { return a.pid < b.pid; });
    return snapshots;
}

} // namespace pepsi
