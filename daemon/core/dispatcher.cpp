// SPDX-License-Identifier: AGPL-3.0-or-later
#include "core/dispatcher.h"

#include "app/logging.h"
#include "app/sdnotify.h"
#include "storage/databasesession.h"
#include "workers/workerpool.h"

#include <algorithm>

namespace pepsi {

using namespace std::chrono;

Dispatcher::Dispatcher(const DispatchSettings &settings, const StageGraph &graph, bool standby, QObject *parent)
    : QObject(parent)
    , m_settings(settings)
    , m_graph(graph)
    , m_standby(standby)
{
    m_roundTimer.setSingleShot(true);
    m_roundTimer.setInterval(0);
    m_retryTimer.setSingleShot(true);
    m_heartbeat.setInterval(m_settings.pollInterval);
    connect(&m_roundTimer, &QTimer::timeout, this, &Dispatcher::runRound);
    connect(&m_retryTimer, &QTimer::timeout, this, &Dispatcher::requestRound);
    connect(&m_heartbeat, &QTimer::timeout, this, [this] {
        if (m_session)
            m_session->checkAlive();
        requestRound();
    });
}

Dispatcher::~Dispatcher()
{
    // Reverse order of construction: pools (and their workers) before the
    // connections whose rows they hold.
    qDeleteAll(m_pools);
    m_pools.clear();
    m_session.reset();
}

void Dispatcher::start()
{
    m_session = std::make_unique<DatabaseSession>(m_settings.database, m_standby, nullptr);
    connect(m_session.get(), &DatabaseSession::up, this, &Dispatcher::onDatabaseUp);
    connect(m_session.get(), &DatabaseSession::lockedOut, this, &Dispatcher::onLockedOut);
    connect(m_session.get(), &DatabaseSession::notified, this, &Dispatcher::onNotified);
    m_heartbeat.start();
    m_session->open();
}

void Dispatcher::onDatabaseUp()
{
    if (m_stopping)
        return;
    if (!m_running) {
        // Only the lock holder may do this: every running row is an orphan.
        const auto orphans = m_session->store().resetOrphans();
        if (!orphans)
            return m_session->statementFailed(m_session->store().lastError());
        if (*orphans > 0)
            qCInfo(lcMain) << "reset" << *orphans << "running rows left by a previous dispatcher to pending";
        buildPools();
        m_running = true;
        qCInfo(lcMain).noquote() << "listening; stages:"
                                 << (m_graph.names().isEmpty() ? QStringLiteral("(none)") : m_graph.names().join(u' '));
        sdNotify("READY=1");
    }
    // Catch up: notifications sent while away are lost, and outcomes wait to be written.
    requestRound();
}

void Dispatcher::onLockedOut(const QString &holder)
{
    if (m_running) {
        // The other dispatcher has reset our rows; our workers must not run them twice.
        fail(QStringLiteral("another dispatcher took over while the database was unreachable: %1; "
                            "stopping this one and its workers").arg(holder));
        qDeleteAll(m_pools);
        m_pools.clear();
        m_pending.clear();
        return;
    }
    fail(QStringLiteral("another dispatcher is already running on this database: %1 "
                        "(use serve --standby to wait for it)").arg(holder));
}

void Dispatcher::buildPools()
{
    PoolOptions options;
    options.configFile = m_settings.configFile;
    options.maxRuntime = m_settings.maxRuntime;
    options.idleTimeout = m_settings.workerIdleTimeout;
    options.tempfailDelay = m_settings.tempfailDelay;
    for (const StageConfig &stage : m_graph.stages()) {
        auto *pool = new WorkerPool(stage, options, this);
        connect(pool, &WorkerPool::capacityFreed, this, &Dispatcher::requestRound);
        connect(pool, &WorkerPool::settle, this, &Dispatcher::onSettle);
        connect(pool, &WorkerPool::drained, this, &Dispatcher::onPoolDrained);
        m_pools.insert(stage.name, pool);
    }
}

void Dispatcher::requestRound()
{
    if (!m_roundTimer.isActive())
        m_roundTimer.start();
}

void Dispatcher::onNotified(const QString &channel)
{
    if (channel == NotifyListener::WorkqueueChannel)
        requestRound();
    // config_changed: hot reload (a later change) rebuilds the pools.
}

void Dispatcher::onSettle(const Settlement &settlement)
{
    m_pending.append(settlement);
    requestRound();
}

void Dispatcher::flushSettlements()
{
    if (m_pending.isEmpty() || !m_session->isUp())
        return;
    const auto changed = m_session->store().settle(m_pending);
    if (!changed) {
        qCDebug(lcStore) << "keeping" << m_pending.size() << "outcomes to write later";
        m_session->statementFailed(m_session->store().lastError());
        return;
    }
    qCDebug(lcStore) << "settled" << *changed << "of" << m_pending.size() << "messages";
    m_pending.clear();
}

void Dispatcher::runRound()
{
    if (!m_running || !m_session->isUp())
        return;
    flushSettlements();
    if (m_stopping)
        return;

    QList<StageDemand> demands;
    for (WorkerPool *pool : std::as_const(m_pools)) {
        if (const int spare = pool->spareCapacity(); spare > 0)
            demands.append({pool->stage().name, spare});
    }
    const auto round = m_session->store().claimRound(demands);
    if (!round)
        return m_session->statementFailed(m_session->store().lastError());
    ++m_rounds;
    m_claimedTotal += round->claimed.size();

    // Group by stage, keeping id order, so every worker gets one write.
    QHash<QString, Tickets> byStage;
    for (const ClaimedMessage &message : round->claimed)
        byStage[message.stage].append(message.ticket);
    for (auto it = byStage.cbegin(); it != byStage.cend(); ++it) {
        WorkerPool *pool = m_pools.value(it.key());
        const Tickets unplaced = pool ? pool->assign(it.value()) : it.value();
        for (const Ticket &ticket : unplaced)
            m_pending.append(Settlement{ticket, it.key(), Settlement::Outcome::Requeue, {}, 0});
    }
    if (!round->claimed.isEmpty())
        qCDebug(lcClaim) << "round" << m_rounds << "claimed" << round->claimed.size();
    if (round->resumed > 0) {
        qCDebug(lcClaim) << "resumed" << round->resumed << "paused messages";
        requestRound();
    }
    armRetryTimer(round->nextPausedInMs);
}

void Dispatcher::armRetryTimer(std::optional<qint64> nextPausedInMs)
{
    if (!nextPausedInMs) {
        m_retryTimer.stop();
        return;
    }
    // The heartbeat covers anything further away than the poll interval.
    const qint64 delay = std::clamp<qint64>(*nextPausedInMs, 0, m_settings.pollInterval.count());
    m_retryTimer.start(int(delay));
}

void Dispatcher::shutdown()
{
    if (m_stopping)
        return;
    m_stopping = true;
    sdNotify("STOPPING=1");
    m_heartbeat.stop();
    m_retryTimer.stop();
    if (!m_running)
        return finishShutdown();
    qCInfo(lcMain) << "stopping: letting workers finish what they hold";
    for (WorkerPool *pool : std::as_const(m_pools))
        pool->shutdown();
    onPoolDrained();
}

void Dispatcher::onPoolDrained()
{
    if (!m_stopping)
        return;
    for (WorkerPool *pool : std::as_const(m_pools)) {
        if (pool->workerCount() > 0)
            return;
    }
    finishShutdown();
}

void Dispatcher::finishShutdown()
{
    if (m_finished)
        return;
    m_finished = true;
    if (m_session)
        flushSettlements();
    if (!m_pending.isEmpty())
        qCWarning(lcMain) << m_pending.size()
                          << "messages stay running; the next dispatcher resets them to pending at start";
    m_running = false;
    if (m_session)
        m_session->close();
    qCInfo(lcMain) << "stopped";
    Q_EMIT finished(0);
}

void Dispatcher::fail(const QString &message)
{
    qCCritical(lcMain).noquote() << message;
    m_running = false;
    Q_EMIT finished(1);
}

} // namespace pepsi
