// SPDX-License-Identifier: AGPL-3.0-or-later
#include "consolefeed.h"

#include "controlclient.h"
#include "eventlogmodel.h"
#include "poolmodel.h"
#include "queuemodel.h"
#include "throughputmodel.h"
#include "workermodel.h"

namespace pepsi::console {

using namespace Qt::StringLiterals;

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
    const QString name = event.value("event"_L1).toString();
    if (name == "tick"_L1) {
        // Head-of-line ages and queue counts move without events: fetch them
        // at the pace the daemon ticks, never faster.
        m_client->send(u"workers"_s);
        if (++m_ticks % StatusEveryTicks == 0)
            m_client->send(u"status"_s);
    } else if (name == "reload"_L1) {
        m_client->send(u"stages"_s);
        m_client->send(u"status"_s);
    } else if (name == "requeued"_L1 || name == "database_restored"_L1) {
        m_client->send(u"status"_s);
    }
}

} // namespace pepsi::console
