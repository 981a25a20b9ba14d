// SPDX-License-Identifier: AGPL-3.0-or-later
#include "backlogrun.h"

#include "benchdatabase.h"
#include "benchsetup.h"
#include "procstats.h"
#include "reporttable.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QSqlQuery>
#include <QThread>
#include <QVariant>

#include <cstdio>

namespace pepsi::bench {

namespace {

constexpr double TargetClaimGrowth = 1.2;

// Finished rows first (lower ids, as in a table that has been in use), then
// the backlog; one INSERT ... SELECT each. VACUUM ANALYZE stands for the
// autovacuum a table this size would have had; --no-vacuum leaves the table
// as the inserts left it (no visibility map: the claim's index-only scan
// visits the heap), with statistics.
std::optional<QString> fill(BenchDatabase &db, int finished, int pending, bool vacuum)
{
    if (auto error = fillHistory(db, finished, 0))
        return error;
    if (!db.exec(QStringLiteral("INSERT INTO workqueue (stage) SELECT '%1' FROM generate_series(1, %2)")
                     .arg(stageNames().constFirst())
                     .arg(pending)))
        return db.lastError();
    if (!db.exec(vacuum ? QStringLiteral("VACUUM ANALYZE workqueue") : QStringLiteral("ANALYZE workqueue")))
        return db.lastError();
    return std::nullopt;
}

Result<BacklogRun, QString> runOne(const BenchOptions &o, BenchDatabase &db, const QString &config,
                                   const QString &logFile, int pending, bool statStatements)
{
    BacklogRun run;
    run.pending = pending;
    run.finished = o.finishedRows;
    progress(QStringLiteral("backlog: filling %1 done and %2 pending rows").arg(o.finishedRows).arg(pending));
    if (auto error = fill(db, o.finishedRows, pending, o.backlogVacuum))
        return *error;
    if (statStatements && !db.exec(QStringLiteral("SELECT pg_stat_statements_reset()")))
        return db.lastError();

    const qint64 postmaster = parentPid(db.scalar(QStringLiteral("SELECT pg_backend_pid()")).toLongLong());
    const qint64 postgresBefore = postmaster > 0 ? processTreeCpuUsec(postmaster) : 0;
    QProcess daemon;
    progress(QStringLiteral("backlog: running until drained or %1 s").arg(o.backlogSeconds));
    QElapsedTimer clock;
    clock.start();
    if (auto error = startDaemon(o, config, logFile, &daemon))
        return *error;
    const qint64 pid = daemon.processId();
    // Partial indexes answer these without a scan of the finished rows.
    const QString leftSql = QStringLiteral("SELECT EXISTS (SELECT 1 FROM workqueue WHERE status = 'pending')"
                                           "    OR EXISTS (SELECT 1 FROM workqueue WHERE status = 'running')");
    // --vacuum-seconds: what a tighter autovacuum would do. The claim walks
    // the index entries of the rows it claimed since the last vacuum.
    qint64 lastVacuumMs = 0;
    while (clock.elapsed() < o.backlogSeconds * 1000LL) {
        if (o.vacuumSeconds > 0 && clock.elapsed() - lastVacuumMs >= o.vacuumSeconds * 1000LL) {
            if (!db.exec(QStringLiteral("VACUUM workqueue")))
                return db.lastError();
            lastVacuumMs = clock.elapsed();
            ++run.vacuums;
        }
        if (daemon.waitForFinished(100))
            return QStringLiteral("the daemon exited (status %1) during the run; see %2")
                .arg(daemon.exitCode())
                .arg(logFile);
        if (!db.scalar(leftSql).toBool()) {
            run.drained = true;
            break;
        }
    }
    run.seconds = double(clock.nsecsElapsed()) / 1e9;
    run.daemonCpuUsec = sampleProcess(pid).cpuUsec;
    if (postmaster > 0)
        run.postgresCpuUsec = processTreeCpuUsec(postmaster) - postgresBefore;
    const auto stopped = stopDaemon(&daemon, logFile);
    if (!stopped)
        return stopped.error();
    run.daemonExitCode = stopped.value();

    // After the stop, rows the daemon still held are pending at their stage again.
    run.hops =
        db.scalar(QStringLiteral("SELECT coalesce(sum(CASE WHEN status = 'done' THEN 3 WHEN stage = '%1' THEN 2 "
                                 "WHEN stage = '%2' THEN 1 ELSE 0 END), 0) FROM workqueue WHERE workqueue_id > %3")
                      .arg(stageNames().at(2), stageNames().at(1))
                      .arg(o.finishedRows))
            .toLongLong();
    if (statStatements) {
        const ClaimStatement claim = readClaimStatement(db);
        run.claimCalls = claim.calls;
        run.claimMeanMs = claim.meanMs;
        run.claimMaxMs = claim.maxMs;
        run.claimStddevMs = claim.stddevMs;
        run.claimRows = claim.rows;
        run.claimQuery = claim.query;
        run.claimBuffers = claim.buffers;
    }
    return run;
}

} // namespace

Result<BacklogResult, QString> runBacklog(const BenchOptions &o)
{
    BenchDatabase db;
    const auto config = prepareRun(o, db);
    if (!config)
        return config.error();
    const bool statStatements = statStatementsLoaded(db);
    if (!statStatements)
        progress(QStringLiteral("backlog: pg_stat_statements is not loaded (run-bench --backlog preloads it); "
                                "no claim-round times"));

    BacklogResult result;
    result.logFile = o.workDir + QStringLiteral("/daemon.log");
    result.server = readDurability(db);
    for (const int pending : o.backlogSizes) {
        auto run = runOne(o, db, *config, result.logFile, pending, statStatements);
        if (!run)
            return run.error();
        result.runs << run.value();
    }
    return result;
}

bool printBacklogReport(const BenchOptions &o, const BacklogResult &r)
{
    out(QStringLiteral("backlog scaling (server: fsync %1, synchronous_commit %2), %3 finished rows in the table, "
                       "each run until drained or %4 s")
            .arg(r.server.fsync, r.server.synchronousCommit)
            .arg(o.finishedRows)
            .arg(o.backlogSeconds));
    out(o.vacuumSeconds > 0
            ? QStringLiteral("  VACUUM workqueue every %1 s during each run (--vacuum-seconds)").arg(o.vacuumSeconds)
            : QStringLiteral("  no VACUUM but autovacuum's during the runs"));
    if (!o.backlogVacuum)
        out(QStringLiteral("  the filled table was ANALYZEd, not vacuumed (--no-vacuum)"));
    const ReportTable table({{QStringLiteral("pending"), 9},
                             {QStringLiteral("hops/s"), 8},
                             {QStringLiteral("rounds"), 8},
                             {QStringLiteral("claim mean ms"), 14},
                             {QStringLiteral("max ms"), 8},
                             {QStringLiteral("ids/round"), 10},
                             {QStringLiteral("buffers/round"), 14},
                             {QStringLiteral("daemon µs/hop"), 14},
                             {QStringLiteral("PG µs/hop"), 10}});
    out(table.heading());
    bool complete = true;
    for (const BacklogRun &run : r.runs) {
        const double hops = double(std::max<qint64>(run.hops, 1));
        const bool known = run.claimCalls >= 0;
        const QString dash = QStringLiteral("-");
        out(table.row({QString::number(run.pending), num(double(run.hops) / run.seconds),
                       known ? QString::number(run.claimCalls) : dash, known ? num(run.claimMeanMs, 3) : dash,
                       known ? num(run.claimMaxMs, 2) : dash,
                       known && run.claimCalls > 0 ? num(double(run.claimRows) / double(run.claimCalls), 1) : dash,
                       known ? num(run.claimBuffers, 1) : dash, num(double(run.daemonCpuUsec) / hops, 1),
                       run.postgresCpuUsec >= 0 ? num(double(run.postgresCpuUsec) / hops, 1) : dash})
            + (run.drained ? QString() : QStringLiteral("  (first %1 hops)").arg(run.hops)));
        complete = complete && run.daemonExitCode == 0 && run.hops > 0;
    }
    if (!r.runs.isEmpty() && r.runs.constFirst().claimCalls > 0)
        out(QStringLiteral("  claim statement: %1...").arg(r.runs.constFirst().claimQuery));
    out(QStringLiteral("targets (doc/performance.rst)"));
    if (r.runs.size() >= 2 && r.runs.constFirst().claimCalls > 0 && r.runs.constLast().claimCalls > 0) {
        const double growth = r.runs.constLast().claimMeanMs / r.runs.constFirst().claimMeanMs;
        out(QStringLiteral("  claim round at %1 pending <= 1.2 x at %2   %3 %4")
                .arg(r.runs.constLast().pending)
                .arg(r.runs.constFirst().pending)
                .arg(num(growth, 2), growth <= TargetClaimGrowth ? QStringLiteral("met") : QStringLiteral("MISSED")));
    } else {
        out(QStringLiteral("  claim round growth                   unknown (two sizes and pg_stat_statements needed)"));
    }
    for (const BacklogRun &run : r.runs) {
        out(QStringLiteral("RESULT mode=backlog pending=%1 finished=%2 drained=%3 seconds=%4 hops=%5 hops_per_s=%6 "
                           "claim_calls=%7 claim_mean_ms=%8 claim_max_ms=%9 ids_per_round=%10 fsync=%11 "
                           "claim_buffers_per_round=%12 vacuums=%13")
                .arg(run.pending)
                .arg(run.finished)
                .arg(run.drained ? QStringLiteral("yes") : QStringLiteral("no"), num(run.seconds, 3))
                .arg(run.hops)
                .arg(num(double(run.hops) / run.seconds), QString::number(run.claimCalls), num(run.claimMeanMs, 3),
                     num(run.claimMaxMs, 2),
                     run.claimCalls > 0 ? num(double(run.claimRows) / double(run.claimCalls), 1) : QStringLiteral("-"),
                     r.server.fsync, num(run.claimBuffers, 1), QString::number(run.vacuums)));
    }
    return complete;
}

} // namespace pepsi::bench
