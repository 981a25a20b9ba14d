// SPDX-License-Identifier: AGPL-3.0-or-later
#include "consolefeed.h"

#include "control/protocol.h"
#include "control/snapshotcodec.h"

#include "controlclient.h"
#include "eventlogmodel.h"
#include "keyedtablemodel.h"
#include "poolmodel.h"
#include "queuemodel.h"
#include "throughputmodel.h"
#include "workermodel.h"

namespace pepsi::console {

using namespace Qt::StringLiterals;
namespace cmd = protocol::cmd;
namespace event = protocol::event;
namespace field = protocol::field;

ConsoleFeed::ConsoleFeed(ControlClient *client, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_pools(new PoolModel(this))
    , m_queues(new QueueModel(this))
    , m_workers(new WorkerModel(this))
    , m_throughput(new ThroughputModel(this))
    , m_events(new EventLogModel(this))
{
    connect(client, &ControlClient::statusReceived, this, &ConsoleFeed::onStatus);
    connect(client, &ControlClient::stagesReceived, this, &ConsoleFeed::onStages);
    connect(client, &ControlClient::workersReceived, m_workers, &WorkerModel::applyWorkers);
    connect(client, &ControlClient::eventReceived, this, &ConsoleFeed::onEvent);
    connect(client, &ControlClient::errorOccurred, m_events,
            [this](const QString &message) { m_events->addNote(message, true); });
    connect(client, &ControlClient::stateChanged, this, [this](ControlClient::State state) {
        if (state == ControlClient::State::Connected)
            m_events->addNote(tr("Connected to %1.").arg(m_client->socketPath()), false);
    });
    connect(client, &ControlClient::stateChanged, this, &ConsoleFeed::onStateChanged);
    connect(client, &ControlClient::versionReceived, this, &ConsoleFeed::onVersion);
}

void ConsoleFeed::onStateChanged()
{
    const bool connected = m_client->state() == ControlClient::State::Connected;
    if (connected || m_stale || !m_lastData.isValid())
        return;
    // The connection went: nothing shown is live any more. Worker pids may
    // belong to nobody by now, so they go; the rest stays, marked as old.
    m_stale = true;
    m_lostAt = QDateTime::currentDateTimeUtc();
    m_pidAtLoss = m_pid;
    m_drainedAtLoss.clear();
    for (const QString &stage : m_pools->keys()) {
        if (m_pools->record(stage).drained)
            m_drainedAtLoss.append(stage);
    }
    m_summaryDue = true;
    m_workers->clear();
    m_workers->flush();
    Q_EMIT staleChanged(true, m_lastData);
}

void ConsoleFeed::onVersion(const QJsonObject &version) { m_pid = version.value(field::Pid).toInteger(); }

void ConsoleFeed::summarizeReconnection()
{
    // Called with the first snapshot after a reconnection.
    m_summaryDue = false;
    const qint64 awayMs = m_lostAt.msecsTo(QDateTime::currentDateTimeUtc());
    QStringList parts;
    parts.append(tr("Reconnected after %1.").arg(formatDuration(awayMs)));
    bool problem = false;
    if (m_pidAtLoss != 0 && m_pid != m_pidAtLoss) {
        // What the operator must act on first: it reads in the log's line without the tooltip.
        QStringList lost;
        for (const QString &stage : std::as_const(m_drainedAtLoss)) {
            const auto pool = std::find_if(m_status.pools.cbegin(), m_status.pools.cend(),
                                           [&stage](const PoolSnapshot &each) { return each.stage == stage; });
            if (pool == m_status.pools.cend() || !pool->drained)
                lost.append(stage);
        }
        if (!lost.isEmpty()) {
            problem = true;
            parts.append(tr("Drains do not survive a restart: %1 claims messages again.").arg(lost.join(u", "_s)));
        }
        parts.append(
            tr("The daemon restarted (pid %1, was %2): the rows that were running went back to pending when it "
               "started, and its statistics count from zero.")
                .arg(m_pid)
                .arg(m_pidAtLoss));
    } else {
        parts.append(tr("The same daemon (pid %1).").arg(m_pid));
    }
    m_events->addNote(parts.join(u' '), problem);
}

void ConsoleFeed::flush()
{
    m_pools->flush();
    m_queues->flush();
    m_workers->flush();
    m_throughput->flush();
    m_events->flush();
}

void ConsoleFeed::onStatus(const StatusSnapshot &status)
{
    m_status = status;
    m_poolTotals = status.poolTotals;
    m_lastData = QDateTime::currentDateTimeUtc();
    if (m_stale) {
        m_stale = false;
        Q_EMIT staleChanged(false, m_lastData);
    }
    m_pools->applyStatus(status);
    m_queues->applyStatus(status);
    m_throughput->applyStatus(status);
    Q_EMIT statusChanged(status);
    Q_EMIT poolTotalsChanged();
    if (m_summaryDue)
        summarizeReconnection();
}

void ConsoleFeed::onStages(const StagesSnapshot &stages)
{
    m_graph = PipelineGraph::fromStages(stages);
    m_pools->applyStages(stages);
    Q_EMIT graphChanged();
}

void ConsoleFeed::onEvent(const QJsonObject &event)
{
    if (!m_stale)
        m_lastData = QDateTime::currentDateTimeUtc();
    const QString name = event.value(field::Event).toString();
    if (name == event::Tick) {
        const TickSnapshot tick = protocol::tickFromJson(event);
        m_pools->applyTick(tick);
        m_throughput->applyTick(tick, protocol::timeFromJson(event.value(field::Time)));
        m_poolTotals = tick.pools;
        Q_EMIT poolTotalsChanged();
    } else {
        m_pools->applyEvent(event);
        m_workers->applyEvent(event);
    }
    m_events->applyEvent(event);
    if (name == event::Tick) {
        // Head-of-line ages and queue counts move without events: fetch them
        // at the pace the daemon ticks, never faster (workers only while
        // someone shows them: ControlClient::setWorkersWanted).
        m_client->requestWorkers();
        if (++m_ticks % StatusEveryTicks == 0)
            m_client->post(cmd::Status);
    } else if (name == event::Reload) {
        m_client->post(cmd::Stages);
        m_client->post(cmd::Status);
    } else if (name == event::Requeued || name == event::DatabaseRestored) {
        m_client->post(cmd::Status);
    }
}

} // namespace pepsi::console
