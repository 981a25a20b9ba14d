// SPDX-License-Identifier: AGPL-3.0-or-later
// pepsi-bench: the pipeline benchmark of doc/performance.rst. Not a QTest:
// it prints figures and exits 0 when the run completed (targets met or not),
// 1 when it could not complete, 64 on a bad command line.
#include "benchoptions.h"
#include "pgbenchrun.h"
#include "pipelinerun.h"
#include "procstats.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QSysInfo>

#include <cstdio>
#include <unistd.h>

using namespace pepsi::bench;

namespace {

// The targets of issue 3.
constexpr double TargetRatio = 0.6;
constexpr double TargetCpuUsecPerHop = 15.0;
constexpr double TargetRssMiB = 40.0;

void out(const QString &text)
{
    std::fputs(text.toUtf8().constData(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
}

QString row(const char *label, const QString &value)
{
    return QStringLiteral("  %1 %2").arg(QString::fromUtf8(label), -30).arg(value);
}

QString num(double value, int decimals = 0)
{
    return QString::number(value, 'f', decimals);
}

QString verdict(bool met)
{
    return met ? QStringLiteral("met") : QStringLiteral("MISSED");
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("pepsi-bench"));

    const auto parsed = parseBenchOptions(app.arguments());
    if (!parsed) {
        std::fprintf(stderr, "pepsi-bench: %s\n", parsed.error().toUtf8().constData());
        return 64;
    }
    const BenchOptions &o = parsed.value();
    if (o.fused) {
        out(QStringLiteral("pepsi-bench: --fused: not yet"));
        return 1;
    }

    const QString loadBefore = loadAverage();
    out(QStringLiteral("pepsi-bench %1 (%2 build), %3, nproc %4, load %5")
            .arg(QDateTime::currentDateTimeUtc().toString(Qt::ISODate), QStringLiteral(PEPSI_BENCH_BUILD_TYPE),
                 QSysInfo::prettyProductName())
            .arg(::sysconf(_SC_NPROCESSORS_ONLN))
            .arg(loadBefore));
    out(QStringLiteral("  %1 messages, 3 stages of pepsi-stage-example, PARALLELISM %2, QUEUE_LIMIT %3%4 (%5 workers)")
            .arg(o.messages)
            .arg(o.parallelism)
            .arg(o.queueLimit)
            .arg(o.maxMessages > 0 ? QStringLiteral(", MAX_MESSAGES %1").arg(o.maxMessages) : QString())
            .arg(o.workers()));
    if (o.analyze)
        out(QStringLiteral("  --analyze: workqueue analyzed after the insert"));

    const auto pipeline = runPipeline(o);
    if (!pipeline) {
        std::fprintf(stderr, "pepsi-bench: %s\n", pipeline.error().toUtf8().constData());
        return 1;
    }
    const PipelineResult &p = pipeline.value();
    const double hops = double(o.hops());
    const double messagesPerSecond = p.wallSeconds > 0 ? o.messages / p.wallSeconds : 0;
    const double hopsPerSecond = 3 * messagesPerSecond;
    const double cpuPerHop = double(p.daemonCpuUsec) / hops;
    const double rssMiB = double(p.peakRssKiB) / 1024.0;

    out(QStringLiteral("pipeline"));
    out(row("wall time", num(p.wallSeconds, 3) + QStringLiteral(" s (daemon start to the last message done; polled ")
                             + num(p.polledSeconds, 2) + QStringLiteral(" s)")));
    out(row("messages/s", num(messagesPerSecond)));
    out(row("stage hops/s", num(hopsPerSecond)));
    out(row("steady hops/s (10-90 %)", num(3 * p.steadyMessagesPerSecond)));
    out(row("daemon CPU", num(p.daemonCpuUsec / 1e6, 2) + QStringLiteral(" s = ") + num(cpuPerHop, 1)
                              + QStringLiteral(" µs per hop (") + num(100.0 * double(p.daemonSysUsec) / double(std::max<qint64>(p.daemonCpuUsec, 1)))
                              + QStringLiteral(" % in the kernel)")));
    out(row("workers' CPU", num(p.workersCpuUsec / 1e6, 2) + QStringLiteral(" s = ")
                                + num(double(p.workersCpuUsec) / hops, 1) + QStringLiteral(" µs per hop")));
    const double postgresPerHop = p.postgresCpuUsec >= 0 ? double(p.postgresCpuUsec) / hops : -1;
    if (p.postgresCpuUsec >= 0)
        out(row("PostgreSQL CPU", num(p.postgresCpuUsec / 1e6, 2) + QStringLiteral(" s = ") + num(postgresPerHop, 1)
                                      + QStringLiteral(" µs per hop")));
    const double pipelinePerHop = double(p.daemonCpuUsec + p.workersCpuUsec + std::max<qint64>(p.postgresCpuUsec, 0)) / hops;
    out(row("CPU per hop, all three", num(pipelinePerHop, 1) + QStringLiteral(" µs")));
    out(row("machine busy", num(100 * p.machineBusy) + QStringLiteral(" % of ")
                                + QString::number(::sysconf(_SC_NPROCESSORS_ONLN)) + QStringLiteral(" cores")));
    out(row("daemon peak RSS", num(rssMiB, 1) + QStringLiteral(" MiB")));
    if (p.rounds > 0)
        out(row("claim rounds", QStringLiteral("%1, %2 ids per round (%3 claimed)")
                                    .arg(p.rounds)
                                    .arg(num(double(p.claimed) / double(p.rounds), 1))
                                    .arg(p.claimed)));
    else
        out(row("claim rounds", QStringLiteral("unknown (no \"stopped after R claim rounds\" line in %1)").arg(p.logFile)));
    out(row("daemon exit status", QString::number(p.daemonExitCode)));
    for (const QString &line : p.warnings)
        out(QStringLiteral("  log: ") + line);

    bool completed = p.done == o.messages && p.failed == 0 && p.daemonExitCode == 0;
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

    double ratio = 0;
    double tps = 0;
    if (o.runPgbench) {
        const auto bench = runPgbench(o, o.workers());
        if (!bench) {
            std::fprintf(stderr, "pepsi-bench: %s\n", bench.error().toUtf8().constData());
            return 1;
        }
        tps = bench->tps;
        ratio = tps > 0 ? hopsPerSecond / tps : 0;
        out(QStringLiteral("pgbench (one-row UPDATE, -c %1 -j %2 -T %3)")
                .arg(bench->clients)
                .arg(bench->threads)
                .arg(o.pgbenchSeconds));
        out(row("TPS", num(bench->tps) + QStringLiteral(" (latency ") + num(bench->latencyMs, 2)
                           + QStringLiteral(" ms)")));
        if (bench->transactions > 0) {
            const double perTx = double(bench->clientCpuUsec + std::max<qint64>(bench->postgresCpuUsec, 0))
                / double(bench->transactions);
            out(row("CPU per transaction", num(perTx, 1) + QStringLiteral(" µs (pgbench ")
                                               + num(double(bench->clientCpuUsec) / double(bench->transactions), 1)
                                               + QStringLiteral(", PostgreSQL ")
                                               + num(double(bench->postgresCpuUsec) / double(bench->transactions), 1)
                                               + u')'));
            // When the cores are the bottleneck both rates are cores / CPU per unit.
            out(row("CPU-bound ratio", num(perTx / pipelinePerHop, 2)
                                           + QStringLiteral(" (CPU per transaction ÷ CPU per hop)")));
        }
        out(row("hops/s ÷ TPS", num(ratio, 2) + QStringLiteral(" (steady ")
                                    + num(3 * p.steadyMessagesPerSecond / bench->tps, 2) + u')'));
    }

    out(QStringLiteral("targets (issue 3)"));
    if (o.runPgbench)
        out(row("ratio >= 0.6", num(ratio, 2) + u' ' + verdict(ratio >= TargetRatio)));
    out(row("daemon CPU <= 15 µs per hop", num(cpuPerHop, 1) + u' ' + verdict(cpuPerHop <= TargetCpuUsecPerHop)));
    out(row("daemon peak RSS <= 40 MiB", num(rssMiB, 1) + u' ' + verdict(rssMiB <= TargetRssMiB)));
    out(QStringLiteral("  load after: %1").arg(loadAverage()));

    // One line for scripts that collect runs.
    out(QStringLiteral("RESULT messages=%1 parallelism=%2 queue_limit=%3 wall_s=%4 msgs_per_s=%5 hops_per_s=%6 "
                       "cpu_us_per_hop=%7 rss_mib=%8 rounds=%9 ids_per_round=%10 pgbench_tps=%11 ratio=%12 "
                       "complete=%13")
            .arg(o.messages)
            .arg(o.parallelism)
            .arg(o.queueLimit)
            .arg(num(p.wallSeconds, 3), num(messagesPerSecond), num(hopsPerSecond), num(cpuPerHop, 1),
                 num(rssMiB, 1), QString::number(p.rounds),
                 num(p.rounds > 0 ? double(p.claimed) / double(p.rounds) : 0, 1))
            .arg(num(tps))
            .arg(num(ratio, 2), completed ? QStringLiteral("yes") : QStringLiteral("no")));
    return completed ? 0 : 1;
}
