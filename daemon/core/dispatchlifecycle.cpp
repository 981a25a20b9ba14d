// SPDX-License-Identifier: AGPL-3.0-or-later
#include "core/dispatchlifecycle.h"

#include "core/dispatcher.h"
#include "core/dispatchstate.h"
#include "core/pipelineapplier.h"
#include "model/logcategories.h"
#include "storage/databasesession.h"

namespace pepsi {

DispatchLifecycle::DispatchLifecycle(Dispatcher &dispatcher, PipelineApplier &pipeline, bool standby,
                                     ServiceNotifier::FigureSource figures)
    : m_d(dispatcher)
    , m_pipeline(pipeline)
    , m_standby(standby)
{
    m_notifier.setFigureSource(std::move(figures));
    connect(&m_pipeline, &PipelineApplier::unparsable, this, &DispatchLifecycle::refuseReload);
}

DispatchLifecycle::~DispatchLifecycle() = default;

void DispatchLifecycle::endSession() { m_session.reset(); }

bool DispatchLifecycle::isDatabaseUp() const { return m_session && m_session->isUp(); }

QString DispatchLifecycle::databaseName() const { return m_session ? m_session->databaseName() : QString(); }

QString DispatchLifecycle::lastDatabaseError() const
{
    return m_session && !m_session->isUp() ? m_session->lastError() : QString();
}

bool DispatchLifecycle::isStopping() const { return m_d.isStopping(); }

void DispatchLifecycle::start()
{
    const DispatchSettings &settings = m_pipeline.settings();
    m_session = std::make_unique<DatabaseSession>(settings.database, SessionLimits::of(settings), m_standby, nullptr);
    m_d.attach(m_session.get());
    watchSession();
    m_session->open();
}

void DispatchLifecycle::watchSession()
{
    DatabaseSession *session = m_session.get();
    connect(session, &DatabaseSession::up, this, &DispatchLifecycle::databaseUp);
    connect(session, &DatabaseSession::waiting, &m_notifier, &ServiceNotifier::setStatus);
    connect(session, &DatabaseSession::waitingForLock, this, [this] {
        if (!isStopping())
            m_d.setLifecycle(Lifecycle::WaitingForLock);
    });
    connect(session, &DatabaseSession::down, this, [this](const QString &reason) {
        m_d.state()->databaseDown(reason);
        if (m_d.lifecycle() == Lifecycle::Running)
            m_d.setLifecycle(Lifecycle::Reconnecting);
        Q_EMIT databaseLost(reason);
    });
    connect(session, &DatabaseSession::restored, this, &DispatchLifecycle::databaseRestored);
    connect(session, &DatabaseSession::lockedOut, this, [this](const QString &holder) {
        if (m_d.isServing())
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
    connect(session, &DatabaseSession::schemaRefused, this,
            [this](const QString &message) { stop(78, message, StopMode::Abandon); });
}

void DispatchLifecycle::databaseUp(bool first)
{
    m_d.state()->databaseUp(first);
    if (isStopping()) {
        // Back while workers drain: what they settled can be written now.
        m_d.flushSettlements(true);
        return;
    }
    m_d.resetOrphansBeforeClaim();
    if (!m_d.isServing()) {
        if (!startPipeline())
            return;
    } else {
        // A config_changed sent while the connection was down is lost: look.
        PipelineReloader &reloader = m_pipeline.reloader();
        const auto overlay = reloader.readOverlay();
        const std::optional<QString> pending = m_d.pendingReload();
        if (!overlay) {
            // Not readable on a live connection (a lock, a timeout): serve
            // the graph in force, and the rounds read it again first.
            m_d.deferReload(QString(protocol::value::Reconnect));
            m_d.statementFailed(reloader.overlayError());
            if (!isDatabaseUp())
                return; // gone again: the next databaseUp reads it
        } else if (pending || reloader.overlayDiffers(*overlay)) {
            if (!pending)
                qCInfo(lcMain) << "config_overlay changed while the database was unreachable; reloading";
            m_d.reload(pending ? *pending : QString(protocol::value::Reconnect));
            // An overlay that no longer parses has begun the stop, which drains
            // the workers: serving again would leave it waiting for ever.
            if (isStopping())
                return;
        }
    }
    m_d.setLifecycle(Lifecycle::Running);
    m_notifier.ready(); // READY=1 the first time; the figures replace a waiting status
    // Catch up: notifications sent while away are lost, and outcomes wait to be written.
    m_d.requestRound();
}

bool DispatchLifecycle::startPipeline()
{
    PipelineReloader &reloader = m_pipeline.reloader();
    const auto overlay = reloader.readOverlay();
    if (!overlay) {
        m_d.statementFailed(reloader.overlayError());
        return false;
    }
    const auto pipeline = reloader.start(*overlay);
    if (!pipeline) {
        stop(78, QStringLiteral("bad configuration: ") + pipeline.error().toString(), StopMode::Abandon);
        return false;
    }
    for (const QString &option : pipeline->ignored)
        qCWarning(lcMain).noquote() << option << "cannot change once the dispatcher runs; ignored";
    // Every running row is an orphan now; only the lock holder may reset them.
    if (!m_d.resetOrphansIfDue())
        return false;
    m_d.serve(pipeline->settings);
    m_pipeline.apply(pipeline->graph);
    const QStringList stages = m_pipeline.graph().names();
    qCInfo(lcMain).noquote() << "listening; stages:"
                             << (stages.isEmpty() ? QStringLiteral("(none)") : stages.join(u' '));
    return true;
}

void DispatchLifecycle::reloadFile()
{
    if (isStopping()) {
        qCInfo(lcMain) << "SIGHUP while stopping; ignored";
        return;
    }
    qCInfo(lcMain).noquote() << "SIGHUP: reading" << m_pipeline.reloader().filePath() << "again";
    m_notifier.reloading();
    if (!m_d.isServing()) {
        // Nothing runs yet: the file alone must parse, as at start, and what
        // it says (but what the process already acted on) applies once it serves.
        if (!m_pipeline.checkFile(true))
            return;
        qCInfo(lcMain) << "configuration read again; it applies once this dispatcher serves";
    } else if (isDatabaseUp()) {
        (void)m_d.reload(QString(protocol::value::Signal));
    } else {
        // A broken file stops the process now, not once the database is
        // back: check it against the overlay last read.
        if (!m_pipeline.checkFile(false))
            return;
        (void)m_d.reload(QString(protocol::value::Signal)); // waits for the database
        qCInfo(lcMain) << "the database is unreachable; the pipeline is rebuilt from the file and "
                          "config_overlay once it is back";
    }
    m_notifier.reloaded();
}

// Routing by a graph the workers no longer share would be worse than stopping.
void DispatchLifecycle::refuseReload(const QString &problems)
{
    stop(1, QStringLiteral("reloaded configuration does not parse: %1; stopping").arg(problems), StopMode::Drain);
}

void DispatchLifecycle::stop(int exitCode, const QString &why, StopMode mode)
{
    if (isStopping())
        return; // the first reason wins
    if (!why.isEmpty())
        qCCritical(lcMain).noquote() << why;
    m_exitCode = exitCode;
    m_d.setLifecycle(Lifecycle::Stopping);
    m_pipeline.reloader().cancelPending();
    m_notifier.stopping();
    if (!m_d.stopRounds(mode == StopMode::Abandon))
        finishStop();
}

void DispatchLifecycle::finishStop()
{
    if (m_d.lifecycle() == Lifecycle::Stopped)
        return;
    m_d.finishRounds();
    if (m_session)
        m_session->close();
    qCInfo(lcMain) << "stopped after" << m_d.rounds() << "claim rounds," << m_d.claimedTotal() << "messages claimed";
    m_d.setLifecycle(Lifecycle::Stopped);
    Q_EMIT finished(m_exitCode);
}

} // namespace pepsi
