// SPDX-License-Identifier: AGPL-3.0-or-later
#include "scalepipeline.h"

#include "benchsetup.h"
#include "procstats.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QVariant>

#include <algorithm>
#include <csignal>

namespace pepsi::bench {

namespace {

// The daemon's last words: "stopped after R claim rounds, C messages claimed".
void readRounds(const QString &logFile, TopologyRun *run)
{
    QFile file(logFile);
    if (!file.open(QIODevice::ReadOnly))
        return;
    static const QRegularExpression roundsLine(QStringLiteral("after (\\d+) claim rounds, (\\d+) messages claimed"));
    while (!file.atEnd()) {
        if (const auto m = roundsLine.match(QString::fromUtf8(file.readLine())); m.hasMatch()) {
            run->logRounds = m.captured(1).toLongLong();
            run->logClaimed = m.captured(2).toLongLong();
        }
    }
}

// The pool as /proc shows it at one poll: the first time every worker is
// alive, the daemon's RSS and descriptors then; the most of each.
void samplePool(qint64 pid, double seconds, TopologyRun *run)
{
    const int workers = liveChildrenCount(pid);
    const int fds = openDescriptors(pid);
    run->mostWorkers = std::max(run->mostWorkers, workers);
    run->mostFds = std::max(run->mostFds, fds);
    if (run->fullPoolSeconds < 0 && workers >= run->workers) {
        run->fullPoolSeconds = seconds;
        const ProcessSample sample = sampleProcess(pid);
        run->rssAtFullKiB = sample.rssKiB;
        run->cpuAtFullUsec = sample.cpuUsec;
        run->fdsAtFull = fds;
    }
}

} // namespace

Result<TopologyRun, QString> runTopology(const BenchOptions &o, BenchDatabase &db, const ScaleTopology &topology,
                                         qint64 messages, bool spread, bool statStatements,
                                         std::optional<qint64> finished)
{
    TopologyRun run;
    run.name = topology.name;
    run.stages = int(topology.stages.size());
    run.parallelism = topology.parallelism;
    run.workers = topology.workers();
    run.messages = messages;
    const auto config = writeTopologyConfig(o, topology);
    if (!config)
        return config.error();
    if (finished) {
        progress(QStringLiteral("scale: %1 done rows, VACUUM ANALYZE, CHECKPOINT").arg(*finished));
        if (auto error = fillTopologyHistory(db, topology, *finished))
            return *error;
    }
    const auto hops = finished ? insertTopologyMessages(db, topology, messages, spread)
                               : fillTopology(db, topology, messages, spread);
    if (!hops)
        return hops.error();
    run.hops = hops.value();
    if (statStatements && !db.exec(QStringLiteral("SELECT pg_stat_statements_reset()")))
        return db.lastError();

    const QString logFile = o.workDir + QStringLiteral("/daemon.log");
    progress(QStringLiteral("scale: %1, %2 workers, %3 messages%4 (%5 hops)")
                 .arg(run.name)
                 .arg(run.workers)
                 .arg(messages)
                 .arg(spread ? QStringLiteral(" spread over the stages") : QString())
                 .arg(run.hops));
    run.loadAtStart = loadAverage();
    QProcess daemon;
    QElapsedTimer clock;
    clock.start();
    if (auto error = startDaemon(o, *config, logFile, &daemon))
        return *error;
    const qint64 pid = daemon.processId();
    const QString leftSql = anyOpenRowSql();
    const QString openSql = openRowCountSql();
    qint64 lastOpen = -1;
    QElapsedTimer sinceProgress;
    sinceProgress.start();
    for (int poll = 1;; ++poll) {
        if (daemon.waitForFinished(100))
            return QStringLiteral("the daemon exited (status %1) during %2; see %3")
                .arg(daemon.exitCode())
                .arg(run.name, logFile);
        samplePool(pid, double(clock.nsecsElapsed()) / 1e9, &run);
        const QVariant left = db.scalar(leftSql);
        if (!left.isValid())
            return db.lastError();
        if (!left.toBool())
            break;
        if (poll % 50 != 0) // every 5 s: progress, and whether it stalled
            continue;
        const qint64 open = db.scalar(openSql).toLongLong();
        progress(QStringLiteral("%1 s: %2 of %3 messages open, %4 workers")
                     .arg(clock.elapsed() / 1000)
                     .arg(open)
                     .arg(messages)
                     .arg(run.mostWorkers));
        if (open != lastOpen) {
            lastOpen = open;
            sinceProgress.restart();
        } else if (sinceProgress.elapsed() > o.stallSeconds * 1000LL) {
            ::kill(pid_t(pid), SIGKILL);
            daemon.waitForFinished(10'000);
            return QStringLiteral("%1: no message finished for %2 s; the daemon was killed; see %3")
                .arg(run.name)
                .arg(o.stallSeconds)
                .arg(logFile);
        }
    }
    run.seconds = double(clock.nsecsElapsed()) / 1e9;
    const ProcessSample sample = sampleProcess(pid);
    run.daemonCpuUsec = sample.cpuUsec;
    run.peakRssKiB = sample.peakRssKiB;
    const auto stopped = stopDaemon(&daemon, logFile);
    if (!stopped)
        return stopped.error();
    run.daemonExitCode = stopped.value();
    readRounds(logFile, &run);
    if (statStatements) {
        const ClaimStatement claim = readClaimStatement(db);
        run.claimCalls = claim.calls;
        run.claimMeanMs = claim.meanMs;
    }
    return run;
}

} // namespace pepsi::bench
