// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "benchoptions.h"
#include "serverdurability.h"

#include <QList>
#include <QString>

namespace pepsi::bench {

// One run of the pipeline over a pending backlog beside finished rows.
struct BacklogRun
{
    int pending = 0;
    int finished = 0;
    bool drained = false;     // all pending rows done (else stopped after --backlog-seconds)
    double seconds = 0;       // daemon start -> drained or time up, as the driver saw it
    qint64 hops = 0;          // stage hops made by the backlog's rows in that time
    qint64 daemonCpuUsec = 0; // at the same instant
    qint64 postgresCpuUsec = -1;
    // The claim statement as pg_stat_statements saw it (server-side execution
    // time, lock waits included); calls < 0: pg_stat_statements not loaded.
    qint64 claimCalls = -1;
    double claimMeanMs = 0;
    double claimMaxMs = 0;
    double claimStddevMs = 0;
    qint64 claimRows = 0;
    // Shared buffers one round touched (hit + read), mean: where its time goes.
    double claimBuffers = 0;
    int vacuums = 0;    // VACUUMs run by --vacuum-seconds
    QString claimQuery; // its first characters, to show what was matched
    int daemonExitCode = -1;
};

struct BacklogResult
{
    QList<BacklogRun> runs;
    ServerDurability server;
    QString logFile;
};

// For each --backlog-sizes entry: a fresh table with --finished done rows and
// that many pending ones, VACUUM ANALYZE, then the daemon until drained or
// --backlog-seconds.
Result<BacklogResult, QString> runBacklog(const BenchOptions &options);

// The runs side by side, the target (claim round at the largest backlog <=
// 1.2 x at the smallest) and a RESULT line per run.
bool printBacklogReport(const BenchOptions &options, const BacklogResult &result);

} // namespace pepsi::bench
