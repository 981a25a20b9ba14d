// SPDX-License-Identifier: AGPL-3.0-or-later
#include "consolefeed.h"

#include "control/protocol.h"

#include "controlclient.h"
#include "eventlogmodel.h"
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
}

void ConsoleFeed::flush()
{
    m_pools->flush();
    m_queues->flush();
    m_workers->flush();
    m_throughput->flush();
    m_events->flush();
}

void ConsoleFeed::onStatus(const QJsonObject &status)
{
    m_status = status;
    m_pools->applyStatus(status);
    m_queues->applyStatus(status);
    m_throughput->applyStatus(status);
    Q_EMIT statusChanged(status);
}

void ConsoleFeed::onStages(const QJsonObject &stages)
{
    m_graph = PipelineGraph::fromStages(stages);
    Q_EMIT graphChanged();
}

void ConsoleFeed::onEvent(const QJsonObject &event)
{
    m_pools->applyEvent(event);
    m_workers->applyEvent(event);
    m_throughput->applyEvent(event);
    m_events->applyEvent(event);
    const QString name = event.value(field::Event).toString();
    if (name == event::Tick) {
        // Head-of-line ages and queue counts move without events: fetch them
        // at the pace the daemon ticks, never faster (workers only while
        // someone shows them: ControlClient::setWorkersWanted).
        m_client->requestWorkers();
        if (++m_ticks % StatusEveryTicks == 0)
            m_client->send(cmd::Status);
    } else if (name == event::Reload) {
        m_client->send(cmd::Stages);
        m_client->send(cmd::Status);
    } else if (name == event::Requeued || name == event::DatabaseRestored) {
        m_client->send(cmd::Status);
    }
}

} // namespace pepsi::console
