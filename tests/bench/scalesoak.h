// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "benchdatabase.h"
#include "benchoptions.h"

#include <QList>

namespace pepsi::bench {

// --scale soak: the 3-stage pipeline fed at --soak-load percent of its
// measured capacity for --soak-minutes, with the server's stock autovacuum.
struct SoakSample
{
    double minute = 0;         // since the feed began
    qint64 inserted = 0;       // messages in so far
    qint64 open = 0;           // pending, running or paused: the backlog
    double messagesPerMin = 0; // finished since the previous sample, per minute
    qint64 heapBytes = 0;      // pg_relation_size('workqueue')
    qint64 indexBytes = 0;     // pg_indexes_size('workqueue')
    qint64 deadTuples = 0;     // pg_stat_user_tables.n_dead_tup
    qint64 liveTuples = 0;
    qint64 autovacuums = 0; // autovacuum_count so far
};

struct SoakResult
{
    double capacityHopsPerSecond = 0; // of the reference run
    double feedMessagesPerSecond = 0;
    QList<SoakSample> samples;
    qint64 daemonCpuUsec = 0;
    int daemonExitCode = -1;
};

Result<SoakResult, QString> runSoak(const BenchOptions &options, BenchDatabase &db, double capacityHopsPerSecond);

void printSoakReport(const BenchOptions &options, const SoakResult &result);

} // namespace pepsi::bench
