// SPDX-License-Identifier: AGPL-3.0-or-later
// The Dispatcher's rounds: what wakes a round, where each stage's claim
// starts, the claimed tickets handed to the pools, and when the outcomes and
// statistics are written back (by SettlementWriter and StatisticsFlusher).
// Its life is DispatchLifecycle's, its pools' graph and reloads
// PipelineApplier's; the steps the lifecycle drives are the first below.
#include "core/dispatcher.h"

#include "core/dispatchstate.h"
#include "model/logcategories.h"
#include "storage/databasesession.h"
#include "storage/notifylistener.h"
#include "workers/workerpool.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>

namespace pepsi {

using namespace std::chrono;

Dispatcher::Dispatcher(const Configuration &file, const DispatchSettings &settings, bool standby, QObject *parent)
    : QObject(parent)
    , m_pipeline(file, settings, m_pools)
    , m_life(*this, m_pipeline, standby, [this] {
        // Workers of the current stages; messages held by any.
        int workers = 0;
        m_pools.forEachCurrent([&workers](const WorkerPool *pool) { workers += pool->workerCount(); });
        // The shortest window of the meter (a second or two): the line shows a stall.
        return ServiceNotifier::Figures{workers, m_pools.inFlight(), runRate(1s)};
    })
{
    connect(&m_pipeline.reloader(), &PipelineReloader::due, this, [this](const QString &source) {
        if (m_pipelineBuilt && (m_lifecycle == Lifecycle::Running || m_lifecycle == Lifecycle::Reconnecting))
            reload(source);
    });
    connect(&m_pipeline, &PipelineApplier::poolCreated, this, &Dispatcher::watchPool);
    connect(&m_pipeline, &PipelineApplier::applied, this, [this](const StageGraph &graph) {
        m_stats.setGraph(graph);
        // Answers were credited to the NEXT stages of the old graph: a stage the
        // new one adds or routes to again may hold rows nobody announced to it.
        m_floors.reset();
    });
    connect(&m_pipeline, &PipelineApplier::readFailed, this, [this](const QString &source, const QString &error) {
        deferReload(source);
        statementFailed(error);
    });
    connect(&m_pipeline, &PipelineApplier::reloaded, this, [this](const ReloadSnapshot &reloaded) {
        m_pendingReload.reset();
        m_state->reloaded(reloaded);
        requestRound();
    });
    connect(&m_life, &DispatchLifecycle::finished, this, &Dispatcher::finished);
    connect(&m_life, &DispatchLifecycle::databaseLost, this, &Dispatcher::databaseLost);
    connect(&m_life, &DispatchLifecycle::databaseRestored, this, &Dispatcher::databaseRestored);
    connect(&m_settlements, &SettlementWriter::holdOver, this, &Dispatcher::requestRound);
    connect(&m_stats, &StatisticsFlusher::writeFailed, this, &Dispatcher::statementFailed);
    m_stats.setInFlightSource([this] { return m_pools.inFlight(); });
    connect(&m_schedule, &RoundScheduler::roundDue, this, &Dispatcher::runRound);
    connect(&m_schedule, &RoundScheduler::errorRetryDue, this, [this] {
        if (!m_pipelineBuilt && m_session && m_session->isUp())
            return m_life.databaseUp(true);
        requestRound();
    });
    connect(&m_schedule, &RoundScheduler::heartbeat, this, [this] {
        if (m_session)
            m_session->checkAlive();
        // The safety net: a row made pending by nobody who tells us (an
        // operator's own UPDATE, a trigger disabled) is found by this walk.
        m_floors.reset();
        requestRound();
    });
    m_state = new DispatchState(*this);
}

Dispatcher::~Dispatcher()
{
    // Reverse order of construction: pools (and their workers) before the
    // session whose rows they hold.
    m_pools.clear();
    attach(nullptr);
    m_life.endSession();
}

void Dispatcher::setLifecycle(Lifecycle state)
{
    if (m_lifecycle == state)
        return;
    qCDebug(lcMain).noquote() << "lifecycle:" << lifecycleName(m_lifecycle) << "->" << lifecycleName(state);
    m_lifecycle = state;
    Q_EMIT lifecycleChanged(state);
}

void Dispatcher::attach(DatabaseSession *session)
{
    m_session = session;
    m_pipeline.reloader().setOverlayStore(session ? &session->overlay() : nullptr);
    m_settlements.setSession(session);
    m_stats.setSession(session);
    if (!session)
        return;
    connect(session, &DatabaseSession::notified, this, &Dispatcher::onNotified);
    m_schedule.setPollInterval(settings().pollInterval);
    m_schedule.startHeartbeat();
}

void Dispatcher::serve(const DispatchSettings &settings)
{
    m_schedule.setPollInterval(settings.pollInterval);
    m_stats.start(settings.statsInterval);
    m_pipelineBuilt = true;
}

void Dispatcher::deferReload(const QString &source)
{
    if (!m_pendingReload)
        m_pendingReload = source;
}

bool Dispatcher::stopRounds(bool abandon)
{
    m_schedule.stop();
    m_stats.stop();
    if (abandon) {
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
        return false;
    }
    if (m_pools.isEmpty())
        return false;
    qCInfo(lcMain) << "stopping: letting workers finish what they hold";
    m_pools.forEach([](WorkerPool *pool) { pool->shutdown(); });
    return m_pools.workerCount() > 0;
}

void Dispatcher::finishRounds()
{
    flushSettlements(true);
    m_stats.flush();
    if (!m_settlements.isEmpty())
        qCWarning(lcMain) << m_settlements.size()
                          << "messages stay running (the database could not be written); the next dispatcher "
                             "resets them to pending at start";
    if (m_stats.hasDelta() && m_stats.mayWrite())
        qCWarning(lcMain) << "statistics of the last runs could not be written";
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

Result<ReloadSnapshot, QString> Dispatcher::reload(const QString &source, bool command)
{
    if (!m_session->isUp()) {
        deferReload(source);
        return QStringLiteral("the database is unreachable; the configuration is read again once it is back");
    }
    return m_pipeline.reload(source, command);
}

void Dispatcher::watchPool(WorkerPool *pool)
{
    m_state->watchPool(pool);
    connect(pool, &WorkerPool::capacityFreed, &m_schedule, &RoundScheduler::requestForRoom);
    connect(pool, &WorkerPool::settle, this, &Dispatcher::onSettle);
    connect(pool, &WorkerPool::runEnded, &m_stats, &StatisticsFlusher::record);
    connect(pool, &WorkerPool::advanced, this,
            [this, pool](qint64 id, const QList<FusedRun> &fused) { onAdvanced(pool->stage().name, id, fused); });
    connect(pool, &WorkerPool::drained, this, [this, pool] { onPoolDrained(pool); });
}

void Dispatcher::onPoolDrained(WorkerPool *pool)
{
    if (m_lifecycle != Lifecycle::Stopping) {
        if (pool)
            m_pools.dropRetired(pool);
        return;
    }
    if (m_pools.workerCount() == 0)
        m_life.finishStop();
}

bool Dispatcher::setDrained(const QString &stage, bool drained)
{
    WorkerPool *pool = m_pools.find(stage);
    if (!pool)
        return false;
    pool->setDrained(drained);
    if (!drained)
        requestRound();
    return true;
}

QList<qint64> Dispatcher::heldIds() const { return m_pools.heldIds() + m_settlements.ids(); }

void Dispatcher::statementFailed(const QString &what)
{
    if (m_session->statementFailed(what))
        m_schedule.retryAfterError();
}

void Dispatcher::requestRound() { m_schedule.request(); }

void Dispatcher::rowsPending(const QString &stage)
{
    m_floors.lower(stage, ClaimFloors::Start);
    requestRound();
}

void Dispatcher::onNotified(const QString &channel, const QString &payload)
{
    if (channel == NotifyListener::ConfigChannel)
        m_pipeline.reloader().configChanged(m_state->configChanged());
    if (channel == NotifyListener::WorkqueueChannel) {
        // The insert trigger names the lowest id it inserted pending per
        // stage ({"stage": id}); an empty or unreadable payload (too many
        // stages for one notification, an older trigger) says nothing:
        // then every stage is walked from the start.
        const QJsonObject firsts = QJsonDocument::fromJson(payload.toUtf8()).object();
        if (firsts.isEmpty() && payload.trimmed() != u"{}")
            m_floors.reset();
        for (auto it = firsts.begin(); it != firsts.end(); ++it)
            m_floors.lower(it.key(), it.value().toInteger());
        requestRound();
    }
}

void Dispatcher::onAdvanced(const QString &stage, qint64 messageId, const QList<FusedRun> &fused)
{
    // The stage committed the row before it answered: pending at one of its
    // NEXT stages, or at a NEXT stage of the last stage it fused (or done).
    if (const StageConfig *config = graph().stage(stage))
        m_floors.lower(config->next, messageId);
    for (const FusedRun &run : fused) {
        m_floors.lower(run.stage, messageId);
        if (const StageConfig *config = graph().stage(run.stage))
            m_floors.lower(config->next, messageId);
    }
}

void Dispatcher::onSettle(const Settlement &settlement)
{
    m_settlements.add(settlement);
    requestRound();
}

void Dispatcher::flushSettlements(bool force)
{
    // Requeued rows are pending again, committed now, at the stage they were
    // running at (a fused worker's may be another than its pool's); and a
    // worker that failed, crashed or timed out may have moved its row on
    // before it did (the guard then left it as the stage wrote it). Rare
    // enough to look again everywhere from there.
    for (const qint64 id : m_settlements.write(force))
        m_floors.lowerAll(id);
}

void Dispatcher::runRound()
{
    if (!m_pipelineBuilt || !m_session->isUp())
        return;
    flushSettlements();
    if (m_lifecycle != Lifecycle::Running)
        return;
    if (m_pendingReload) {
        reload(*m_pendingReload);
        if (m_lifecycle != Lifecycle::Running) // it did not parse: the stop drains, nothing more is claimed
            return;
    }
    if (!resetOrphansIfDue())
        return;

    // A quiet stage has nothing to claim: leaving it out keeps the round's
    // statement, its parameters and its answer as large as the stages with
    // work, not as the graph.
    QList<StageDemand> demands;
    m_pools.forEachCurrent([this, &demands](const WorkerPool *pool) {
        const QString &stage = pool->stage().name;
        if (m_floors.isQuiet(stage))
            return;
        if (const int spare = pool->spareCapacity(); spare > 0)
            demands.append({stage, spare, m_floors.floor(stage)});
    });
    // Room freed where nothing waits (the stage walked empty, the others
    // full) would run a statement that claims nothing: in a fan-out, a fifth
    // of the rounds. What the statement does besides claiming (resuming
    // paused rows, looking at locked ones) is owed, not urgent: the scheduler
    // has it done within a few ms, one statement for however many such rounds.
    if (!m_schedule.takeStatementDue() && demands.isEmpty()) {
        m_schedule.statementSkipped();
        m_stats.flushWhenIdle();
        return;
    }
    const auto round = m_session->store().claimRound(demands);
    if (!round)
        return statementFailed(m_session->store().lastError());
    updateFloors(demands, *round);
    ++m_rounds;
    m_claimedTotal += round->claimed.size();

    // Group by stage, keeping id order, so every worker gets one write.
    QHash<QString, Tickets> byStage;
    for (const ClaimedMessage &message : round->claimed)
        byStage[message.stage].append(message.ticket);
    bool unplacedAny = false;
    for (auto it = byStage.cbegin(); it != byStage.cend(); ++it) {
        WorkerPool *pool = m_pools.find(it.key());
        const Tickets unplaced = pool ? pool->assign(it.value()) : it.value();
        for (const Ticket &ticket : unplaced)
            m_settlements.add(Settlement{ticket, Settlement::Outcome::Requeue, {}, 0});
        unplacedAny = unplacedAny || !unplaced.isEmpty();
    }
    // What no worker took (its stage just went into cooldown) goes back to
    // pending now: no round may come before the cooldown ends, and until then
    // the rows would sit `running` with nobody working on them.
    if (unplacedAny)
        flushSettlements();
    if (!round->claimed.isEmpty())
        m_state->markChanged();
    if (!demands.isEmpty())
        qCDebug(lcClaim) << "round" << m_rounds << "claimed" << round->claimed.size() << "from" << demands.size()
                         << "stages";
    if (round->resumed > 0) {
        qCDebug(lcClaim) << "resumed" << round->resumed << "paused messages";
        requestRound();
    }
    if (round->skippedLocked > 0)
        qCDebug(lcClaim) << "skipped" << round->skippedLocked << "rows locked by another session";
    m_schedule.roundRan(round->nextPausedInMs, round->skippedLocked > 0);
    if (round->claimed.isEmpty())
        m_stats.flushWhenIdle();
}

void Dispatcher::updateFloors(const QList<StageDemand> &demands, const ClaimRound &round)
{
    QHash<QString, qint64> highest;
    for (const ClaimedMessage &message : round.claimed) {
        const auto it = highest.find(message.stage);
        if (it == highest.end())
            highest.insert(message.stage, message.ticket.id);
        else
            *it = std::max(*it, message.ticket.id);
    }
    for (const StageDemand &demand : demands) {
        const auto unclaimed = round.unclaimedFrom.constFind(demand.stage);
        m_floors.advance(demand.stage, demand.floor,
                         unclaimed == round.unclaimedFrom.cend() ? std::nullopt : std::optional<qint64>(*unclaimed),
                         highest.value(demand.stage, ClaimFloors::Start));
    }
    // Resumed in this round, claimable from the next.
    for (auto it = round.resumedFrom.cbegin(); it != round.resumedFrom.cend(); ++it)
        m_floors.lower(it.key(), it.value());
}

} // namespace pepsi
