// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "benchoptions.h"
#include "serverdurability.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace pepsi::bench {

struct PipelineResult
{
    qint64 done = 0;
    qint64 failed = 0;                     // failed or timeout: the run does not count
    QStringList failureSamples;            // a few state.dispatch_error values
    double wallSeconds = 0;                // daemon start -> the last message done (from the rows' updated)
    double polledSeconds = 0;              // the same, as this driver saw it (200 ms polls)
    double steadyMessagesPerSecond = 0;    // between 10 % and 90 % of the messages done
    qint64 daemonCpuUsec = 0;              // utime + stime just before SIGTERM
    qint64 daemonSysUsec = 0;              // its stime part
    qint64 daemonSleeps = 0;               // its main thread's voluntary context switches: its wake-ups
    qint64 daemonPreempted = 0;            // and involuntary ones: the host's noise
    qint64 postgresCpuUsec = -1;           // the postmaster and all its backends during the run; -1: unknown
    qint64 dispatcherSessionsCpuUsec = -1; // of that, the daemon's own sessions (claims, LISTEN); -1: unknown
    qint64 commits = -1;                   // transactions committed in the database during the run; -1: unknown
    qint64 workersCpuUsec = 0;             // the workers' utime + stime, reaped and alive, at the same instant
    qint64 workersBusyUsec = -1;           // stage_stats.busy_usec gained: time the workers held an id; -1: unknown
    qint64 peakRssKiB = 0;                 // the daemon's VmHWM
    double machineBusy = 0;                // share of all cores busy during the run
    qint64 startEpochMs = 0;               // when the daemon was started
    qint64 rounds = -1;                    // from the daemon's "rounds R claimed C" line
    qint64 claimed = -1;
    int daemonExitCode = -1;
    QStringList warnings; // WARNING/ERROR lines of the daemon's log (the first few)
    QString logFile;
    ServerDurability server;
};

// What a mode does around the run: before the daemon starts (the queue
// filled) and once every message is done (the daemon still running). An
// error ends the run.
struct PipelineHooks
{
    std::function<std::optional<QString>()> beforeStart;
    std::function<std::optional<QString>()> whenDone;
};

// Prepares the queue and the configuration, runs the daemon until every
// message is done, stops it and collects the figures. The error says what
// went wrong (the daemon's log is kept in the work directory).
Result<PipelineResult, QString> runPipeline(const BenchOptions &options, const PipelineHooks &hooks = {});

} // namespace pepsi::bench
