// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "pipelinegraph.h"

#include <QJsonObject>
#include <QObject>

namespace pepsi::console {

class ControlClient;
class EventLogModel;
class PoolModel;
class QueueModel;
class ThroughputModel;
class WorkerModel;

// Feeds the models from the client: snapshots replace, events patch, and a
// `tick` now and then asks for fresh snapshots of what events do not carry
// (queue counts every StatusEveryTicks ticks, worker details every tick while
// they are wanted).
class ConsoleFeed : public QObject
{
    Q_OBJECT

public:
    static constexpr int StatusEveryTicks = 2;

    explicit ConsoleFeed(ControlClient *client, QObject *parent = nullptr);

    PoolModel *pools() const { return m_pools; }
    QueueModel *queues() const { return m_queues; }
    WorkerModel *workers() const { return m_workers; }
    ThroughputModel *throughput() const { return m_throughput; }
    EventLogModel *events() const { return m_events; }
    const PipelineGraph &graph() const { return m_graph; }
    QJsonObject lastStatus() const { return m_status; }

    // Publishes every model's pending changes now (tests).
    void flush();

Q_SIGNALS:
    void graphChanged();
    void statusChanged(const QJsonObject &status);

private:
    void onStatus(const QJsonObject &status);
    void onStages(const QJsonObject &stages);
    void onEvent(const QJsonObject &event);

    ControlClient *m_client;
    PoolModel *m_pools;
    QueueModel *m_queues;
    WorkerModel *m_workers;
    ThroughputModel *m_throughput;
    EventLogModel *m_events;
    PipelineGraph m_graph;
    QJsonObject m_status;
    int m_ticks = 0;
};

} // namespace pepsi::console
