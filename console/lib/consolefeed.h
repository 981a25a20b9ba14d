// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "control/snapshots.h"
#include "pipelinegraph.h"

#include <QDateTime>
#include <QJsonObject>
#include <QObject>
#include <QStringList>

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
// they are wanted). When the connection goes, the picture is stale: the
// worker list (whose pids may be gone) is cleared and staleChanged() says
// since when the rest is old. After a reconnection, one line in the log says
// what changed meanwhile: a new daemon (pid), drains that did not survive it.
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
    StatusSnapshot lastStatus() const { return m_status; }
    // The daemon's pool sums, of the last `status` or `tick`, whichever came last.
    PoolTotals poolTotals() const { return m_poolTotals; }
    // When the last snapshot or event came; valid once one did.
    QDateTime lastDataTime() const { return m_lastData; }
    bool isStale() const { return m_stale; }

    // Publishes every model's pending changes now (tests).
    void flush();

Q_SIGNALS:
    void graphChanged();
    void statusChanged(const pepsi::StatusSnapshot &status);
    // poolTotals() changed (a `status` or a `tick` came).
    void poolTotalsChanged();
    // stale: the figures are from `lastData` and no longer live.
    void staleChanged(bool stale, const QDateTime &lastData);

private:
    void onStatus(const StatusSnapshot &status);
    void onStages(const StagesSnapshot &stages);
    void onEvent(const QJsonObject &event);
    void onStateChanged();
    void onVersion(const QJsonObject &version);
    void summarizeReconnection();

    ControlClient *m_client;
    PoolModel *m_pools;
    QueueModel *m_queues;
    WorkerModel *m_workers;
    ThroughputModel *m_throughput;
    EventLogModel *m_events;
    PipelineGraph m_graph;
    StatusSnapshot m_status;
    PoolTotals m_poolTotals;
    int m_ticks = 0;
    QDateTime m_lastData;
    bool m_stale = false;
    // What the picture was when the connection went, for the summary.
    bool m_summaryDue = false;
    QDateTime m_lostAt;
    qint64 m_pidAtLoss = 0;
    qint64 m_pid = 0;
    QStringList m_drainedAtLoss;
};

} // namespace pepsi::console
