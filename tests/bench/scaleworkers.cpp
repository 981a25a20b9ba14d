// SPDX-License-Identifier: AGPL-3.0-or-later
#include "scaleworkers.h"

#include "benchsetup.h"
#include "scalechains.h"

#include <QVariant>

namespace pepsi::bench {

namespace {

constexpr int Stages = 50;
constexpr int Parallelism = 10;
// Messages at each stage at the start, per worker slot: enough that every
// stage asks for all its workers at once.
constexpr int MessagesPerSlot = 2;

} // namespace

Result<TopologyRun, QString> runWorkers(const BenchOptions &o, BenchDatabase &db, bool statStatements)
{
    const ScaleTopology topology = chainTopology(Stages, Parallelism, o.queueLimit);
    // Each worker holds a session; the dispatcher three, this driver one.
    const int needed = topology.workers() + 3 + 1;
    const int allowed = db.scalar(QStringLiteral("SHOW max_connections")).toInt();
    const int reserved = db.scalar(QStringLiteral("SHOW superuser_reserved_connections")).toInt();
    if (allowed - reserved < needed)
        return QStringLiteral("workers: max_connections is %1 (%2 reserved), %3 sessions are needed; run-bench --scale "
                              "raises it")
            .arg(allowed)
            .arg(reserved)
            .arg(needed);
    const qint64 messages = qint64(Stages) * Parallelism * o.queueLimit * MessagesPerSlot;
    return runTopology(o, db, topology, messages, true, statStatements);
}

void printWorkersReport(const TopologyRun &w, const TopologyRun &ref)
{
    out(QStringLiteral("workers: %1 stages x PARALLELISM %2 = %3 workers (and server sessions), %4 messages spread "
                       "over the stages (%5 hops)")
            .arg(w.stages)
            .arg(w.parallelism)
            .arg(w.workers)
            .arg(w.messages)
            .arg(w.hops));
    out(QStringLiteral("  time from start to a full pool      %1")
            .arg(w.fullPoolSeconds >= 0 ? QStringLiteral("%1 s").arg(num(w.fullPoolSeconds, 2))
                                        : QStringLiteral("never (most alive at once: %1)").arg(w.mostWorkers)));
    out(QStringLiteral("  daemon RSS at the full pool         %1 MiB (peak %2 MiB; reference %3 MiB with %4 workers)")
            .arg(num(double(w.rssAtFullKiB) / 1024.0, 1), num(double(w.peakRssKiB) / 1024.0, 1),
                 num(double(ref.peakRssKiB) / 1024.0, 1), QString::number(ref.workers)));
    out(QStringLiteral("  daemon descriptors                  %1 at the full pool, %2 at most (reference %3)")
            .arg(w.fdsAtFull)
            .arg(w.mostFds)
            .arg(ref.mostFds));
    out(QStringLiteral("  hops/s                              %1 (%2 x the %3-worker reference, %4)")
            .arg(num(w.hopsPerSecond()), ratio(w.hopsPerSecond(), ref.hopsPerSecond()), QString::number(ref.workers),
                 num(ref.hopsPerSecond())));
    out(QStringLiteral("  daemon CPU per hop                  %1 µs (%2 x the reference, %3 µs)")
            .arg(num(w.usecPerHop(), 1), ratio(w.usecPerHop(), ref.usecPerHop()), num(ref.usecPerHop(), 1)));
    if (w.cpuAtFullUsec >= 0)
        out(QStringLiteral("  daemon CPU to a full pool           %1 ms (%2 ms per worker started)")
                .arg(num(double(w.cpuAtFullUsec) / 1000.0, 0), num(double(w.cpuAtFullUsec) / 1000.0 / w.workers, 2)));
    out(QStringLiteral("  claim round                         %1 ms, %2 ids (reference %3 ms, %4 ids)")
            .arg(num(w.claimMeanMs, 3), num(w.idsPerRound(), 1), num(ref.claimMeanMs, 3), num(ref.idsPerRound(), 1)));
    out(QStringLiteral("RESULT mode=scale part=workers stages=%1 parallelism=%2 workers=%3 hops=%4 seconds=%5 "
                       "hops_per_s=%6 cpu_us_per_hop=%7 full_pool_s=%8 rss_full_kib=%9 peak_rss_kib=%10 "
                       "fds_full=%11 fds_max=%12 most_workers=%13 claim_mean_ms=%14 ids_per_round=%15 "
                       "ref_cpu_us_per_hop=%16 log_rounds=%17 log_claimed=%18")
            .arg(w.stages)
            .arg(w.parallelism)
            .arg(w.workers)
            .arg(w.hops)
            .arg(num(w.seconds, 3), num(w.hopsPerSecond()), num(w.usecPerHop(), 2), num(w.fullPoolSeconds, 3),
                 QString::number(w.rssAtFullKiB), QString::number(w.peakRssKiB), QString::number(w.fdsAtFull),
                 QString::number(w.mostFds), QString::number(w.mostWorkers))
            .arg(num(w.claimMeanMs, 3), num(w.idsPerRound(), 2), num(ref.usecPerHop(), 2), QString::number(w.logRounds),
                 QString::number(w.logClaimed)));
}

} // namespace pepsi::bench
