// SPDX-License-Identifier: AGPL-3.0-or-later
#include "benchsetup.h"

#include "procstats.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSqlQuery>
#include <QTextStream>
#include <QVariant>

#include <algorithm>

#include <csignal>
#include <cstdio>
#include <pwd.h>
#include <unistd.h>

namespace pepsi::bench {

const QStringList &stageNames()
{
    static const QStringList names = {QStringLiteral("first"), QStringLiteral("second"), QStringLiteral("third")};
    return names;
}

namespace {

Result<QString, QString> writeConfig(const BenchOptions &o, const QString &stageExtra)
{
    const QString path = o.workDir + QStringLiteral("/pepsi.conf");
    QString sections;
    QTextStream out(&sections);
    for (qsizetype i = 0; i < stageNames().size(); ++i) {
        out << "\n[stage-" << stageNames()[i] << "]\nPROGRAM = " << o.buildDir << "/stagekit/pepsi-stage-example\n"
            << "PARALLELISM = " << o.parallelism << "\nQUEUE_LIMIT = " << o.queueLimit << '\n';
        if (o.maxMessages > 0)
            out << "MAX_MESSAGES = " << o.maxMessages << '\n';
        if (i + 1 < stageNames().size())
            out << "NEXT = " << stageNames()[i + 1] << '\n';
        // Fused: the first stage's worker runs the others in the same pass.
        if (o.fused && i > 0)
            out << "FUSE = YES\n";
        out << stageExtra;
    }
    out.flush();
    if (auto error = writeConfigFile(o, path, sections))
        return failure(*error);
    return path;
}

} // namespace

std::optional<QString> prepareWorkDir(const BenchOptions &o)
{
    const QStringList binaries = {o.buildDir + QStringLiteral("/daemon/pepsi-dispatch"),
                                  o.buildDir + QStringLiteral("/stagekit/pepsi-stage-example")};
    for (const QString &binary : binaries) {
        if (!QFileInfo(binary).isExecutable())
            return QStringLiteral("%1 is missing: build pepsi-dispatch and pepsi-stage-example").arg(binary);
    }
    if (!QDir().mkpath(o.workDir))
        return QStringLiteral("cannot create the work directory %1").arg(o.workDir);
    QFile::setPermissions(o.workDir,
                          QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
                              | QFileDevice::ReadGroup | QFileDevice::ExeGroup | QFileDevice::ReadOther
                              | QFileDevice::ExeOther);
    if (::geteuid() == 0) {
        const passwd *account = ::getpwnam(o.user.toLocal8Bit().constData());
        if (!account)
            return QStringLiteral("USER %1 does not exist (run-bench creates it)").arg(o.user);
        if (::chown(o.workDir.toLocal8Bit().constData(), account->pw_uid, account->pw_gid) != 0)
            return QStringLiteral("cannot hand %1 to %2").arg(o.workDir, o.user);
    }
    return std::nullopt;
}

QString configHeader(const BenchOptions &o, const QString &path)
{
    return QStringLiteral("# written by pepsi-bench\n[pepsi]\nDATABASE = %1\n\n[pepsi-dispatch]\nCONFIG_FILE = %2\n"
                          "USER = %3\nCONTROL_SOCKET = %4\n")
        .arg(o.database, path, o.user, controlSocketPath(o));
}

std::optional<QString> writeConfigFile(const BenchOptions &o, const QString &path, const QString &sections)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
    QTextStream out(&file);
    out << configHeader(o, path) << sections;
    out.flush();
    file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup
                        | QFileDevice::ReadOther);
    return std::nullopt;
}

QString controlSocketPath(const BenchOptions &o) { return o.workDir + QStringLiteral("/run/dispatch.sock"); }

std::optional<QString> fillHistory(BenchDatabase &db, qint64 done, qint64 failed, const QStringList &stages)
{
    if (!db.exec(QStringLiteral("TRUNCATE workqueue RESTART IDENTITY")))
        return db.lastError();
    const qint64 total = done + failed;
    if (total == 0)
        return std::nullopt;
    // Every step-th row is a failed one, at the stages in turn.
    const qint64 step = failed > 0 ? std::max<qint64>(1, total / failed) : total + 1;
    const QString sql = QStringLiteral(
        "INSERT INTO workqueue (stage, status, state) "
        "SELECT CASE WHEN f THEN (ARRAY['%1'])[1 + (i / %3) % %6] ELSE '%2' END, "
        "       CASE WHEN f THEN 'failed' ELSE 'done' END::workqueue_status, "
        "       CASE WHEN f THEN '{\"dispatch_error\": \"status 4: bench failure\"}'::jsonb ELSE '{}'::jsonb END "
        "  FROM (SELECT i, i % %3 = 0 AND i <= %4 AS f FROM generate_series(1, %5) AS i) AS rows");
    if (!db.exec(sql.arg(stages.join(QStringLiteral("', '")), stages.constLast())
                     .arg(step)
                     .arg(failed * step)
                     .arg(total)
                     .arg(stages.size())))
        return db.lastError();
    return std::nullopt;
}

