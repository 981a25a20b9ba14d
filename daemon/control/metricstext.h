// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "model/snapshots.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <optional>

namespace pepsi {

// What `metrics` exposes: one moment's copies, read in one pass of the event
// loop, and the queue counts (up to OperatorQueries::RecentCountsMs old; absent
// while the database is unreachable).
struct MetricsInput
{
    DaemonInfo info;
    QList<PoolSnapshot> pools;
    StatsSnapshot stats;
    std::optional<QueueCounts> queues;
};

// The Prometheus text exposition format 0.0.4 (doc/operations.rst, Metrics):
// every family named pepsi_dispatch_*, with # HELP and # TYPE, per-stage
// samples labelled `stage` (label values escaped), counters ending in _total.
QString metricsText(const MetricsInput &input, const QDateTime &now);

// A label value as the format wants it: backslash, double quote and newline escaped.
QString escapeLabelValue(const QString &value);

} // namespace pepsi
