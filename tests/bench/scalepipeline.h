// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "benchdatabase.h"
#include "benchoptions.h"
#include "scaletopology.h"

#include <QString>

#include <optional>

namespace pepsi::bench {

// One run of a --scale topology until every message is done, with what
// /proc, pg_stat_statements and the daemon's log tell about it.
struct TopologyRun
{
    QString name;
    int stages = 0;
    int parallelism = 0;
    int workers = 0; // configured: stages x PARALLELISM
    qint64 messages = 0;
    qint64 hops = 0;
    double seconds = 0;       // daemon start -> nothing open, as the driver saw it (100 ms polls)
    qint64 daemonCpuUsec = 0; // utime + stime at that instant
    QString loadAtStart;      // /proc/loadavg as the daemon started, after the fill
    // The claim statement (pg_stat_statements, reset before the run): the
    // server's time per round; calls < 0: unknown. Its rows are not ids
    // (beside the claimed ones it returns a row per stage it asked for and a
    // summary), so ids per round come from the daemon's own count: "after R
    // claim rounds, C messages claimed".
    qint64 claimCalls = -1;
    double claimMeanMs = 0;
    qint64 logRounds = -1;
    qint64 logClaimed = -1;

    double idsPerRound() const { return logRounds > 0 ? double(logClaimed) / double(logRounds) : 0; }
    // The pool: how long until every configured worker was alive at once
    // (-1: never), the most seen at once, and the daemon then and at its peak.
    double fullPoolSeconds = -1;
    int mostWorkers = 0;
    qint64 rssAtFullKiB = 0;
    qint64 cpuAtFullUsec = -1; // the daemon's utime + stime then
    qint64 peakRssKiB = 0;     // VmHWM at the end
    int fdsAtFull = -1;
    int mostFds = 0;
    int daemonExitCode = -1;

    double hopsPerSecond() const { return seconds > 0 ? double(hops) / seconds : 0; }
    double usecPerHop() const { return hops > 0 ? double(daemonCpuUsec) / double(hops) : 0; }
};

// Writes the topology's configuration, fills the queue (`spread`: over every
// stage; with `finished`, beside that many done rows: fillTopologyHistory),
// resets pg_stat_statements when `statStatements`, runs the daemon until
// nothing is open and stops it.
Result<TopologyRun, QString> runTopology(const BenchOptions &options, BenchDatabase &db, const ScaleTopology &topology,
                                         qint64 messages, bool spread, bool statStatements,
                                         std::optional<qint64> finished = std::nullopt);

} // namespace pepsi::bench