Result<QString, QString> prepareRun(const BenchOptions &o, BenchDatabase &db, const QString &stageExtra)
{
    if (auto error = prepareWorkDir(o))
        return failure(*error);
    const auto config = writeConfig(o, stageExtra);
    if (!config)
        return failure(config.error());
    if (!db.open(o.database))
        return failure(db.lastError());
    return *config;
}

std::optional<QString> startDaemon(const BenchOptions &o, const QString &config, const QString &logFile,
                                   QProcess *daemon)
{
    const QString daemonBinary = o.buildDir + QStringLiteral("/daemon/pepsi-dispatch");
    daemon->setWorkingDirectory(o.workDir);
    daemon->setProcessChannelMode(QProcess::MergedChannels);
    daemon->setStandardOutputFile(logFile, QIODevice::Truncate);
    QStringList arguments = o.wrap.mid(1);
    if (!o.wrap.isEmpty())
        arguments << daemonBinary;
    arguments << QStringLiteral("-c") << config << QStringLiteral("-L") << o.logLevel << QStringLiteral("serve");
    daemon->start(o.wrap.isEmpty() ? daemonBinary : o.wrap.constFirst(), arguments);
    if (!daemon->waitForStarted(10'000))
        return QStringLiteral("cannot start %1: %2").arg(daemonBinary, daemon->errorString());
    return std::nullopt;
}

Result<int, QString> stopDaemon(QProcess *daemon, const QString &logFile)
{
    const auto pid = pid_t(daemon->processId());
    ::kill(pid, SIGTERM);
    if (!daemon->waitForFinished(60'000)) {
        ::kill(pid, SIGKILL);
        daemon->waitForFinished(10'000);
        return QStringLiteral("the daemon did not stop within 60 s of SIGTERM; see %1").arg(logFile);
    }
    return daemon->exitStatus() == QProcess::NormalExit ? daemon->exitCode() : -1;
}

bool statStatementsLoaded(BenchDatabase &db)
{
    if (!db.scalar(QStringLiteral("SELECT current_setting('shared_preload_libraries') LIKE '%pg_stat_statements%'"))
             .toBool())
        return false;
    return db.exec(QStringLiteral("CREATE EXTENSION IF NOT EXISTS pg_stat_statements"));
}

ClaimStatement readClaimStatement(BenchDatabase &db)
{
    // pg_stat_statements shows constants as $n: match by shape.
    QSqlQuery q = db.query(QStringLiteral(
        "SELECT calls, mean_exec_time, max_exec_time, stddev_exec_time, rows, left(regexp_replace(query, '\\s+', ' ', "
        "'g'), 70), (shared_blks_hit + shared_blks_read)::float8 / greatest(calls, 1) FROM pg_stat_statements WHERE "
        "query LIKE '%SKIP LOCKED%' AND query LIKE '%workqueue%' AND query NOT LIKE '%EXPLAIN%' "
        "ORDER BY calls DESC LIMIT 1"));
    ClaimStatement claim;
    if (!q.next())
        return claim;
    claim.calls = q.value(0).toLongLong();
    claim.meanMs = q.value(1).toDouble();
    claim.maxMs = q.value(2).toDouble();
    claim.stddevMs = q.value(3).toDouble();
    claim.rows = q.value(4).toLongLong();
    claim.query = q.value(5).toString();
    claim.buffers = q.value(6).toDouble();
    return claim;
}

QString anyOpenRowSql()
{
    return QStringLiteral("SELECT EXISTS (SELECT 1 FROM workqueue WHERE status = 'pending')"
                          "    OR EXISTS (SELECT 1 FROM workqueue WHERE status = 'running')"
                          "    OR EXISTS (SELECT 1 FROM workqueue WHERE status = 'paused')");
}

QString openRowCountSql()
{
    return QStringLiteral("SELECT (SELECT count(*) FROM workqueue WHERE status = 'pending')"
                          "     + (SELECT count(*) FROM workqueue WHERE status = 'running')"
                          "     + (SELECT count(*) FROM workqueue WHERE status = 'paused')");
}

qint64 dispatcherSessionsCpuUsec(BenchDatabase &db)
{
    QSqlQuery pids =
        db.query(QStringLiteral("SELECT pid FROM pg_stat_activity WHERE application_name LIKE 'pepsi-dispatch %'"));
    qint64 usec = -1;
    while (pids.next())
        usec = std::max<qint64>(usec, 0) + sampleProcess(pids.value(0).toLongLong()).cpuUsec;
    return usec;
}

void progress(const QString &text)
{
    (void)std::fprintf(stderr, "pepsi-bench: %s\n", text.toUtf8().constData());
    (void)std::fflush(stderr);
}

void out(const QString &text)
{
    (void)std::fputs(text.toUtf8().constData(), stdout);
    (void)std::fputc('\n', stdout);
    (void)std::fflush(stdout);
}

QString num(double value, int decimals) { return QString::number(value, 'f', decimals); }

} // namespace pepsi::bench
