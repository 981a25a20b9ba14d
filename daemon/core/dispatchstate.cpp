// SPDX-License-Identifier: AGPL-3.0-or-later
#include "core/dispatchstate.h"

#include "control/failurecodec.h"
#include "control/reloadcodec.h"
#include "core/dispatcher.h"
#include "model/dispatchboard.h"
#include "storage/dispatcherlock.h"
#include "storage/operatorthread.h"
#include "workers/workerpool.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QSysInfo>
#include <algorithm>
#include <pwd.h>
#include <unistd.h>

namespace pepsi {
namespace event = protocol::event;
namespace field = protocol::field;

namespace {

constexpr std::chrono::milliseconds Rate10s{10000};
constexpr std::chrono::milliseconds Rate60s{60000};

QString accountName()
{
    const passwd *account = ::getpwuid(::geteuid());
    return account ? QString::fromLocal8Bit(account->pw_name) : QString::number(::geteuid());
}

QJsonValue idOrNull(qint64 id) { return id > 0 ? QJsonValue(double(id)) : QJsonValue(QJsonValue::Null); }

} // namespace

DispatchState::DispatchState(Dispatcher &dispatcher)
    : DispatchPort(&dispatcher)
    , m_d(dispatcher)
    , m_startedAt(QDateTime::currentDateTimeUtc())
    , m_account(accountName())
    , m_operator(std::make_unique<OperatorThread>(m_d.settings().database, DispatcherLock::applicationName(),
                                                  SessionLimits::of(m_d.settings())))
{
    // Every change goes through Dispatcher::setLifecycle: relayed as it happens.
    connect(&m_d, &Dispatcher::lifecycleChanged, this, [this](Lifecycle state) {
        // A stop has begun: operator jobs not yet run are refused, not run.
        if (state == Lifecycle::Stopping || state == Lifecycle::Stopped)
            m_operator->stop();
        // The overlay applied at start may change the timeouts.
        m_operator->configure(m_d.settings().database, SessionLimits::of(m_d.settings()));
        publishPicture();
        Q_EMIT lifecycleChanged(state);
    });
    m_publishSoon.setSingleShot(true);
    m_publishSoon.setInterval(PublishDelayMs);
    connect(&m_publishSoon, &QTimer::timeout, this, &DispatchState::publishPicture);
    watchFailures();
}

void DispatchState::watchFailures()
{
    connect(
        &m_failures, &FailureWatch::messagesFailed, this,
        [this](const QString &stage, qint64 count, const QString &reason) {
            emitPoolEvent(QString(event::MessageFailed), protocol::toJson(MessageFailedEvent{stage, count, reason}));
        });
    connect(&m_failures, &FailureWatch::stageFailing, this, [this](const QString &stage, double share) {
        emitPoolEvent(QString(event::StageFailing), protocol::toJson(StageFailureEvent{stage, share}));
    });
    connect(&m_failures, &FailureWatch::stageRecovered, this, [this](const QString &stage, double share) {
        emitPoolEvent(QString(event::StageRecovered), protocol::toJson(StageFailureEvent{stage, share}));
    });
}

void DispatchState::publishTo(DispatchBoard *board)
{
    m_board = board;
    m_operator->publishCountsTo(board);
    if (!m_board)
        return;
    m_board->setPublishRequest(
        [this] { QMetaObject::invokeMethod(this, &DispatchState::publishPicture, Qt::QueuedConnection); });
    publishPicture();
}

void DispatchState::publishPicture()
{
    m_publishSoon.stop();
    m_boardStale = false;
    if (m_board)
        m_board->publish(picture());
}

void DispatchState::markChanged()
{
    if (!m_board || m_publishSoon.isActive())
        return;
    if (m_board->isWatched())
        m_publishSoon.start();
    else
        markStale();
}

void DispatchState::markStale()
{
    if (m_boardStale)
        return;
    m_board->invalidate();
    m_boardStale = true;
}

DispatchState::~DispatchState()
{
    if (m_board)
        m_board->setPublishRequest({});
}

OperatorQueries &DispatchState::operatorQueries() { return *m_operator; }

void DispatchState::databaseUp(bool first)
{
    m_databaseError.clear();
    if (!first) {
        m_operator->reconnect();
        emitEvent(QString(event::DatabaseRestored),
                  {{field::AfterMs, double(m_downSince.isValid() ? m_downSince.elapsed() : 0)}});
    }
    // The operator thread asks the board whether the database is up before it
    // counts: a status in the first moments must not hear "unreachable".
    publishPicture();
}

void DispatchState::databaseDown(const QString &reason)
{
    m_databaseError = reason;
    m_downSince.start();
    m_operator->forgetCounts();
    emitEvent(QString(event::DatabaseLost), {{field::Reason, reason}});
}

void DispatchState::watchPool(WorkerPool *pool)
{
    const QString stage = pool->stage().name;
    connect(pool, &WorkerPool::runEnded, this, &DispatchState::markChanged);
    connect(pool, &WorkerPool::runEnded, &m_failures, &FailureWatch::record);
    connect(pool, &WorkerPool::workerStarted, this, [this, stage](qint64 pid) {
        emitPoolEvent(QString(event::WorkerStarted), {{field::Pid, double(pid)}, {field::Stage, stage}});
    });
    connect(pool, &WorkerPool::workerExited, this, [this, stage](qint64 pid, const QString &reason, qint64 messages) {
        emitPoolEvent(QString(event::WorkerExited),
                      {{field::Pid, double(pid)},
                       {field::Stage, stage},
                       {field::Reason, reason},
                       {field::Messages, double(messages)}});
    });
    connect(pool, &WorkerPool::workerCrashed, this,
            [this, stage](qint64 pid, const QString &cause, qint64 messageId, int requeued) {
                emitPoolEvent(QString(event::WorkerCrashed),
                              {{field::Pid, double(pid)},
                               {field::Stage, stage},
                               {field::Cause, cause},
                               {field::MessageId, idOrNull(messageId)},
                               {field::Requeued, requeued}});
            });
    connect(pool, &WorkerPool::workerKilled, this,
            [this, stage](qint64 pid, const QString &reason, qint64 messageId, const QString &detail) {
                emitPoolEvent(QString(event::WorkerKilled),
                              {{field::Pid, double(pid)},
                               {field::Stage, stage},
                               {field::Reason, reason},
                               {field::MessageId, idOrNull(messageId)},
                               {field::Detail, detail}});
            });
    connect(pool, &WorkerPool::startFailed, this, [this, stage](const QString &cause, const QString &lastStderrLine) {
        emitPoolEvent(
            QString(event::StartFailed),
            {{field::Stage, stage},
             {field::Cause, cause},
             {field::Stderr, lastStderrLine.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(lastStderrLine)}});
    });
    connect(pool, &WorkerPool::cooldownEntered, this, [this, stage](const QDateTime &until, const QString &reason) {
        m_cooldownReason.insert(stage, reason);
        emitPoolEvent(QString(event::CooldownEntered),
                      {{field::Stage, stage},
                       {field::Until, until.toUTC().toString(Qt::ISODateWithMs)},
                       {field::Reason, reason}});
    });
    connect(pool, &WorkerPool::cooldownLeft, this, [this, stage] {
        emitPoolEvent(QString(event::CooldownLeft), {{field::Stage, stage}});
    });
}

void DispatchState::reloaded(const ReloadSnapshot &reload)
{
    emitEvent(QString(event::Reload), protocol::toJson(reload));
}

QString DispatchState::configChanged()
{
    if (m_setsUnheard > 0) {
        --m_setsUnheard;
        return QString(protocol::value::Set);
    }
    return QString(protocol::value::Notify);
}

Lifecycle DispatchState::lifecycle() const { return m_d.lifecycle(); }

void DispatchState::emitEvent(const QString &name, QJsonObject fields)
{
    publishPicture();
    Q_EMIT happened(DispatchEvent{name, std::move(fields)});
}

void DispatchState::emitPoolEvent(const QString &name, QJsonObject fields)
{
    // A picture is a walk over every worker: drawn for each of a large
    // pool's start-up events, the start would cost the square of its size.
    if (m_board) {
        markStale();
        markChanged();
    }
    Q_EMIT happened(DispatchEvent{name, std::move(fields)});
}

DaemonInfo DispatchState::info() const
{
    DaemonInfo info;
    info.version = QCoreApplication::applicationVersion();
    info.pid = QCoreApplication::applicationPid();
    info.startedAt = m_startedAt;
    info.host = QSysInfo::machineHostName();
    info.database = m_d.databaseName();
    // Looked up once: getpwuid() reads the password database, and a picture
    // is published up to 20 times a second while messages flow.
    info.user = m_account;
    info.standby = m_d.isStandby();
    info.lifecycle = lifecycle();
    info.databaseError = m_databaseError;
    return info;
}

QList<PoolSnapshot> DispatchState::pools() const
{
    QList<PoolSnapshot> snapshots;
    for (const WorkerPool *pool : m_d.pools()) {
        PoolSnapshot snapshot = pool->snapshot();
        if (snapshot.cooldownUntil)
            snapshot.cooldownReason = m_cooldownReason.value(snapshot.stage);
        snapshots.append(snapshot);
    }
    return snapshots;
}

QList<WorkerSnapshot> DispatchState::workers() const
{
    QList<WorkerSnapshot> workers;
    for (const WorkerPool *pool : m_d.pools())
        workers += pool->workerSnapshots();
    std::stable_sort(workers.begin(), workers.end(),
                     [](const WorkerSnapshot &a, const WorkerSnapshot &b) { return a.stage < b.stage; });
    return workers;
}

StatsSnapshot DispatchState::stats() const
{
    const StatsDelta &totals = m_d.statsTotals();
    StatsSnapshot stats;
    stats.since = m_startedAt;
    stats.claimed = m_d.claimedTotal();
    stats.rounds = m_d.rounds();
    stats.stageRuns = totals.stageRuns;
    stats.messages = totals.messages;

    stats.rate10s = m_d.runRate(Rate10s);
    stats.rate60s = m_d.runRate(Rate60s);
    for (auto it = totals.stages.cbegin(); it != totals.stages.cend(); ++it) {
        const QString &stage = it.key();
        const StageCounters &counters = it.value();
        StageStatsSnapshot snapshot{counters.runs,
                                    counters.failures,
                                    counters.timeouts,
                                    counters.crashes,
                                    counters.busyUsec,
                                    m_d.stageRunRate(stage, Rate10s),
                                    m_d.stageRunRate(stage, Rate60s),
                                    m_d.failedInARow(stage)};
        snapshot.failureShare = m_failures.failureShare(stage);
        snapshot.failing = m_failures.isFailing(stage);
        stats.stages.insert(stage, snapshot);
    }
    return stats;
}

DispatchPicture DispatchState::picture() const
{
    return DispatchPicture{info(),    m_d.graph(), m_d.settings(),     pools(),
                           workers(), stats(),     m_d.isDatabaseUp(), m_d.isServing()};
}

} // namespace pepsi
