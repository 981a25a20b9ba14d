// SPDX-License-Identifier: AGPL-3.0-or-later
#include "core/dispatcher.h"

#include "app/logging.h"
#include "app/sdnotify.h"
#include "storage/dispatcherlock.h"
#include "storage/notifylistener.h"
#include "storage/queuestore.h"
#include "workers/workerpool.h"

#include <algorithm>

namespace pepsi {

using namespace std::chrono;

Dispatcher::Dispatcher(const DispatchSettings &settings, const StageGraph &graph, QObject *parent)
    : QObject(parent)
    , m_settings(settings)
    , m_graph(graph)
{
    m_roundTimer.setSingleShot(true);
    m_roundTimer.setInterval(0);
    m_retryTimer.setSingleShot(true);
    m_heartbeat.setInterval(m_settings.pollInterval);
    connect(&m_roundTimer, &QTimer::timeout, this, &Dispatcher::runRound);
    connect(&m_retryTimer, &QTimer::timeout, this, &Dispatcher::requestRound);
    connect(&m_heartbeat, &QTimer::timeout, this, &Dispatcher::requestRound);
}

Dispatcher::~Dispatcher()
{
    // Reverse order of construction: pools (and their workers) before the
    // connections whose rows they hold.
    qDeleteAll(m_pools);
    m_pools.clear();
    m_lock.reset();
    m_listener.reset();
    m_store.reset();
}

void Dispatcher::start()
{
    const QString appName = DispatcherLock::applicationName();
    m_store = std::make_unique<QueueStore>(QStringLiteral("pepsi-queue"));
    if (!m_store->open(m_settings.database, appName))
        return fail(m_store->lastError());

    m_listener = std::make_unique<NotifyListener>(QStringLiteral("pepsi-listen"), nullptr);
    if (!m_listener->open(m_settings.database, appName))
        return fail(m_listener->lastError());
    m_lock = std::make_unique<DispatcherLock>(m_listener->connectionName());
    const auto locked = m_lock->tryAcquire();
    if (!locked)
        return fail(m_lock->lastError());
    if (!*locked) {
        const QString holder = m_lock->describeHolder();
        return fail(QStringLiteral("another dispatcher is already running on this database: %1")
                        .arg(holder.isEmpty() ? QStringLiteral("(holder not visible)") : holder));
    }
    if (!m_listener->subscribe())
        return fail(m_listener->lastError());
    connect(m_listener.get(), &NotifyListener::notified, this, &Dispatcher::onNotified);

    // Only the lock holder may do this: the rows can only be ours or orphans.
    const auto orphans = m_store->resetOrphans();
    if (!orphans)
        return fail(m_store->lastError());
    if (*orphans > 0)
        qCInfo(lcMain) << "reset" << *orphans << "running rows left by a previous dispatcher to pending";

    buildPools();
    m_running = true;
    m_heartbeat.start();
    qCInfo(lcMain).noquote() << "listening; stages:"
                             << (m_graph.names().isEmpty() ? QStringLiteral("(none)") : m_graph.names().join(u' '));
    sdNotify("READY=1");
    requestRound();
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
    if (m_pending.isEmpty())
        return;
    const auto changed = m_store->settle(m_pending);
    if (!changed) {
        qCWarning(lcStore).noquote() << m_store->lastError() << "; keeping" << m_pending.size()
                                     << "outcomes to write later";
        return;
    }
    qCDebug(lcStore) << "settled" << *changed << "of" << m_pending.size() << "messages";
    m_pending.clear();
}

void Dispatcher::runRound()
{
    if (!m_running)
        return;
    flushSettlements();
    if (m_stopping)
        return;

    QList<StageDemand> demands;
    for (WorkerPool *pool : std::as_const(m_pools)) {
        if (const int spare = pool->spareCapacity(); spare > 0)
            demands.append({pool->stage().name, spare});
    }
    const auto round = m_store->claimRound(demands);
    if (!round) {
        qCWarning(lcClaim).noquote() << m_store->lastError();
        return;
    }
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
    if (m_store && m_store->isOpen())
        flushSettlements();
    if (!m_pending.isEmpty())
        qCWarning(lcMain) << m_pending.size()
                          << "messages stay running; the next dispatcher resets them to pending at start";
    m_running = false;
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
