// SPDX-License-Identifier: AGPL-3.0-or-later
#include "core/dispatcher.h"

#include "app/logging.h"
#include "app/sdnotify.h"
#include "core/dispatchstate.h"
#include "core/pipelineconfig.h"
#include "storage/databasesession.h"
#include "storage/notifylistener.h"
#include "workers/workerpool.h"

#include <algorithm>

namespace pepsi {

using namespace std::chrono;

namespace {
constexpr milliseconds IdleStatsFlushSpacing = 1s;
}

Dispatcher::Dispatcher(const Configuration &file, const DispatchSettings &settings, bool standby, QObject *parent)
    : QObject(parent)
    , m_file(file)
    , m_fileSettings(settings)
    , m_settings(settings)
    , m_standby(standby)
{
    m_roundTimer.setSingleShot(true);
    m_roundTimer.setInterval(0);
    m_retryTimer.setSingleShot(true);
    m_idleStatsTimer.setSingleShot(true);
    connect(&m_roundTimer, &QTimer::timeout, this, &Dispatcher::runRound);
    connect(&m_retryTimer, &QTimer::timeout, this, &Dispatcher::requestRound);
    connect(&m_heartbeat, &QTimer::timeout, this, [this] {
        if (m_session)
            m_session->checkAlive();
        requestRound();
    });
    connect(&m_statsTimer, &QTimer::timeout, this, &Dispatcher::flushStatistics);
    connect(&m_idleStatsTimer, &QTimer::timeout, this, &Dispatcher::flushStatisticsWhenIdle);
    m_lastStatsFlush.start();
    m_state = new DispatchState(*this);
}

Dispatcher::~Dispatcher()
{
    // Reverse order of construction: pools (and their workers) before the
    // session whose rows they hold.
    qDeleteAll(m_pools);
    m_pools.clear();
    qDeleteAll(m_retiredPools);
    m_retiredPools.clear();
    m_session.reset();
}

void Dispatcher::start()
{
    m_session = std::make_unique<DatabaseSession>(m_settings.database, m_standby, nullptr);
    m_state->attachSession(m_session.get());
    connect(m_session.get(), &DatabaseSession::up, this, &Dispatcher::onDatabaseUp);
    connect(m_session.get(), &DatabaseSession::lockedOut, this, &Dispatcher::onLockedOut);
    connect(m_session.get(), &DatabaseSession::notified, this, &Dispatcher::onNotified);
    m_heartbeat.setInterval(m_settings.pollInterval);
    m_heartbeat.start();
    m_session->open();
}

void Dispatcher::onDatabaseUp()
{
    if (m_stopping)
        return;
    if (!m_running) {
        const auto overlay = m_session->overlay().read();
        if (!overlay)
            return m_session->statementFailed(m_session->overlay().lastError());
        const auto pipeline = PipelineConfig::atStart(m_file, *overlay, m_fileSettings);
        if (!pipeline)
            return fail(78, QStringLiteral("bad configuration: ") + pipeline.error().toString());
        for (const QString &option : pipeline->ignored)
            qCWarning(lcMain).noquote() << "config_overlay: [pepsi-dispatch]" << option
                                        << "cannot change once the dispatcher runs; ignored";
        m_settings = pipeline->settings;

        // Only the lock holder may do this: every running row is an orphan.
        const auto orphans = m_session->store().resetOrphans();
        if (!orphans)
            return m_session->statementFailed(m_session->store().lastError());
        if (*orphans > 0)
            qCInfo(lcMain) << "reset" << *orphans << "running rows left by a previous dispatcher to pending";

        m_heartbeat.setInterval(m_settings.pollInterval);
        m_statsTimer.start(m_settings.statsInterval);
        applyGraph(pipeline->graph);
        m_running = true;
        qCInfo(lcMain).noquote() << "listening; stages:"
                                 << (m_graph.names().isEmpty() ? QStringLiteral("(none)") : m_graph.names().join(u' '));
        sdNotify("READY=1");
    } else {
        // A claim that committed just as the connection broke left rows
        // running that no worker of ours holds; nobody else would free them.
        QList<qint64> held;
        for (const WorkerPool *pool : std::as_const(m_pools))
            held += pool->heldIds();
        for (const WorkerPool *pool : std::as_const(m_retiredPools))
            held += pool->heldIds();
        for (const Settlement &settlement : std::as_const(m_pending))
            held.append(settlement.ticket.id);
        const auto orphans = m_session->store().resetOrphansExcept(held);
        if (!orphans)
            return m_session->statementFailed(m_session->store().lastError());
        if (*orphans > 0)
            qCInfo(lcMain) << "reset" << *orphans << "running rows no worker holds (claimed as the connection broke)";
        if (m_reloadPending)
            reload();
    }
    // Catch up: notifications sent while away are lost, and outcomes wait to be written.
    requestRound();
}

void Dispatcher::onLockedOut(const QString &holder)
{
    if (m_running) {
        // The other dispatcher has reset our rows; our workers must not run them twice.
        fail(1, QStringLiteral("another dispatcher took over while the database was unreachable: %1; "
                               "stopping this one and its workers").arg(holder));
        qDeleteAll(m_pools);
        m_pools.clear();
        m_pending.clear();
        return;
    }
    fail(1, QStringLiteral("another dispatcher is already running on this database: %1 "
                           "(use serve --standby to wait for it)").arg(holder));
}

WorkerPool *Dispatcher::createPool(const StageConfig &stage)
{
    PoolOptions options;
    options.configFile = m_settings.configFile;
    options.maxRuntime = m_settings.maxRuntime;
    options.idleTimeout = m_settings.workerIdleTimeout;
    options.tempfailDelay = m_settings.tempfailDelay;
    auto *pool = new WorkerPool(stage, options, this);
    m_state->watchPool(pool);
    connect(pool, &WorkerPool::capacityFreed, this, &Dispatcher::requestRound);
    connect(pool, &WorkerPool::settle, this, &Dispatcher::onSettle);
    connect(pool, &WorkerPool::runEnded, this, [this](const RunReport &report) { m_stats.record(report); });
    connect(pool, &WorkerPool::drained, this, [this, pool] { onPoolDrained(pool); });
    return pool;
}

void Dispatcher::applyGraph(const StageGraph &graph)
{
    for (auto it = m_pools.begin(); it != m_pools.end();) {
        if (const StageConfig *stage = graph.stage(it.key())) {
            (*it)->reconfigure(*stage);
            ++it;
            continue;
        }
        qCInfo(lcMain).noquote() << "stage" << it.key()
                                 << "is gone from the pipeline; its pending messages stay where they are";
        WorkerPool *pool = *it;
        it = m_pools.erase(it);
        m_retiredPools.append(pool);
        pool->retire();
    }
    for (const StageConfig &stage : graph.stages()) {
        if (!m_pools.contains(stage.name))
            m_pools.insert(stage.name, createPool(stage));
    }
    m_graph = graph;
    m_stats.setGraph(graph);
}

void Dispatcher::reload()
{
    if (!m_session->isUp()) {
        m_reloadPending = true;
        return;
    }
    const auto overlay = m_session->overlay().read();
    if (!overlay) {
        m_reloadPending = true;
        return m_session->statementFailed(m_session->overlay().lastError());
    }
    m_reloadPending = false;
    const auto pipeline = PipelineConfig::onReload(m_file, *overlay, m_settings);
    if (!pipeline) {
        // Routing by a graph the workers no longer share would be worse than stopping.
        qCCritical(lcMain).noquote() << "reloaded configuration does not parse:" << pipeline.error().toString()
                                     << "; stopping";
        return shutdown(1);
    }
    for (const QString &option : pipeline->ignored)
        qCWarning(lcMain).noquote() << "config_overlay: [pepsi-dispatch]" << option
                                    << "is read only at start; ignored until a restart";
    qCInfo(lcMain).noquote() << "pipeline reloaded; stages:" << pipeline->graph.names().join(u' ')
                             << "; retiring every worker";
    applyGraph(pipeline->graph);
    m_state->reloaded();
    requestRound();
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
    else if (channel == NotifyListener::ConfigChannel && m_running && !m_stopping)
        reload();
}

void Dispatcher::onSettle(const Settlement &settlement)
{
    m_pending.append(settlement);
    requestRound();
}

void Dispatcher::flushSettlements()
{
    if (m_pending.isEmpty() || !m_session || !m_session->isUp())
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

void Dispatcher::flushStatistics()
{
    if (!m_stats.hasDelta() || !m_session || !m_session->isUp())
        return;
    const StatsDelta delta = m_stats.takeDelta();
    m_lastStatsFlush.start();
    if (!m_session->stats().add(delta)) {
        m_stats.giveBack(delta);
        m_session->statementFailed(m_session->stats().lastError());
    }
}

void Dispatcher::flushStatisticsWhenIdle()
{
    if (inFlight() > 0 || !m_stats.hasDelta())
        return;
    const milliseconds since(m_lastStatsFlush.elapsed());
    if (since >= IdleStatsFlushSpacing)
        flushStatistics();
    else if (!m_idleStatsTimer.isActive())
        m_idleStatsTimer.start(IdleStatsFlushSpacing - since);
}

int Dispatcher::inFlight() const
{
    int total = 0;
    for (const WorkerPool *pool : m_pools)
        total += pool->inFlight();
    for (const WorkerPool *pool : m_retiredPools)
        total += pool->inFlight();
    return total;
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
    bool unplacedAny = false;
    for (auto it = byStage.cbegin(); it != byStage.cend(); ++it) {
        WorkerPool *pool = m_pools.value(it.key());
        const Tickets unplaced = pool ? pool->assign(it.value()) : it.value();
        for (const Ticket &ticket : unplaced)
            m_pending.append(Settlement{ticket, Settlement::Outcome::Requeue, {}, 0});
        unplacedAny = unplacedAny || !unplaced.isEmpty();
    }
    // What no worker took (its stage just went into cooldown) goes back to
    // pending now: no round may come before the cooldown ends, and until then
    // the rows would sit `running` with nobody working on them.
    if (unplacedAny)
        flushSettlements();
    if (!round->claimed.isEmpty())
        qCDebug(lcClaim) << "round" << m_rounds << "claimed" << round->claimed.size();
    if (round->resumed > 0) {
        qCDebug(lcClaim) << "resumed" << round->resumed << "paused messages";
        requestRound();
    }
    armRetryTimer(round->nextPausedInMs);
    if (round->claimed.isEmpty())
        flushStatisticsWhenIdle();
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

void Dispatcher::shutdown(int exitCode)
{
    if (m_stopping)
        return;
    m_stopping = true;
    m_exitCode = exitCode;
    sdNotify("STOPPING=1");
    m_heartbeat.stop();
    m_retryTimer.stop();
    if (!m_running)
        return finishShutdown();
    qCInfo(lcMain) << "stopping: letting workers finish what they hold";
    for (WorkerPool *pool : std::as_const(m_pools))
        pool->shutdown();
    for (WorkerPool *pool : std::as_const(m_retiredPools))
        pool->shutdown();
    onPoolDrained(nullptr);
}

void Dispatcher::onPoolDrained(WorkerPool *pool)
{
    if (pool && m_retiredPools.contains(pool) && !m_stopping) {
        m_retiredPools.removeOne(pool);
        pool->deleteLater();
        return;
    }
    if (!m_stopping)
        return;
    for (const WorkerPool *each : std::as_const(m_pools)) {
        if (each->workerCount() > 0)
            return;
    }
    for (const WorkerPool *each : std::as_const(m_retiredPools)) {
        if (each->workerCount() > 0)
            return;
    }
    finishShutdown();
}

void Dispatcher::finishShutdown()
{
    if (m_finished)
        return;
    m_finished = true;
    flushSettlements();
    flushStatistics();
    if (!m_pending.isEmpty())
        qCWarning(lcMain) << m_pending.size()
                          << "messages stay running; the next dispatcher resets them to pending at start";
    m_running = false;
    if (m_session)
        m_session->close();
    qCInfo(lcMain) << "stopped after" << m_rounds << "claim rounds," << m_claimedTotal << "messages claimed";
    Q_EMIT finished(m_exitCode);
}

void Dispatcher::fail(int exitCode, const QString &message)
{
    qCCritical(lcMain).noquote() << message;
    m_running = false;
    m_stopping = true;
    Q_EMIT finished(exitCode);
}

} // namespace pepsi
