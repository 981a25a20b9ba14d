// SPDX-License-Identifier: AGPL-3.0-or-later
#include "scaleidle.h"

#include "benchsetup.h"
#include "procstats.h"
#include "scaletopology.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QSqlQuery>
#include <QVariant>

#include <algorithm>

namespace pepsi::bench {

namespace {

constexpr int Stages = 100;
// Start-up (connections, LISTEN, the first claim of every stage) is not idling.
constexpr int SettleMs = 10'000;

qint64 committed(BenchDatabase &db)
{
    (void)db.scalar(QStringLiteral("SELECT pg_stat_force_next_flush()"));
    const QVariant commits =
        db.scalar(QStringLiteral("SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"));
    return commits.isValid() ? commits.toLongLong() : -1;
}

// What was sent to this database since the reset, but this driver's own reads.
void readStatements(BenchDatabase &db, IdleResult *result)
{
    QSqlQuery q = db.query(
        QStringLiteral("SELECT calls, left(regexp_replace(query, '\\s+', ' ', 'g'), 90) FROM pg_stat_statements "
                       "WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) "
                       "AND query NOT LIKE '%pg_stat%' ORDER BY calls DESC"));
    result->statements = 0;
    while (q.next()) {
        result->statements += q.value(0).toLongLong();
        if (result->top.size() < 5)
            result->top << IdleStatement{q.value(0).toLongLong(), q.value(1).toString()};
    }
}

} // namespace

Result<IdleResult, QString> runIdle(const BenchOptions &o, BenchDatabase &db, bool statStatements)
{
    IdleResult result;
    result.stages = Stages;
    const ScaleTopology topology = chainTopology(Stages, 1, o.queueLimit);
    const auto config = prepareEmptyTopology(o, db, topology);
    if (!config)
        return config.error();
    const QString logFile = o.workDir + QStringLiteral("/daemon.log");
    progress(QStringLiteral("scale: idle, %1 stages without messages for %2 min").arg(Stages).arg(o.idleMinutes));
    QProcess daemon;
    if (auto error = startDaemon(o, *config, logFile, &daemon))
        return *error;
    const qint64 pid = daemon.processId();
    // The driver waits on the daemon itself: an exit ends the wait at once.
    if (daemon.waitForFinished(SettleMs))
        return QStringLiteral("idle: the daemon exited (status %1); see %2").arg(daemon.exitCode()).arg(logFile);

    if (statStatements && !db.exec(QStringLiteral("SELECT pg_stat_statements_reset()")))
        return db.lastError();
    const qint64 commitsBefore = committed(db);
    const qint64 sessionsBefore = dispatcherSessionsCpuUsec(db);
    const ProcessSample before = sampleProcess(pid);
    QElapsedTimer clock;
    clock.start();
    if (daemon.waitForFinished(o.idleMinutes * 60'000))
        return QStringLiteral("idle: the daemon exited (status %1); see %2").arg(daemon.exitCode()).arg(logFile);
    const ProcessSample after = sampleProcess(pid);
    result.seconds = double(clock.nsecsElapsed()) / 1e9;
    result.daemonCpuUsec = after.cpuUsec - before.cpuUsec;
    result.wakeUps = after.mainThreadSleeps - before.mainThreadSleeps;
    result.workersAtEnd = liveChildrenCount(pid);
    if (const qint64 sessionsAfter = dispatcherSessionsCpuUsec(db); sessionsBefore >= 0 && sessionsAfter >= 0)
        result.sessionsCpuUsec = sessionsAfter - sessionsBefore;
    // Read before the stop: the shutdown's own statements are not idling.
    if (statStatements)
        readStatements(db, &result);
    if (const qint64 commitsAfter = committed(db); commitsBefore >= 0 && commitsAfter >= 0)
        result.commits = commitsAfter - commitsBefore;
    const auto stopped = stopDaemon(&daemon, logFile);
    if (!stopped)
        return stopped.error();
    result.daemonExitCode = stopped.value();
    return result;
}

void printIdleReport(const IdleResult &r)
{
    const double minutes = r.seconds / 60.0;
    out(QStringLiteral("idle: %1 stages (PARALLELISM 1), no message, %2 min measured after %3 s of start-up")
            .arg(r.stages)
            .arg(num(minutes, 1))
            .arg(SettleMs / 1000));
    out(QStringLiteral("  daemon CPU                          %1 ms per minute (%2 ms in all)")
            .arg(num(double(r.daemonCpuUsec) / 1000.0 / minutes, 1), num(double(r.daemonCpuUsec) / 1000.0, 1)));
    out(QStringLiteral("  daemon wake-ups (main thread)       %1 per minute").arg(num(double(r.wakeUps) / minutes, 1)));
    out(QStringLiteral("  its server sessions' CPU            %1")
            .arg(r.sessionsCpuUsec >= 0
                     ? QStringLiteral("%1 ms per minute").arg(num(double(r.sessionsCpuUsec) / 1000.0 / minutes, 1))
                     : QStringLiteral("unknown")));
    out(QStringLiteral("  commits in the database             %1")
            .arg(r.commits >= 0 ? QStringLiteral("%1 per minute").arg(num(double(r.commits) / minutes, 1))
                                : QStringLiteral("unknown")));
    out(QStringLiteral("  statements (pg_stat_statements)     %1")
            .arg(r.statements >= 0 ? QStringLiteral("%1 per minute").arg(num(double(r.statements) / minutes, 1))
                                   : QStringLiteral("unknown (not loaded)")));
    for (const IdleStatement &s : r.top)
        out(QStringLiteral("    %1  %2").arg(s.calls, 8).arg(s.query));
    out(QStringLiteral("  live workers at the end             %1").arg(r.workersAtEnd));
    out(QStringLiteral("RESULT mode=scale part=idle stages=%1 seconds=%2 daemon_cpu_ms_per_min=%3 wakeups_per_min=%4 "
                       "commits_per_min=%5 statements_per_min=%6 sessions_cpu_ms_per_min=%7 workers_at_end=%8")
            .arg(r.stages)
            .arg(num(r.seconds, 1), num(double(r.daemonCpuUsec) / 1000.0 / minutes, 2),
                 num(double(r.wakeUps) / minutes, 1),
                 r.commits >= 0 ? num(double(r.commits) / minutes, 1) : QStringLiteral("-"),
                 r.statements >= 0 ? num(double(r.statements) / minutes, 1) : QStringLiteral("-"),
                 r.sessionsCpuUsec >= 0 ? num(double(r.sessionsCpuUsec) / 1000.0 / minutes, 2) : QStringLiteral("-"),
                 QString::number(r.workersAtEnd)));
}

} // namespace pepsi::bench
