// SPDX-License-Identifier: AGPL-3.0-or-later
#include "pipelinerun.h"

#include "benchdatabase.h"
#include "benchsetup.h"
#include "procstats.h"

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QSqlQuery>
#include <QTextStream>
#include <QThread>
#include <QVariant>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <pwd.h>
#include <unistd.h>

namespace pepsi::bench {

namespace {

std::optional<QString> fillQueue(BenchDatabase &db, int messages, bool analyze)
{
    if (!db.scalar(QStringLiteral("SELECT to_regclass('workqueue') IS NOT NULL")).toBool())
        return QStringLiteral("the database has no workqueue table: install the schema first (pepsi-schema --database "
                              "URI install; run-bench does)");
    if (!db.exec(QStringLiteral("TRUNCATE workqueue RESTART IDENTITY")))
        return db.lastError();
    // One statement: one NOTIFY, as pepsi-ingress would send for a batch.
    if (!db.exec(QStringLiteral("INSERT INTO workqueue (stage) SELECT '%1' FROM generate_series(1, %2)")
                     .arg(stageNames().constFirst())
                     .arg(messages)))
        return db.lastError();
    // Off by default: statistics taken now say "everything is pending at the
    // first stage" for the whole run, and the claim plans by them (see doc/performance.rst).
    if (analyze && !db.exec(QStringLiteral("ANALYZE workqueue")))
        return db.lastError();
    return std::nullopt;
}

void collectLog(const QString &logFile, PipelineResult *result)
{
    QFile file(logFile);
    if (!file.open(QIODevice::ReadOnly))
        return;
    // "stopped after R claim rounds, C messages claimed" (also the older "rounds R claimed C")
    static const QRegularExpression roundsLine(
        QStringLiteral("(?:after (\\d+) claim rounds, (\\d+) messages claimed)|(?:rounds (\\d+) claimed (\\d+))"));
    while (!file.atEnd()) {
        const QString line = QString::fromUtf8(file.readLine()).trimmed();
        if (const auto m = roundsLine.match(line); m.hasMatch()) {
            const int first = m.hasCaptured(1) ? 1 : 3;
            result->rounds = m.captured(first).toLongLong();
            result->claimed = m.captured(first + 1).toLongLong();
        }
        if ((line.startsWith(QLatin1String("WARNING")) || line.startsWith(QLatin1String("ERROR")))
            && result->warnings.size() < 5)
            result->warnings << line;
    }
}

std::optional<QString> collectRows(BenchDatabase &db, qint64 startEpochMs, PipelineResult *result)
{
    QSqlQuery q =
        db.query(QStringLiteral("SELECT count(*) FILTER (WHERE status = 'done'),"
                                "       count(*) FILTER (WHERE status IN ('failed', 'timeout')),"
                                "       extract(epoch FROM max(updated) FILTER (WHERE status = 'done')) * 1000,"
                                "       extract(epoch FROM percentile_disc(0.1) WITHIN GROUP (ORDER BY updated)"
                                "                          FILTER (WHERE status = 'done')) * 1000,"
                                "       extract(epoch FROM percentile_disc(0.9) WITHIN GROUP (ORDER BY updated)"
                                "                          FILTER (WHERE status = 'done')) * 1000"
                                "  FROM workqueue"));
    if (!q.next())
        return db.lastError();
    result->done = q.value(0).toLongLong();
    result->failed = q.value(1).toLongLong();
    if (result->done > 0) {
        result->wallSeconds = (q.value(2).toDouble() - double(startEpochMs)) / 1000.0;
        const double steadyMs = q.value(4).toDouble() - q.value(3).toDouble();
        if (steadyMs > 0)
            result->steadyMessagesPerSecond = 0.8 * double(result->done) / (steadyMs / 1000.0);
    }
    if (result->failed > 0) {
        QSqlQuery f = db.query(QStringLiteral(
            "SELECT status || ' at ' || stage || ': ' || coalesce(state->>'dispatch_error', '(no reason)')"
            "  FROM workqueue WHERE status IN ('failed', 'timeout') ORDER BY workqueue_id LIMIT 3"));
        while (f.next())
            result->failureSamples << f.value(0).toString();
    }
    return std::nullopt;
}

// Committed transactions of this database. A backend reports its counts
// when it exits, and at most once a second while it lives: read after the
// daemon and its workers are gone (their sessions end a moment later).
qint64 committedTransactions(BenchDatabase &db)
{
    const QString othersSql = QStringLiteral("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                                             "AND pid <> pg_backend_pid() AND backend_type = 'client backend'");
    QElapsedTimer waited;
    waited.start();
    while (db.scalar(othersSql).toLongLong() > 0 && waited.elapsed() < 5000)
        QThread::msleep(50);
    (void)db.scalar(QStringLiteral("SELECT pg_stat_force_next_flush()"));
    const QVariant commits =
        db.scalar(QStringLiteral("SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"));
    return commits.isValid() ? commits.toLongLong() : -1;
}

// What the daemon counted as its workers' busy time, ever: each answered
// message's time at the head of its worker's line, so their sum is the time
// the workers held at least one id (doc/performance.rst, the idle share).
qint64 busyUsecSoFar(BenchDatabase &db)
{
    const QVariant busy = db.scalar(QStringLiteral("SELECT coalesce(sum(busy_usec), 0) FROM stage_stats"));
    return busy.isValid() ? busy.toLongLong() : -1;
}

} // namespace

Result<PipelineResult, QString> runPipeline(const BenchOptions &o, const PipelineHooks &hooks)
{
    BenchDatabase db;
    const auto config = prepareRun(o, db);
    if (!config)
        return config.error();
    if (auto error = fillQueue(db, o.messages, o.analyze))
        return *error;

    // The server runs here (run-bench): its CPU is the postmaster's process tree.
    const qint64 postmaster = parentPid(db.scalar(QStringLiteral("SELECT pg_backend_pid()")).toLongLong());
    const qint64 postgresBefore = postmaster > 0 ? processTreeCpuUsec(postmaster) : 0;
    const qint64 commitsBefore = committedTransactions(db);
    const qint64 busyBefore = busyUsecSoFar(db);
    if (hooks.beforeStart) {
        if (auto error = hooks.beforeStart())
            return *error;
    }

    PipelineResult result;
    result.logFile = o.workDir + QStringLiteral("/daemon.log");
    result.server = readDurability(db);
    QProcess daemon;
    progress(QStringLiteral("%1 messages queued at stage %2; starting %3")
                 .arg(o.messages)
                 .arg(stageNames().constFirst(), o.buildDir + QStringLiteral("/daemon/pepsi-dispatch")));
    const MachineCpu cpuBefore = sampleMachineCpu();
    const qint64 startEpochMs = QDateTime::currentMSecsSinceEpoch();
    result.startEpochMs = startEpochMs;
    QElapsedTimer clock;
    clock.start();
    if (auto error = startDaemon(o, *config, result.logFile, &daemon))
        return *error;
    const qint64 pid = daemon.processId();

    // Partial indexes answer both without a scan (doc/performance.rst).
    const QString leftSql = anyOpenRowSql();
    const QString openSql = openRowCountSql();
    qint64 lastDone = -1;
    QElapsedTimer sinceProgress;
    sinceProgress.start();
    for (int poll = 1;; ++poll) {
        if (daemon.waitForFinished(200)) {
            collectLog(result.logFile, &result);
            return QStringLiteral("the daemon exited (status %1) before the messages were done; see %2")
                .arg(daemon.exitCode())
                .arg(result.logFile);
        }
        const QVariant left = db.scalar(leftSql);
        if (!left.isValid())
            return db.lastError();
        if (!left.toBool())
            break;
        if (poll % 10 == 0) { // every 2 s
            const qint64 done = o.messages - db.scalar(openSql).toLongLong();
            progress(QStringLiteral("%1 s: %2 of %3 finished").arg(clock.elapsed() / 1000).arg(done).arg(o.messages));
            if (done != lastDone) {
                lastDone = done;
                sinceProgress.restart();
            } else if (sinceProgress.elapsed() > o.stallSeconds * 1000LL) {
                ::kill(pid_t(pid), SIGKILL);
                daemon.waitForFinished(10'000);
                return QStringLiteral("no message finished for %1 s; the daemon was killed; see %2")
                    .arg(o.stallSeconds)
                    .arg(result.logFile);
            }
        }
    }
    result.polledSeconds = double(clock.nsecsElapsed()) / 1e9;

    // The figures at the moment the work was done, before shutdown work adds to them.
    const ProcessSample sample = sampleProcess(pid);
    result.daemonCpuUsec = sample.cpuUsec;
    result.daemonSysUsec = sample.sysUsec;
    result.daemonSleeps = sample.mainThreadSleeps;
    result.daemonPreempted = sample.mainThreadPreempted;
    if (postmaster > 0) {
        result.postgresCpuUsec = processTreeCpuUsec(postmaster) - postgresBefore;
        result.dispatcherSessionsCpuUsec = dispatcherSessionsCpuUsec(db);
    }
    result.peakRssKiB = sample.peakRssKiB;
    result.workersCpuUsec = sample.reapedChildUsec + liveChildrenCpuUsec(pid);
    result.machineBusy = busyShare(cpuBefore, sampleMachineCpu());
    if (hooks.whenDone) {
        if (auto error = hooks.whenDone()) {
            (void)stopDaemon(&daemon, result.logFile);
            return *error;
        }
    }

    const auto stopped = stopDaemon(&daemon, result.logFile);
    if (!stopped)
        return stopped.error();
    result.daemonExitCode = stopped.value();
    if (const qint64 commitsAfter = committedTransactions(db); commitsBefore >= 0 && commitsAfter >= 0)
        result.commits = commitsAfter - commitsBefore;
    // The daemon writes its statistics when it stops.
    if (const qint64 busyAfter = busyUsecSoFar(db); busyBefore >= 0 && busyAfter >= 0)
        result.workersBusyUsec = busyAfter - busyBefore;
    collectLog(result.logFile, &result);
    if (auto error = collectRows(db, startEpochMs, &result))
        return *error;
    return result;
}

} // namespace pepsi::bench
