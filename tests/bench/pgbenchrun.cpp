// SPDX-License-Identifier: AGPL-3.0-or-later
#include "pgbenchrun.h"

#include "benchdatabase.h"
#include "procstats.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>

#include <algorithm>
#include <sys/resource.h>

namespace pepsi::bench {

namespace {

constexpr int Rows = 100'000;

std::optional<QString> prepareTable(BenchDatabase &db)
{
    // Fresh every run, so earlier runs' dead tuples do not weigh on this one.
    for (const QString &sql : {
             QStringLiteral("DROP TABLE IF EXISTS bench_counter"),
             QStringLiteral("CREATE TABLE bench_counter (id integer PRIMARY KEY, n bigint NOT NULL DEFAULT 0)"),
             QStringLiteral("INSERT INTO bench_counter (id) SELECT generate_series(1, %1)").arg(Rows),
             QStringLiteral("VACUUM ANALYZE bench_counter"),
         }) {
        if (!db.exec(sql))
            return db.lastError();
    }
    return std::nullopt;
}

} // namespace

Result<PgbenchResult, QString> runPgbench(const BenchOptions &o, int clients)
{
    qint64 postmaster = 0;
    {
        BenchDatabase db;
        if (!db.open(o.database))
            return db.lastError();
        if (auto error = prepareTable(db))
            return *error;
        postmaster = parentPid(db.scalar(QStringLiteral("SELECT pg_backend_pid()")).toLongLong());
    }
    const QString script = o.workDir + QStringLiteral("/update-one-row.sql");
    QFile file(script);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return QStringLiteral("cannot write %1: %2").arg(script, file.errorString());
    file.write(QByteArrayLiteral("\\set id random(1, ") + QByteArray::number(Rows)
               + ")\n"
                 "UPDATE bench_counter SET n = n + 1 WHERE id = :id;\n");
    file.close();

    PgbenchResult result;
    result.clients = clients;
    result.threads = std::min(2, clients);
    const QStringList arguments = {QStringLiteral("-n"),
                                   QStringLiteral("-c"),
                                   QString::number(clients),
                                   QStringLiteral("-j"),
                                   QString::number(result.threads),
                                   QStringLiteral("-T"),
                                   QString::number(o.pgbenchSeconds),
                                   QStringLiteral("-f"),
                                   script,
                                   o.database};
    const auto childrenCpuUsec = [] {
        rusage usage{};
        ::getrusage(RUSAGE_CHILDREN, &usage);
        return qint64(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1'000'000 + usage.ru_utime.tv_usec
            + usage.ru_stime.tv_usec;
    };
    const qint64 clientBefore = childrenCpuUsec();
    const qint64 postgresBefore = postmaster > 0 ? processTreeCpuUsec(postmaster) : 0;
    QProcess pgbench;
    pgbench.setProcessChannelMode(QProcess::MergedChannels);
    pgbench.start(o.pgbench, arguments);
    if (!pgbench.waitForStarted(10'000))
        return QStringLiteral("cannot start %1: %2").arg(o.pgbench, pgbench.errorString());
    if (!pgbench.waitForFinished((o.pgbenchSeconds + 120) * 1000)) {
        pgbench.kill();
        pgbench.waitForFinished(5'000);
        return QStringLiteral("pgbench did not finish");
    }
    if (postmaster > 0)
        result.postgresCpuUsec = processTreeCpuUsec(postmaster) - postgresBefore;
    result.clientCpuUsec = childrenCpuUsec() - clientBefore; // pgbench is reaped by now
    const QString output = QString::fromLocal8Bit(pgbench.readAll());
    if (pgbench.exitStatus() != QProcess::NormalExit || pgbench.exitCode() != 0)
        return QStringLiteral("pgbench failed (status %1):\n%2").arg(pgbench.exitCode()).arg(output.trimmed());

    static const QRegularExpression tps(QStringLiteral("^tps = ([0-9.]+) \\(without initial connection time\\)"),
                                        QRegularExpression::MultilineOption);
    static const QRegularExpression latency(QStringLiteral("^latency average = ([0-9.]+) ms"),
                                            QRegularExpression::MultilineOption);
    const auto t = tps.match(output);
    if (!t.hasMatch())
        return QStringLiteral("no tps line in pgbench's output:\n%1").arg(output.trimmed());
    result.tps = t.captured(1).toDouble();
    static const QRegularExpression processed(QStringLiteral("^number of transactions actually processed: (\\d+)"),
                                              QRegularExpression::MultilineOption);
    if (const auto n = processed.match(output); n.hasMatch())
        result.transactions = n.captured(1).toLongLong();
    if (const auto l = latency.match(output); l.hasMatch())
        result.latencyMs = l.captured(1).toDouble();
    return result;
}

} // namespace pepsi::bench
