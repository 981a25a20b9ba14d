// SPDX-License-Identifier: AGPL-3.0-or-later
// The Dispatcher's rounds and what they write: what wakes a round, where each
// stage's claim starts, the claimed tickets handed to the pools, and the
// outcomes and statistics written back. Its life is in dispatcherlifecycle.cpp,
// the pools and reloads in dispatcherpipeline.cpp, the control plane's port in
// dispatcherport.cpp.
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

namespace {

constexpr milliseconds IdleStatsFlushSpacing = 1s;
// After a statement failed on a live connection (a timeout, say).
constexpr milliseconds StatementRetry = 1s;
// While a row is locked by another session, how often to look again.
constexpr milliseconds LockedRowRetry = 500ms;
// The longest wait before outcomes that failed to be written are tried again.
constexpr milliseconds SettleRetryMax = 8s;

} // namespace

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
    m_errorRetry.setSingleShot(true);
    m_errorRetry.setInterval(StatementRetry);
    m_idleStatsTimer.setSingleShot(true);
    m_settleHold.setSingleShot(true);
    connect(&m_settleHold, &QTimer::timeout, this, &Dispatcher::requestRound);
    connect(&m_roundTimer, &QTimer::timeout, this, &Dispatcher::runRound);
    connect(&m_retryTimer, &QTimer::timeout, this, &Dispatcher::requestRound);
    connect(&m_errorRetry, &QTimer::timeout, this, [this] {
        if (!m_pipelineBuilt && m_session && m_session->isUp())
            return onDatabaseUp(true);
        requestRound();
    });
    connect(&m_heartbeat, &QTimer::timeout, this, [this] {
        if (m_session)
            m_session->checkAlive();
        // The safety net: a row made pending by nobody who tells us (an
        // operator's own UPDATE, a trigger disabled) is found by this walk.
        m_floors.reset();
        requestRound();
    });
    connect(&m_statsTimer, &QTimer::timeout, this, &Dispatcher::flushStatistics);
    connect(&m_idleStatsTimer, &QTimer::timeout, this, &Dispatcher::flushStatisticsWhenIdle);
    m_lastStatsFlush.start();
    m_clock.start();
    // Nothing has run at start: the first rates are counted from here.
    m_rates.sample(0, {});
    m_rateSampler.setInterval(1s);
    connect(&m_rateSampler, &QTimer::timeout, this, &Dispatcher::sampleRates);
    m_rateSampler.start();
    m_notifier.setFigureSource([this] {
        int workers = 0;
        for (const WorkerPool *pool : std::as_const(m_pools))
            workers += pool->workerCount();
        // The shortest window of the meter (a second or two): the line shows a stall.
        return ServiceNotifier::Figures{workers, inFlight(), runRate(1s)};
    });
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

QList<qint64> Dispatcher::heldIds() const
{
    QList<qint64> held;
    for (const WorkerPool *pool : std::as_const(m_pools))
        held += pool->heldIds();
    for (const WorkerPool *pool : std::as_const(m_retiredPools))
        held += pool->heldIds();
    for (const Settlement &settlement : std::as_const(m_pending))
        held.append(settlement.ticket.id);
    return held;
}

void Dispatcher::statementFailed(const QString &what)
{
    if (m_session->statementFailed(what) && !m_errorRetry.isActive())
        m_errorRetry.start();
}

void Dispatcher::requestRound()
{
    if (!m_roundTimer.isActive())
        m_roundTimer.start();
}

void Dispatcher::rowsPending(const QString &stage)
{
    m_floors.lower(stage, ClaimFloors::Start);
    requestRound();
}

void Dispatcher::onNotified(const QString &channel, const QString &payload)
{
    if (channel == NotifyListener::ConfigChannel)
        m_state->configChanged();
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
    } else if (channel == NotifyListener::ConfigChannel && m_pipelineBuilt
               && (m_lifecycle == Lifecycle::Running || m_lifecycle == Lifecycle::Reconnecting))
        reload();
}

