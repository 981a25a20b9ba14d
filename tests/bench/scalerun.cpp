// SPDX-License-Identifier: AGPL-3.0-or-later
#include "scalerun.h"

#include "backlogrun.h"
#include "benchdatabase.h"
#include "benchsetup.h"
#include "scalechains.h"
#include "scalehistory.h"
#include "scaleidle.h"
#include "scaleplots.h"
#include "scalesoak.h"
#include "scaleworkers.h"

#include <QVariant>

#include <optional>

namespace pepsi::bench {

namespace {

int failed(const QString &error)
{
    progress(error);
    return 1;
}

// The deep backlog against the shallow one, the first size against the last.
void printBacklogRatios(const BacklogResult &r)
{
    if (r.runs.size() < 2)
        return;
    const BacklogRun &shallow = r.runs.constFirst();
    const BacklogRun &deep = r.runs.constLast();
    out(QStringLiteral("  claim round at %1 pending against %2: %3 x; drain rate %4 x (%5 against %6 hops/s)")
            .arg(deep.pending)
            .arg(shallow.pending)
            .arg(ratio(deep.claimMeanMs, shallow.claimMeanMs),
                 ratio(double(deep.hops) / deep.seconds, double(shallow.hops) / shallow.seconds),
                 num(double(deep.hops) / deep.seconds), num(double(shallow.hops) / shallow.seconds)));
}

} // namespace

int runScale(const BenchOptions &o)
{
    const QStringList &parts = o.scaleParts;
    // Its own connection name: the backlog part opens the bench's usual one.
    BenchDatabase db(QStringLiteral("pepsi-bench-scale"));
    if (auto error = prepareWorkDir(o))
        return failed(*error);
    if (!db.open(o.database))
        return failed(db.lastError());
    const bool statStatements = statStatementsLoaded(db);
    if (!statStatements)
        progress(QStringLiteral("pg_stat_statements is not loaded (run-bench --scale preloads it): no claim-round "
                                "times, no statement counts"));
    out(QStringLiteral("server: fsync %1, synchronous_commit %2, max_connections %3, autovacuum %4")
            .arg(db.scalar(QStringLiteral("SHOW fsync")).toString(),
                 db.scalar(QStringLiteral("SHOW synchronous_commit")).toString(),
                 db.scalar(QStringLiteral("SHOW max_connections")).toString(),
                 db.scalar(QStringLiteral("SHOW autovacuum")).toString()));

    // The 3-stage chain at the defaults: what chains, workers and soak compare with.
    std::optional<TopologyRun> reference;
    if (parts.contains(QStringLiteral("chains")) || parts.contains(QStringLiteral("workers"))
        || parts.contains(QStringLiteral("soak"))) {
        auto run = runReferenceChain(o, db, statStatements);
        if (!run)
            return failed(run.error());
        reference = run.value();
    }
    std::optional<ChainsResult> chains;
    std::optional<BacklogResult> backlog;
    std::optional<HistoryResult> history;
    std::optional<SoakResult> soak;
    bool complete = true;
    for (const QString &part : parts) {
        if (part == QLatin1String("chains")) {
            auto run = runChains(o, db, *reference, statStatements);
            if (!run)
                return failed(run.error());
            chains = run.value();
            printChainsReport(o, *chains);
            for (const TopologyRun &r : chains->runs)
                complete = complete && r.daemonExitCode == 0;
        } else if (part == QLatin1String("workers")) {
            auto run = runWorkers(o, db, statStatements);
            if (!run)
                return failed(run.error());
            printWorkersReport(run.value(), *reference);
            complete = complete && run.value().daemonExitCode == 0;
        } else if (part == QLatin1String("backlog")) {
            BenchOptions deep = o;
            deep.finishedRows = o.scaleFinished;
            deep.backlogVacuum = false;
            auto run = runBacklog(deep);
            if (!run)
                return failed(run.error());
            backlog = run.value();
            complete = printBacklogReport(deep, *backlog) && complete;
            printBacklogRatios(*backlog);
        } else if (part == QLatin1String("history")) {
            auto run = runHistory(o, db, statStatements);
            if (!run)
                return failed(run.error());
            history = run.value();
            complete = printHistoryReport(o, *history) && complete;
        } else if (part == QLatin1String("idle")) {
            auto run = runIdle(o, db, statStatements);
            if (!run)
                return failed(run.error());
            printIdleReport(run.value());
            complete = complete && run.value().daemonExitCode == 0;
        } else if (part == QLatin1String("soak")) {
            auto run = runSoak(o, db, reference->hopsPerSecond());
            if (!run)
                return failed(run.error());
            soak = run.value();
            printSoakReport(o, *soak);
            complete = complete && soak->daemonExitCode == 0;
        }
    }
    const auto plots = writeScalePlots(o.plotDir, chains, backlog, history, soak);
    if (!plots)
        return failed(plots.error());
    for (const QString &png : plots.value())
        out(QStringLiteral("plot: %1").arg(png));
    return complete ? 0 : 1;
}

} // namespace pepsi::bench
