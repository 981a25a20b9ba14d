// SPDX-License-Identifier: AGPL-3.0-or-later
// The Dispatcher's life: coming up (the session, the overlay, the pools),
// coming back after an outage, and the one way out. The rounds and what they
// write are in dispatcher.cpp, the pools and reloads in dispatcherpipeline.cpp.
#include "core/dispatcher.h"
#include "core/dispatchstate.h"

#include "model/logcategories.h"
#include "storage/databasesession.h"
#include "workers/workerpool.h"

namespace pepsi {

QString Dispatcher::lastDatabaseError() const
{
    return m_session && !m_session->isUp() ? m_session->lastError() : QString();
}

void Dispatcher::setLifecycle(Lifecycle state)
{
    if (m_lifecycle == state)
        return;
    qCDebug(lcMain).noquote() << "lifecycle:" << lifecycleName(m_lifecycle) << "->" << lifecycleName(state);
    m_lifecycle = state;
    Q_EMIT lifecycleChanged(state);
}

void Dispatcher::start()
{
    const DispatchSettings &settings = m_reloader.settings();
    m_session = std::make_unique<DatabaseSession>(settings.database, SessionLimits::of(settings), m_standby, nullptr);
    m_reloader.setOverlayStore(&m_session->overlay());
    m_settlements.setSession(m_session.get());
    m_stats.setSession(m_session.get());
    connect(m_session.get(), &DatabaseSession::up, this, &Dispatcher::onDatabaseUp);
    connect(m_session.get(), &DatabaseSession::notified, this, &Dispatcher::onNotified);
    connect(m_session.get(), &DatabaseSession::waiting, &m_notifier, &ServiceNotifier::setStatus);
    connect(m_session.get(), &DatabaseSession::waitingForLock, this, [this] {
        if (m_lifecycle != Lifecycle::Stopping && m_lifecycle != Lifecycle::Stopped)
            setLifecycle(Lifecycle::WaitingForLock);
    });
    connect(m_session.get(), &DatabaseSession::down, this, [this](const QString &reason) {
        m_state->databaseDown(reason);
        if (m_lifecycle == Lifecycle::Running)
            setLifecycle(Lifecycle::Reconnecting);
        Q_EMIT databaseLost(reason);
    });
    connect(m_session.get(), &DatabaseSession::restored, this, &Dispatcher::databaseRestored);
    connect(m_session.get(), &DatabaseSession::lockedOut, this, [this](const QString &holder) {
        if (m_pipelineBuilt)
            // The other dispatcher has reset our rows; our workers must not run them twice.
            return stop(
                1, QStringLiteral("another dispatcher took over while the database was unreachable: %1").arg(holder),
                StopMode::Abandon);
        stop(1,
             QStringLiteral("another dispatcher is already running on this database: %1 "
                            "(use serve --standby to wait for it)")
                 .arg(holder),
             StopMode::Abandon);
    });
    connect(m_session.get(), &DatabaseSession::schemaRefused, this,
            [this](const QString &message) { stop(78, message, StopMode::Abandon); });
    m_schedule.setPollInterval(settings.pollInterval);
    m_schedule.startHeartbeat();
    m_session->open();
}

void Dispatcher::onDatabaseUp(bool first)
{
    m_state->databaseUp(first);
    if (m_lifecycle == Lifecycle::Stopping || m_lifecycle == Lifecycle::Stopped) {
        // Back while workers drain: what they settled can be written now.
        flushSettlements(true);
        return;
    }
    m_resetDue = true;
    if (!m_pipelineBuilt) {
        if (!startPipeline())
            return;
    } else {
        // A config_changed sent while the connection was down is lost: look.
        const auto overlay = m_reloader.readOverlay();
        if (!overlay)
            return statementFailed(m_reloader.overlayError());
        if (m_reloadPending || m_reloader.overlayDiffers(*overlay)) {
            if (!m_reloadPending)
                qCInfo(lcMain) << "config_overlay changed while the database was unreachable; reloading";
            reload(m_reloadPending ? m_pendingSource : QString(protocol::value::Reconnect));
        }
    }
    setLifecycle(Lifecycle::Running);
    m_notifier.ready(); // READY=1 the first time; the figures replace a waiting status
    // Catch up: notifications sent while away are lost, and outcomes wait to be written.
    requestRound();
}

bool Dispatcher::startPipeline()
{
    const auto overlay = m_reloader.readOverlay();
    if (!overlay) {
        statementFailed(m_reloader.overlayError());
        return false;
    }
    const auto pipeline = m_reloader.start(*overlay);
    if (!pipeline) {
        stop(78, QStringLiteral("bad configuration: ") + pipeline.error().toString(), StopMode::Abandon);
        return false;
    }
    for (const QString &option : pipeline->ignored)
        qCWarning(lcMain).noquote() << option << "cannot change once the dispatcher runs; ignored";
    // Every running row is an orphan now; only the lock holder may reset them.
    if (!resetOrphansIfDue())
        return false;
    m_schedule.setPollInterval(pipeline->settings.pollInterval);
    m_stats.start(pipeline->settings.statsInterval);
    applyGraph(pipeline->graph);
    m_pipelineBuilt = true;
    qCInfo(lcMain).noquote() << "listening; stages:"
                             << (m_graph.names().isEmpty() ? QStringLiteral("(none)") : m_graph.names().join(u' '));
    return true;
}

bool Dispatcher::resetOrphansIfDue()
{
    if (!m_resetDue)
        return true;
    // After a reconnect, a claim that committed just as the connection broke
    // left rows running that no worker of ours holds; nobody else would free
    // them. At start nothing is held, so every running row goes back.
    const auto orphans = m_session->store().resetOrphansExcept(heldIds());
    if (!orphans) {
        statementFailed(m_session->store().lastError());
        return false;
    }
    m_resetDue = false;
    // Reset rows are pending again anywhere, and notifications sent while
    // the listener was away are lost: walk every stage from the start.
    m_floors.reset();
    if (*orphans > 0 && !m_pipelineBuilt)
        qCInfo(lcMain) << "reset" << *orphans << "running rows left by a previous dispatcher to pending";
    else if (*orphans > 0)
        qCInfo(lcMain) << "reset" << *orphans << "running rows no worker holds (claimed as the connection broke)";
    return true;
}

void Dispatcher::shutdown(int exitCode) { stop(exitCode, {}, StopMode::Drain); }

void Dispatcher::stop(int exitCode, const QString &why, StopMode mode)
{
    if (m_lifecycle == Lifecycle::Stopping || m_lifecycle == Lifecycle::Stopped)
        return; // the first reason wins
    if (!why.isEmpty())
        qCCritical(lcMain).noquote() << why;
    m_exitCode = exitCode;
    setLifecycle(Lifecycle::Stopping);
    m_reloader.cancelPending();
    m_notifier.stopping();
    m_schedule.stop();
    m_stats.stop();
    if (mode == StopMode::Abandon) {
        // The rows they hold are another dispatcher's now (or were never
        // ours): stop the workers at once and write nothing.
        const QList<qint64> held = heldIds();
        const int workers = m_pools.workerCount();
        m_settlements.abandon();
        m_stats.abandon();
        if (workers > 0 || !held.isEmpty())
            qCWarning(lcMain) << "stopping" << workers << "workers at once; the" << held.size()
                              << "messages they held are left to the dispatcher that holds the lock";
        m_pools.clear();
        return finishStop();
    }
    if (m_pools.isEmpty())
        return finishStop();
    qCInfo(lcMain) << "stopping: letting workers finish what they hold";
    m_pools.forEach([](WorkerPool *pool) { pool->shutdown(); });
    onPoolDrained(nullptr);
}

void Dispatcher::onPoolDrained(WorkerPool *pool)
{
    if (m_lifecycle != Lifecycle::Stopping) {
        if (pool)
            m_pools.dropRetired(pool);
        return;
    }
    if (m_pools.workerCount() == 0)
        finishStop();
}

void Dispatcher::finishStop()
{
    if (m_lifecycle == Lifecycle::Stopped)
        return;
    flushSettlements(true);
    m_stats.flush();
    if (!m_settlements.isEmpty())
        qCWarning(lcMain) << m_settlements.size()
                          << "messages stay running (the database could not be written); the next dispatcher "
                             "resets them to pending at start";
    if (m_stats.hasDelta() && m_stats.mayWrite())
        qCWarning(lcMain) << "statistics of the last runs could not be written";
    if (m_session)
        m_session->close();
    qCInfo(lcMain) << "stopped after" << m_rounds << "claim rounds," << m_claimedTotal << "messages claimed";
    setLifecycle(Lifecycle::Stopped);
    Q_EMIT finished(m_exitCode);
}

} // namespace pepsi
