// SPDX-License-Identifier: AGPL-3.0-or-later
#include "scalechains.h"

#include "benchsetup.h"

#include <algorithm>

namespace pepsi::bench {

namespace {

constexpr int FanOutWidth = 20;

// The long chains and the fan-out run one worker per stage: 100 stages at
// the default PARALLELISM 4 would be 400 workers, and the part is about the
// stage count, not the worker count (the workers part is).
constexpr int LongParallelism = 1;

} // namespace

QString ratio(double value, double reference)
{
    return value > 0 && reference > 0 ? num(value / reference, 2) : QStringLiteral("-");
}

Result<TopologyRun, QString> runReferenceChain(const BenchOptions &o, BenchDatabase &db, bool statStatements)
{
    const ScaleTopology chain = chainTopology(3, o.parallelism, o.queueLimit);
    return runTopology(o, db, chain, o.scaleHops / 3, false, statStatements);
}

Result<ChainsResult, QString> runChains(const BenchOptions &o, BenchDatabase &db, const TopologyRun &reference,
                                        bool statStatements)
{
    ChainsResult result;
    result.runs << reference;
    QList<ScaleTopology> topologies;
    for (const int stages : {10, 50, 100})
        topologies << chainTopology(stages, LongParallelism, o.queueLimit);
    topologies << fanOutTopology(FanOutWidth, LongParallelism, o.queueLimit);
    for (const ScaleTopology &topology : topologies) {
        // Every message makes hopsFrom(entry) hops: the same total through each.
        const int perMessage = topology.hopsFrom(topology.stages.constFirst());
        auto run = runTopology(o, db, topology, std::max(1, o.scaleHops / perMessage), false, statStatements);
        if (!run)
            return run.error();
        result.runs << run.value();
    }
    return result;
}

void printChainsReport(const BenchOptions &o, const ChainsResult &r)
{
    out(QStringLiteral("chains: about %1 hops through each, from an empty pipeline until drained; 3 stages at "
                       "PARALLELISM %2 (the reference, the default run), the others at PARALLELISM %3; QUEUE_LIMIT %4")
            .arg(o.scaleHops)
            .arg(o.parallelism)
            .arg(LongParallelism)
            .arg(o.queueLimit));
    out(QStringLiteral("  %1 %2 %3 %4 %5 %6 %7 %8 %9 %10 %11")
            .arg(QStringLiteral("run"), -16)
            .arg(QStringLiteral("workers"), 7)
            .arg(QStringLiteral("hops"), 7)
            .arg(QStringLiteral("hops/s"), 7)
            .arg(QStringLiteral("×3st"), 5)
            .arg(QStringLiteral("daemon µs/hop"), 13)
            .arg(QStringLiteral("×3st"), 5)
            .arg(QStringLiteral("claim ms"), 9)
            .arg(QStringLiteral("×3st"), 5)
            .arg(QStringLiteral("ids/round"), 9)
            .arg(QStringLiteral("×3st"), 5));
    if (r.runs.isEmpty())
        return;
    const TopologyRun &ref = r.runs.constFirst();
    for (const TopologyRun &run : r.runs) {
        const bool claims = run.claimCalls > 0;
        out(QStringLiteral("  %1 %2 %3 %4 %5 %6 %7 %8 %9 %10 %11")
                .arg(run.name, -16)
                .arg(run.workers, 7)
                .arg(run.hops, 7)
                .arg(num(run.hopsPerSecond()), 7)
                .arg(ratio(run.hopsPerSecond(), ref.hopsPerSecond()), 5)
                .arg(num(run.usecPerHop(), 1), 13)
                .arg(ratio(run.usecPerHop(), ref.usecPerHop()), 5)
                .arg(claims ? num(run.claimMeanMs, 3) : QStringLiteral("-"), 9)
                .arg(ratio(run.claimMeanMs, ref.claimMeanMs), 5)
                .arg(run.logRounds > 0 ? num(run.idsPerRound(), 1) : QStringLiteral("-"), 9)
                .arg(ratio(run.idsPerRound(), ref.idsPerRound()), 5));
    }
    for (const TopologyRun &run : r.runs) {
        out(QStringLiteral("RESULT mode=scale part=chains run=%1 stages=%2 parallelism=%3 workers=%4 messages=%5 "
                           "hops=%6 seconds=%7 hops_per_s=%8 cpu_us_per_hop=%9 claim_calls=%10 claim_mean_ms=%11 "
                           "ids_per_round=%12 log_rounds=%13 log_claimed=%14")
                .arg(QString(run.name).replace(u' ', u'-'))
                .arg(run.stages)
                .arg(run.parallelism)
                .arg(run.workers)
                .arg(run.messages)
                .arg(run.hops)
                .arg(num(run.seconds, 3), num(run.hopsPerSecond()), num(run.usecPerHop(), 2),
                     QString::number(run.claimCalls), num(run.claimMeanMs, 3), num(run.idsPerRound(), 2),
                     QString::number(run.logRounds), QString::number(run.logClaimed)));
    }
}

} // namespace pepsi::bench
