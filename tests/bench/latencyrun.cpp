// SPDX-License-Identifier: AGPL-3.0-or-later
#include "latencyrun.h"

#include "benchdatabase.h"
#include "benchsetup.h"
#include "procstats.h"

#include <QElapsedTimer>
#include <QHash>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QThread>
#include <QVariant>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

namespace pepsi::bench {

namespace {

constexpr double TargetP50Ms = 2.0;
constexpr double TargetP99Ms = 10.0;

qint64 nowUsec()
{
    return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

struct Inserted
{
    qint64 id = 0;
    qint64 sentUsec = 0;
    qint64 committedUsec = 0;
    int workersBefore = -1;
    bool cold = false;
};

// One autocommit INSERT: its own transaction, committed when exec() returns,
// and one NOTIFY workqueue from the statement trigger, as pepsi-ingress sends.
std::optional<QString> insertOne(BenchDatabase &db, qint64 daemonPid, bool cold, QList<Inserted> *rows)
{
    Inserted row;
    row.cold = cold;
    row.workersBefore = liveChildrenCount(daemonPid);
    row.sentUsec = nowUsec();
    QSqlQuery q = db.query(QStringLiteral("INSERT INTO workqueue (stage) VALUES ('%1') RETURNING workqueue_id")
                               .arg(stageNames().constFirst()));
    row.committedUsec = nowUsec();
    if (!q.next())
        return db.lastError();
    row.id = q.value(0).toLongLong();
    rows->append(row);
    return std::nullopt;
}

// Waits (polling every 100 ms) until nothing is pending or running; false
// after stallSeconds without that.
bool waitDrained(BenchDatabase &db, int stallSeconds)
{
    QElapsedTimer clock;
    clock.start();
    const QString leftSql = QStringLiteral("SELECT EXISTS (SELECT 1 FROM workqueue WHERE status = 'pending')"
                                           "    OR EXISTS (SELECT 1 FROM workqueue WHERE status = 'running')");
    while (db.scalar(leftSql).toBool()) {
        if (clock.elapsed() > stallSeconds * 1000LL)
            return false;
        QThread::msleep(100);
    }
    return true;
}

double percentile(QList<double> values, double share)
{
    if (values.isEmpty())
        return 0;
    std::sort(values.begin(), values.end());
    // Nearest rank: the smallest value with at least share of them at or below it.
    const auto rank = qsizetype(std::ceil(share * double(values.size())));
    return values.at(std::clamp<qsizetype>(rank - 1, 0, values.size() - 1));
}

QString ms(double value) { return QString::number(value, 'f', 2); }

QString metOrMissed(bool met) { return met ? QStringLiteral("met") : QStringLiteral("MISSED"); }

QList<double> column(const QList<PickupSample> &samples, double PickupSample::*field)
{
    QList<double> values;
    values.reserve(samples.size());
    for (const PickupSample &s : samples)
        values << s.*field;
    return values;
}

QString spread(const QList<double> &values)
{
    return QStringLiteral("p50 %1  p90 %2  p99 %3  max %4 ms")
        .arg(ms(percentile(values, 0.5)), ms(percentile(values, 0.9)), ms(percentile(values, 0.99)),
             ms(values.isEmpty() ? 0 : *std::max_element(values.begin(), values.end())));
}

} // namespace

Result<LatencyResult, QString> runLatency(const BenchOptions &o)
{
    BenchDatabase db;
    // Only the first stage's stamp is read; the others advance as usual.
    const auto config = prepareRun(o, db, QStringLiteral("STAMP_START = YES\n"));
    if (!config)
        return config.error();
    if (!db.exec(QStringLiteral("TRUNCATE workqueue RESTART IDENTITY")))
        return db.lastError();

    LatencyResult result;
    result.logFile = o.workDir + QStringLiteral("/daemon.log");
    result.server = readDurability(db);
    QProcess daemon;
    progress(QStringLiteral("latency: starting the daemon on an empty queue"));
    if (auto error = startDaemon(o, *config, result.logFile, &daemon))
        return *error;
    const qint64 pid = daemon.processId();

    QList<Inserted> rows;
    // Cold: the daemon has no worker (just started, or idle past WORKER_IDLE_TIMEOUT).
    for (int i = 0; i < o.coldCount; ++i) {
        progress(QStringLiteral("latency: cold row %1 of %2 after %3 s idle")
                     .arg(i + 1)
                     .arg(o.coldCount)
                     .arg(o.idleSeconds));
        QThread::sleep(o.idleSeconds);
        if (auto error = insertOne(db, pid, true, &rows))
            return *error;
        if (!waitDrained(db, o.stallSeconds))
            return QStringLiteral("a cold row was not done within %1 s; see %2")
                .arg(o.stallSeconds)
                .arg(result.logFile);
    }
    // Warm: a first row brings the first stage's worker up; it is not counted.
    progress(QStringLiteral("latency: %1 rows, one every %2 ms").arg(o.latencyCount).arg(o.latencyIntervalMs));
    QList<Inserted> warmUp;
    if (auto error = insertOne(db, pid, false, &warmUp))
        return *error;
    waitDrained(db, o.stallSeconds);
    QElapsedTimer clock;
    clock.start();
    for (int i = 0; i < o.latencyCount; ++i) {
        const qint64 due = qint64(i) * o.latencyIntervalMs;
        if (const qint64 wait = due - clock.elapsed(); wait > 0)
            QThread::msleep(quint64(wait));
        if (auto error = insertOne(db, pid, false, &rows))
            return *error;
    }
    const bool drained = waitDrained(db, o.stallSeconds);

    const auto stopped = stopDaemon(&daemon, result.logFile);
    if (!stopped)
        return stopped.error();
    result.daemonExitCode = stopped.value();
    if (!drained)
        return QStringLiteral("the rows were not done within %1 s; see %2").arg(o.stallSeconds).arg(result.logFile);

    QHash<qint64, qint64> started;
    QSqlQuery q = db.query(QStringLiteral("SELECT workqueue_id, (state #>> '{started,%1}')::bigint FROM workqueue "
                                          "WHERE state #> '{started,%1}' IS NOT NULL")
                               .arg(stageNames().constFirst()));
    while (q.next())
        started.insert(q.value(0).toLongLong(), q.value(1).toLongLong());
    for (const Inserted &row : std::as_const(rows)) {
        const auto it = started.constFind(row.id);
        if (it == started.constEnd()) {
            ++result.lost;
            continue;
        }
        const PickupSample sample{double(*it - row.committedUsec) / 1000.0, double(*it - row.sentUsec) / 1000.0,
                                  row.workersBefore};
        (row.cold ? result.cold : result.warm) << sample;
    }
    return result;
}

bool printLatencyReport(const BenchOptions &o, const LatencyResult &r)
{
    out(QStringLiteral("pickup latency (server: fsync %1, synchronous_commit %2): insert commit -> the first "
                       "stage's handler began the row")
            .arg(r.server.fsync, r.server.synchronousCommit));
    const QList<double> warm = column(r.warm, &PickupSample::fromCommitMs);
    out(QStringLiteral("  warm, %1 rows, one INSERT every %2 ms").arg(r.warm.size()).arg(o.latencyIntervalMs));
    out(QStringLiteral("    from COMMIT returned     %1").arg(spread(warm)));
    out(QStringLiteral("    from INSERT sent         %1").arg(spread(column(r.warm, &PickupSample::fromSendMs))));
    if (!r.cold.isEmpty()) {
        QStringList each;
        for (const PickupSample &s : r.cold)
            each << QStringLiteral("%1 ms (%2 workers before)").arg(ms(s.fromCommitMs)).arg(s.workersBefore);
        out(QStringLiteral("  cold, %1 rows each after %2 s idle (WORKER_IDLE_TIMEOUT 5 s: the pool at zero)")
                .arg(r.cold.size())
                .arg(o.idleSeconds));
        out(QStringLiteral("    from COMMIT returned     %1").arg(each.join(QStringLiteral(", "))));
    }
    if (r.lost > 0)
        out(QStringLiteral("  INCOMPLETE: %1 rows without a stamp; log %2").arg(r.lost).arg(r.logFile));
    const double p50 = percentile(warm, 0.5);
    const double p99 = percentile(warm, 0.99);
    out(QStringLiteral("targets (doc/performance.rst)"));
    out(QStringLiteral("  pickup p50 <= 2 ms              %1 %2").arg(ms(p50), metOrMissed(p50 <= TargetP50Ms)));
    out(QStringLiteral("  pickup p99 <= 10 ms             %1 %2").arg(ms(p99), metOrMissed(p99 <= TargetP99Ms)));
    const QList<double> cold = column(r.cold, &PickupSample::fromCommitMs);
    const bool complete = r.lost == 0 && r.daemonExitCode == 0;
    out(QStringLiteral("RESULT mode=latency count=%1 interval_ms=%2 p50_ms=%3 p90_ms=%4 p99_ms=%5 max_ms=%6 "
                       "cold_count=%7 cold_p50_ms=%8 cold_max_ms=%9 complete=%10 fsync=%11")
            .arg(r.warm.size())
            .arg(o.latencyIntervalMs)
            .arg(ms(p50), ms(percentile(warm, 0.9)), ms(p99), ms(percentile(warm, 1.0)))
            .arg(r.cold.size())
            .arg(ms(percentile(cold, 0.5)), ms(percentile(cold, 1.0)),
                 complete ? QStringLiteral("yes") : QStringLiteral("no"), r.server.fsync));
    return complete;
}

} // namespace pepsi::bench
