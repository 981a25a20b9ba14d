// SPDX-License-Identifier: AGPL-3.0-or-later
#include "report.h"

#include "benchsetup.h"
#include "procstats.h"

#include <QDateTime>
#include <QSysInfo>

#include <algorithm>
#include <cstdio>
#include <unistd.h>

namespace pepsi::bench {

namespace {

// The targets (doc/performance.rst) that one pipeline run can judge. The others are
// printed where they are measured: pickup latency by --latency, the claim
// round by --backlog, the peers by tests/bench/peers/run-peers, fused against
// unfused by two runs (with and without --fused) side by side.
constexpr double TargetRatio = 0.75;
constexpr double TargetCpuUsecPerHop = 10.0;
constexpr double TargetRssMiB = 32.0;
constexpr int TargetRssWorkers = 64;

void row(const char *label, const QString &value)
{
    out(QStringLiteral("  %1 %2").arg(QString::fromUtf8(label), -30).arg(value));
}

QString verdict(double value, bool met)
{
    return num(value, value < 10 ? 2 : 1) + (met ? QStringLiteral(" met") : QStringLiteral(" MISSED"));
}

// "1.23 s = 20.5 µs per hop"
QString cpu(qint64 usec, double hops)
{
    return num(double(usec) / 1e6, 2) + QStringLiteral(" s = ") + num(double(usec) / hops, 1)
        + QStringLiteral(" µs per hop");
}

double cores() { return double(::sysconf(_SC_NPROCESSORS_ONLN)); }

// Everything derived from the raw measurements, in one place.
struct Figures
{
    double hops = 0;
    double messagesPerSecond = 0;
    double hopsPerSecond = 0;
    double steadyHopsPerSecond = 0;
    double daemonPerHop = 0;
    double allPerHop = 0;  // daemon + workers + PostgreSQL
    double otherCores = 0; // busy cores the three parts did not use
    double rssMiB = 0;
    double idsPerRound = 0;
    double tps = 0;
    double ratio = 0;
    double txCpuUsec = 0; // pgbench + PostgreSQL per transaction
    // Share of the worker slots' time (workers() x wall time) in which the
    // slot held no id: waiting for a claim round, starting or recycling; -1: unknown.
    double workersIdle = -1;
};

Figures derive(const BenchOptions &o, const PipelineResult &p, const std::optional<PgbenchResult> &b)
{
    Figures f;
    f.hops = double(o.hops());
    f.messagesPerSecond = p.wallSeconds > 0 ? o.messages / p.wallSeconds : 0;
    f.hopsPerSecond = 3 * f.messagesPerSecond;
    f.steadyHopsPerSecond = 3 * p.steadyMessagesPerSecond;
    f.daemonPerHop = double(p.daemonCpuUsec) / f.hops;
    const qint64 allUsec = p.daemonCpuUsec + p.workersCpuUsec + std::max<qint64>(p.postgresCpuUsec, 0);
    f.allPerHop = double(allUsec) / f.hops;
    if (p.polledSeconds > 0)
        f.otherCores = std::max(0.0, p.machineBusy * cores() - double(allUsec) / 1e6 / p.polledSeconds);
    f.rssMiB = double(p.peakRssKiB) / 1024.0;
    if (p.workersBusyUsec >= 0 && p.wallSeconds > 0)
        f.workersIdle = std::max(0.0, 1.0 - double(p.workersBusyUsec) / (double(o.workers()) * p.wallSeconds * 1e6));
    f.idsPerRound = p.rounds > 0 ? double(p.claimed) / double(p.rounds) : 0;
    if (b) {
        f.tps = b->tps;
        f.ratio = b->tps > 0 ? f.hopsPerSecond / b->tps : 0;
        if (b->transactions > 0)
            f.txCpuUsec = double(b->clientCpuUsec + std::max<qint64>(b->postgresCpuUsec, 0)) / double(b->transactions);
    }
    return f;
}

void printPipeline(const PipelineResult &p, const Figures &f)
{
    out(QStringLiteral("pipeline (server: fsync %1, synchronous_commit %2%3)")
            .arg(p.server.fsync, p.server.synchronousCommit,
                 p.server.fsync == u"on" ? QString() : QStringLiteral("; NOT what users run, --fast-unsafe")));
    row("wall time",
        num(p.wallSeconds, 3) + QStringLiteral(" s (daemon start to the last message done; polled ")
            + num(p.polledSeconds, 2) + QStringLiteral(" s)"));
    row("messages/s", num(f.messagesPerSecond));
    row("stage hops/s", num(f.hopsPerSecond));
    row("steady hops/s (10-90 %)", num(f.steadyHopsPerSecond));
    row("daemon CPU",
        cpu(p.daemonCpuUsec, f.hops) + QStringLiteral(" (")
            + num(100.0 * double(p.daemonSysUsec) / double(std::max<qint64>(p.daemonCpuUsec, 1)))
            + QStringLiteral(" % in the kernel)"));
    // CPU per hop moves with the host's load; how often the loop sleeps and
    // wakes per hop is the design's own figure, and what a wake-up costs.
    row("daemon wake-ups",
        num(double(p.daemonSleeps) / f.hops, 3)
            + QStringLiteral(" per hop (its loop slept %1 times; preempted %2)")
                  .arg(p.daemonSleeps)
                  .arg(p.daemonPreempted));
    row("workers' CPU", cpu(p.workersCpuUsec, f.hops));
    if (f.workersIdle >= 0)
        row("workers' idle share",
            num(100 * f.workersIdle, 1) + QStringLiteral(" % of the worker slots' time they held no id"));
    if (p.postgresCpuUsec >= 0)
        row("PostgreSQL CPU", cpu(p.postgresCpuUsec, f.hops));
    if (p.dispatcherSessionsCpuUsec >= 0)
        row("  of it the daemon's sessions", cpu(p.dispatcherSessionsCpuUsec, f.hops) + QStringLiteral(" (claims)"));
    if (p.commits >= 0)
        row("commits per hop",
            num(double(p.commits) / f.hops, 3)
                + QStringLiteral(" (%1 transactions; pgbench: 1 per transaction)").arg(p.commits));
    row("CPU per hop, all three", num(f.allPerHop, 1) + QStringLiteral(" µs"));
    row("machine busy",
        num(100 * p.machineBusy) + QStringLiteral(" % of ") + num(cores()) + QStringLiteral(" cores; ")
            + num(f.otherCores, 2) + QStringLiteral(" cores to other processes"));
    row("daemon peak RSS", num(f.rssMiB, 1) + QStringLiteral(" MiB"));
    if (p.rounds > 0)
        row("claim rounds",
            QStringLiteral("%1, %2 ids per round (%3 claimed)")
                .arg(p.rounds)
                .arg(num(f.idsPerRound, 1))
                .arg(p.claimed));
    else
        row("claim rounds", QStringLiteral("unknown (no \"stopped after R claim rounds\" line in %1)").arg(p.logFile));
    row("daemon exit status", QString::number(p.daemonExitCode));
    for (const QString &line : p.warnings)
        out(QStringLiteral("  log: ") + line);
}

void printPgbench(const BenchOptions &o, const PgbenchResult &b, const PipelineResult &p, const Figures &f)
{
    out(QStringLiteral("pgbench (one-row UPDATE, -c %1 -j %2 -T %3)")
            .arg(b.clients)
            .arg(b.threads)
            .arg(o.pgbenchSeconds));
    row("TPS", num(b.tps) + QStringLiteral(" (latency ") + num(b.latencyMs, 2) + QStringLiteral(" ms)"));
    if (b.transactions > 0) {
        const double n = double(b.transactions);
        row("CPU per transaction",
            num(f.txCpuUsec, 1) + QStringLiteral(" µs (pgbench ") + num(double(b.clientCpuUsec) / n, 1)
                + QStringLiteral(", PostgreSQL ") + num(double(b.postgresCpuUsec) / n, 1) + u')');
        // When the cores are the bottleneck, both rates are cores / CPU per unit.
        row("CPU-bound ratio",
            num(f.txCpuUsec / f.allPerHop, 2) + QStringLiteral(" (CPU per transaction ÷ CPU per hop)"));
    }
    row("hops/s ÷ TPS",
        num(f.ratio, 2) + QStringLiteral(" (steady ") + num(b.tps > 0 ? 3 * p.steadyMessagesPerSecond / b.tps : 0, 2)
            + u')');
}

} // namespace

void printHeader(const BenchOptions &o)
{
    out(QStringLiteral("pepsi-bench %1 (%2 build), %3, nproc %4, load %5")
            .arg(QDateTime::currentDateTimeUtc().toString(Qt::ISODate), QStringLiteral(PEPSI_BENCH_BUILD_TYPE),
                 QSysInfo::prettyProductName(), num(cores()), loadAverage()));
    if (o.mode == BenchOptions::Mode::Latency)
        out(QStringLiteral("  --latency: %1 cold rows, then %2 rows every %3 ms; 3 stages of pepsi-stage-example, "
                           "PARALLELISM %4, QUEUE_LIMIT %5")
                .arg(o.coldCount)
                .arg(o.latencyCount)
                .arg(o.latencyIntervalMs)
                .arg(o.parallelism)
                .arg(o.queueLimit));
    else if (o.mode == BenchOptions::Mode::Control && o.poolSize > 0)
        out(QStringLiteral("  --control --pool-size: one stage of pepsi-fakeworker, PARALLELISM %1, QUEUE_LIMIT %2, "
                           "every worker full")
                .arg(o.poolSize)
                .arg(o.queueLimit));
    else if (o.mode == BenchOptions::Mode::Control)
        out(QStringLiteral("  --control: %1 messages a run, 3 stages of pepsi-stage-example, PARALLELISM %2, "
                           "QUEUE_LIMIT %3 (%4 workers); clients none, console, status every 100 ms; %5 rounds")
                .arg(o.messages)
                .arg(o.parallelism)
                .arg(o.queueLimit)
                .arg(o.workers())
                .arg(o.controlRepeat));
    else if (o.mode == BenchOptions::Mode::HeldSnapshot)
        out(QStringLiteral("  --hold-snapshot: %1 messages a run, 3 stages of pepsi-stage-example, PARALLELISM %2, "
                           "QUEUE_LIMIT %3 (%4 workers)")
                .arg(o.messages)
                .arg(o.parallelism)
                .arg(o.queueLimit)
                .arg(o.workers()));
    else if (o.mode == BenchOptions::Mode::Scale)
        out(QStringLiteral("  --scale: %1; QUEUE_LIMIT %2 everywhere")
                .arg(o.scaleParts.join(u','), QString::number(o.queueLimit)));
    else if (o.mode == BenchOptions::Mode::Backlog)
        out(QStringLiteral("  --backlog: 3 stages of pepsi-stage-example, PARALLELISM %1, QUEUE_LIMIT %2 (%3 workers)")
                .arg(o.parallelism)
                .arg(o.queueLimit)
                .arg(o.workers()));
    else
        out(QStringLiteral(
                "  %1 messages, 3 stages of pepsi-stage-example, PARALLELISM %2, QUEUE_LIMIT %3%4 (%5 workers)")
                .arg(o.messages)
                .arg(o.parallelism)
                .arg(o.queueLimit)
                .arg(o.maxMessages > 0 ? QStringLiteral(", MAX_MESSAGES %1").arg(o.maxMessages) : QString())
                .arg(o.workers()));
    if (o.analyze)
        out(QStringLiteral("  --analyze: workqueue analyzed after the insert"));
    if (o.mode == BenchOptions::Mode::Control && o.poolSize > 0)
        return; // no reference stage in that run
    // The workers inherit the environment through the daemon.
    out(qEnvironmentVariable("PEPSI_EXAMPLE_COMMIT_BATCHES") == u"0"
            ? QStringLiteral("  the reference stage commits each message on its own (PEPSI_EXAMPLE_COMMIT_BATCHES=0)")
            : QStringLiteral("  the reference stage commits the ids a worker holds together (the default)"));
}

bool printReport(const BenchOptions &o, const PipelineResult &p, const std::optional<PgbenchResult> &b)
{
    const Figures f = derive(o, p, b);
    printPipeline(p, f);
    const bool completed = p.done == o.messages && p.failed == 0 && p.daemonExitCode == 0;
    if (!completed) {
        out(QStringLiteral("  INCOMPLETE: %1 done, %2 failed of %3; exit status %4; log %5")
                .arg(p.done)
                .arg(p.failed)
                .arg(o.messages)
                .arg(p.daemonExitCode)
                .arg(p.logFile));
        for (const QString &sample : p.failureSamples)
            out(QStringLiteral("    ") + sample);
    }
    if (b)
        printPgbench(o, *b, p, f);

    out(QStringLiteral("targets (doc/performance.rst)"));
    if (b)
        row("hops/s >= 0.75 x pgbench TPS",
            verdict(f.ratio, f.ratio >= TargetRatio) + QStringLiteral(" (pgbench at %1 clients)").arg(b->clients));
    row("daemon CPU <= 10 µs per hop", verdict(f.daemonPerHop, f.daemonPerHop <= TargetCpuUsecPerHop));
    // The target is for 64 workers; with fewer the figure is only indicative.
    row("daemon peak RSS <= 32 MiB",
        verdict(f.rssMiB, f.rssMiB <= TargetRssMiB)
            + (o.workers() >= TargetRssWorkers ? QStringLiteral(" (%1 workers)").arg(o.workers())
                                               : QStringLiteral(" (%1 workers; the target is for %2: --parallelism %3)")
                                                     .arg(o.workers())
                                                     .arg(TargetRssWorkers)
                                                     .arg((TargetRssWorkers + o.stages() - 1) / o.stages())));
    row("fused >= unfused", QStringLiteral("compare a --fused run with an unfused one"));
    row(">= 8 x Graphile Worker", QStringLiteral("tests/bench/peers/run-peers"));
    row("pickup p50 <= 2 ms, p99 <= 10 ms", QStringLiteral("pepsi-bench --latency"));
    row("claim round 1 M <= 1.2 x 10 k", QStringLiteral("pepsi-bench --backlog"));
    out(QStringLiteral("  load after: %1").arg(loadAverage()));

    // For scripts (tests/bench/peers/run-peers): key=value, never renamed,
    // only extended. cpu_us_per_hop is the daemon's alone (its historic name);
    // all_us_per_hop adds the workers and PostgreSQL.
    const qint64 pgUsec = std::max<qint64>(p.postgresCpuUsec, 0);
    out(QStringLiteral("RESULT messages=%1 parallelism=%2 queue_limit=%3 wall_s=%4 msgs_per_s=%5 hops_per_s=%6 "
                       "cpu_us_per_hop=%7 rss_mib=%8 rounds=%9 ids_per_round=%10 pgbench_tps=%11 ratio=%12 "
                       "complete=%13 fsync=%14")
            .arg(o.messages)
            .arg(o.parallelism)
            .arg(o.queueLimit)
            .arg(num(p.wallSeconds, 3), num(f.messagesPerSecond), num(f.hopsPerSecond), num(f.daemonPerHop, 1),
                 num(f.rssMiB, 1), QString::number(p.rounds), num(f.idsPerRound, 1))
            .arg(b ? num(f.tps) : QStringLiteral("-"))
            .arg(b ? num(f.ratio, 2) : QStringLiteral("-"), completed ? QStringLiteral("yes") : QStringLiteral("no"),
                 p.server.fsync)
        + QStringLiteral(" synchronous_commit=%1 fused=%2 workers=%3 steady_hops_per_s=%4 daemon_us_per_hop=%5 "
                         "workers_us_per_hop=%6 pg_us_per_hop=%7 all_us_per_hop=%8 pgbench_clients=%9 "
                         "pgbench_us_per_tx=%10 dispatcher_sessions_us_per_hop=%11 commits_per_hop=%12 "
                         "daemon_wakeups_per_hop=%13 workers_idle_share=%14")
              .arg(p.server.synchronousCommit, o.fused ? QStringLiteral("yes") : QStringLiteral("no"))
              .arg(o.workers())
              .arg(num(f.steadyHopsPerSecond), num(f.daemonPerHop, 1), num(double(p.workersCpuUsec) / f.hops, 1),
                   p.postgresCpuUsec >= 0 ? num(double(pgUsec) / f.hops, 1) : QStringLiteral("-"), num(f.allPerHop, 1))
              .arg(b ? QString::number(b->clients) : QStringLiteral("-"),
                   b && b->transactions > 0 ? num(f.txCpuUsec, 1) : QStringLiteral("-"))
              .arg(p.dispatcherSessionsCpuUsec >= 0 ? num(double(p.dispatcherSessionsCpuUsec) / f.hops, 1)
                                                    : QStringLiteral("-"),
                   p.commits >= 0 ? num(double(p.commits) / f.hops, 3) : QStringLiteral("-"))
              .arg(num(double(p.daemonSleeps) / f.hops, 3),
                   f.workersIdle >= 0 ? num(f.workersIdle, 3) : QStringLiteral("-")));
    return completed;
}

} // namespace pepsi::bench
