// SPDX-License-Identifier: AGPL-3.0-or-later
#include "scalehistory.h"

#include "benchsetup.h"
#include "reporttable.h"
#include "scalechains.h"

#include <QSqlQuery>
#include <QVariant>

namespace pepsi::bench {

namespace {

constexpr double TargetRateShare = 0.9;

// From the run's own rows only: RESTART IDENTITY gave the history ids 1 .. N,
// so the primary key finds the messages without a look at the finished rows.
Result<double, QString> steadyHopsPerSecond(BenchDatabase &db, const HistoryRun &h)
{
    QSqlQuery q =
        db.query(QStringLiteral("SELECT extract(epoch FROM percentile_disc(0.9) WITHIN GROUP (ORDER BY updated)"
                                "                  - percentile_disc(0.1) WITHIN GROUP (ORDER BY updated))"
                                "  FROM workqueue WHERE workqueue_id > %1 AND status = 'done'")
                     .arg(h.finished));
    if (!q.next())
        return db.lastError();
    const double seconds = q.value(0).toDouble();
    return seconds > 0 ? 0.8 * double(h.run.hops) / seconds : 0.0;
}

Result<HistoryRun, QString> runOne(const BenchOptions &o, BenchDatabase &db, bool statStatements, qint64 finished,
                                   bool again)
{
    HistoryRun h;
    h.finished = finished;
    h.again = again;
    progress(QStringLiteral("history: %1 finished rows%2")
                 .arg(finished)
                 .arg(again ? QStringLiteral(" (again)") : QString()));
    const ScaleTopology chain = chainTopology(3, o.parallelism, o.queueLimit);
    auto run = runTopology(o, db, chain, o.scaleHops / 3, false, statStatements, finished);
    if (!run)
        return run.error();
    h.run = run.value();
    const auto steady = steadyHopsPerSecond(db, h);
    if (!steady)
        return steady.error();
    h.steadyHopsPerSecond = steady.value();
    return h;
}

} // namespace

Result<HistoryResult, QString> runHistory(const BenchOptions &o, BenchDatabase &db, bool statStatements)
{
    HistoryResult result;
    for (const int finished : o.historySizes) {
        auto run = runOne(o, db, statStatements, finished, false);
        if (!run)
            return run.error();
        result.runs << run.value();
    }
    // The reference once more at the end, when it costs no fill: how far the
    // shared machine drifted while the others ran.
    if (o.historySizes.size() > 1 && o.historySizes.constFirst() == 0) {
        auto run = runOne(o, db, statStatements, 0, true);
        if (!run)
            return run.error();
        result.runs << run.value();
    }
    return result;
}

bool printHistoryReport(const BenchOptions &o, const HistoryResult &r)
{
    out(QStringLiteral("history: the reference (3 stages at PARALLELISM %1, QUEUE_LIMIT %2, %3 messages) beside "
                       "finished rows, vacuumed and checkpointed before each run; ratios (x) to the first run")
            .arg(o.parallelism)
            .arg(o.queueLimit)
            .arg(o.scaleHops / 3));
    const ReportTable table({{QStringLiteral("finished"), 10},
                             {QStringLiteral("load before"), -15},
                             {QStringLiteral("hops/s"), 7},
                             {QStringLiteral("x"), 5},
                             {QStringLiteral("steady hops/s"), 13},
                             {QStringLiteral("x"), 5},
                             {QStringLiteral("daemon µs/hop"), 13},
                             {QStringLiteral("x"), 5},
                             {QStringLiteral("claim ms"), 9},
                             {QStringLiteral("x"), 5}});
    out(table.heading());
    if (r.runs.isEmpty())
        return false;
    const HistoryRun &ref = r.runs.constFirst();
    bool complete = true;
    bool met = true;
    for (const HistoryRun &h : r.runs) {
        const TopologyRun &run = h.run;
        const double share = run.hopsPerSecond() / ref.run.hopsPerSecond();
        if (!h.again)
            met = met && share >= TargetRateShare;
        out(table.row({QString::number(h.finished) + (h.again ? QStringLiteral(" again") : QString()),
                       h.run.loadAtStart, num(run.hopsPerSecond()), ratio(run.hopsPerSecond(), ref.run.hopsPerSecond()),
                       num(h.steadyHopsPerSecond), ratio(h.steadyHopsPerSecond, ref.steadyHopsPerSecond),
                       num(run.usecPerHop(), 1), ratio(run.usecPerHop(), ref.run.usecPerHop()),
                       run.claimCalls > 0 ? num(run.claimMeanMs, 3) : QStringLiteral("-"),
                       ratio(run.claimMeanMs, ref.run.claimMeanMs)}));
        complete = complete && run.daemonExitCode == 0;
    }
    out(QStringLiteral("targets (doc/performance.rst)"));
    out(QStringLiteral("  hops/s beside every size >= 0.9 x beside %1   %2")
            .arg(ref.finished)
            .arg(met ? QStringLiteral("met") : QStringLiteral("MISSED")));
    for (const HistoryRun &h : r.runs) {
        const TopologyRun &run = h.run;
        out(QStringLiteral("RESULT mode=scale part=history finished=%1 again=%2 load=%3 hops=%4 seconds=%5 "
                           "hops_per_s=%6 hops_ratio=%7 steady_hops_per_s=%8 steady_ratio=%9 cpu_us_per_hop=%10 "
                           "cpu_ratio=%11 claim_calls=%12 claim_mean_ms=%13 claim_ratio=%14")
                .arg(h.finished)
                .arg(h.again ? QStringLiteral("yes") : QStringLiteral("no"),
                     QString(run.loadAtStart).replace(u' ', u','))
                .arg(run.hops)
                .arg(num(run.seconds, 3), num(run.hopsPerSecond()), ratio(run.hopsPerSecond(), ref.run.hopsPerSecond()),
                     num(h.steadyHopsPerSecond), ratio(h.steadyHopsPerSecond, ref.steadyHopsPerSecond),
                     num(run.usecPerHop(), 2), ratio(run.usecPerHop(), ref.run.usecPerHop()),
                     QString::number(run.claimCalls), num(run.claimMeanMs, 3))
                .arg(ratio(run.claimMeanMs, ref.run.claimMeanMs)));
    }
    return complete;
}

} // namespace pepsi::bench