void Dispatcher::onAdvanced(const QString &stage, qint64 messageId, const QList<FusedRun> &fused)
{
    // The stage committed the row before it answered: pending at one of its
    // NEXT stages, or at a NEXT stage of the last stage it fused (or done).
    if (const StageConfig *config = m_graph.stage(stage))
        m_floors.lower(config->next, messageId);
    for (const FusedRun &run : fused) {
        m_floors.lower(run.stage, messageId);
        if (const StageConfig *config = m_graph.stage(run.stage))
            m_floors.lower(config->next, messageId);
    }
}

void Dispatcher::onSettle(const Settlement &settlement)
{
    m_pending.append(settlement);
    requestRound();
}

void Dispatcher::flushSettlements(bool force)
{
    if (m_pending.isEmpty() || !m_mayWrite || !m_session || !m_session->isUp())
        return;
    if (m_settleHold.isActive() && !force)
        return;
    const auto changed = m_session->store().settle(m_pending);
    if (!changed) {
        qCDebug(lcStore) << "keeping" << m_pending.size() << "outcomes to write later";
        if (m_session->statementFailed(m_session->store().lastError())) {
            // A live connection: most likely a row another session holds
            // locked (lock_timeout). Every try costs that wait, so back off
            // while claims go on; the outcomes stay in memory meanwhile.
            const milliseconds hold = std::min(SettleRetryMax, StatementRetry * (1 << std::min(m_settleFailures, 5)));
            ++m_settleFailures;
            m_settleHold.start(hold);
        }
        return;
    }
    m_settleFailures = 0;
    qCDebug(lcStore) << "settled" << *changed << "of" << m_pending.size() << "messages";
    // Requeued rows are pending again, committed now, at the stage they were
    // running at (a fused worker's may be another than its pool's); and a
    // worker that failed, crashed or timed out may have moved its row on
    // before it did (the guard then left it as the stage wrote it). Rare
    // enough to look again everywhere from there.
    for (const Settlement &settlement : std::as_const(m_pending))
        m_floors.lowerAll(settlement.ticket.id);
    m_pending.clear();
}

void Dispatcher::flushStatistics()
{
    if (!m_stats.hasDelta() || !m_mayWrite || !m_session || !m_session->isUp())
        return;
    const StatsDelta delta = m_stats.takeDelta();
    m_lastStatsFlush.start();
    if (!m_session->stats().add(delta)) {
        m_stats.giveBack(delta);
        statementFailed(m_session->stats().lastError());
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
    if (!m_pipelineBuilt || !m_session->isUp())
        return;
    flushSettlements();
    if (m_lifecycle != Lifecycle::Running)
        return;
    if (m_reloadPending)
        reload();
    if (!resetOrphansIfDue())
        return;

    QList<StageDemand> demands;
    for (WorkerPool *pool : std::as_const(m_pools)) {
        if (const int spare = pool->spareCapacity(); spare > 0)
            demands.append({pool->stage().name, spare, m_floors.floor(pool->stage().name)});
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
    if (!round->claimed.isEmpty()) {
        m_state->markChanged();
        qCDebug(lcClaim) << "round" << m_rounds << "claimed" << round->claimed.size();
    }
    if (round->resumed > 0) {
        qCDebug(lcClaim) << "resumed" << round->resumed << "paused messages";
        requestRound();
    }
    // A row another session holds locked was skipped: look again soon
    // rather than at the heartbeat, so it is taken once the lock goes.
    if (round->skippedLocked > 0) {
        qCDebug(lcClaim) << "skipped" << round->skippedLocked << "rows locked by another session";
        armRetryTimer(std::min<qint64>(round->nextPausedInMs.value_or(LockedRowRetry.count()), LockedRowRetry.count()));
    } else {
        armRetryTimer(round->nextPausedInMs);
    }
    if (round->claimed.isEmpty())
        flushStatisticsWhenIdle();
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

} // namespace pepsi
