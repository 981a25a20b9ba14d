// SPDX-License-Identifier: AGPL-3.0-or-later
#include "scalesoak.h"

#include "benchsetup.h"
#include "procstats.h"
#include "reporttable.h"
#include "scaletopology.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QSqlQuery>
#include <QVariant>

#include <cmath>

namespace pepsi::bench {

namespace {

// How often the feed inserts what is due: one statement (one NOTIFY) each,
// as pepsi-ingress sends batches.
constexpr int FeedMs = 200;

std::optional<QString> sample(BenchDatabase &db, double minute, qint64 inserted, SoakResult *result)
{
    (void)db.scalar(QStringLiteral("SELECT pg_stat_force_next_flush()"));
    // The backlog through the partial indexes, never a count of the finished rows.
    QSqlQuery q = db.query(QStringLiteral("SELECT (%1), pg_relation_size('workqueue'), pg_indexes_size('workqueue'), "
                                          "n_dead_tup, n_live_tup, autovacuum_count FROM pg_stat_user_tables "
                                          "WHERE relname = 'workqueue'")
                               .arg(openRowCountSql()));
    if (!q.next())
        return db.lastError();
    SoakSample s;
    s.minute = minute;
    s.inserted = inserted;
    s.open = q.value(0).toLongLong();
    s.heapBytes = q.value(1).toLongLong();
    s.indexBytes = q.value(2).toLongLong();
    s.deadTuples = q.value(3).toLongLong();
    s.liveTuples = q.value(4).toLongLong();
    s.autovacuums = q.value(5).toLongLong();
    const SoakSample previous = result->samples.isEmpty() ? SoakSample{} : result->samples.constLast();
    const double minutes = s.minute - previous.minute;
    if (minutes > 0)
        s.messagesPerMin = double((s.inserted - s.open) - (previous.inserted - previous.open)) / minutes;
    result->samples << s;
    return std::nullopt;
}

} // namespace

Result<SoakResult, QString> runSoak(const BenchOptions &o, BenchDatabase &db, double capacityHopsPerSecond)
{
    SoakResult result;
    result.capacityHopsPerSecond = capacityHopsPerSecond;
    const ScaleTopology topology = chainTopology(3, o.parallelism, o.queueLimit);
    result.feedMessagesPerSecond = capacityHopsPerSecond * o.soakLoadPercent / 100.0 / double(topology.stages.size());
    if (result.feedMessagesPerSecond <= 0)
        return QStringLiteral("soak: no capacity measured");
    const auto config = prepareEmptyTopology(o, db, topology);
    if (!config)
        return config.error();
    const QString logFile = o.workDir + QStringLiteral("/daemon.log");
    progress(QStringLiteral("scale: soak, %1 messages/s (%2 % of %3 hops/s) for %4 min")
                 .arg(num(result.feedMessagesPerSecond, 1))
                 .arg(o.soakLoadPercent)
                 .arg(num(capacityHopsPerSecond))
                 .arg(o.soakMinutes));
    QProcess daemon;
    if (auto error = startDaemon(o, *config, logFile, &daemon))
        return *error;
    const qint64 pid = daemon.processId();
    if (auto error = sample(db, 0, 0, &result))
        return *error;

    const QString insertSql = QStringLiteral("INSERT INTO workqueue (stage) SELECT '%1' FROM generate_series(1, %2)");
    QElapsedTimer clock;
    clock.start();
    qint64 inserted = 0;
    qint64 nextSampleMs = o.soakSampleSeconds * 1000LL;
    while (clock.elapsed() < o.soakMinutes * 60'000LL) {
        // What is due by now at the feed rate: a slow insert is caught up, not lost.
        const auto due = qint64(std::floor(result.feedMessagesPerSecond * double(clock.elapsed()) / 1000.0));
        if (due > inserted) {
            if (!db.exec(insertSql.arg(topology.stages.constFirst()).arg(due - inserted)))
                return db.lastError();
            inserted = due;
        }
        if (clock.elapsed() >= nextSampleMs) {
            if (auto error = sample(db, double(clock.elapsed()) / 60'000.0, inserted, &result))
                return *error;
            const SoakSample &s = result.samples.constLast();
            progress(QStringLiteral("soak %1 min: %2 messages/min, %3 open, %4 dead tuples")
                         .arg(num(s.minute, 1), num(s.messagesPerMin))
                         .arg(s.open)
                         .arg(s.deadTuples));
            nextSampleMs += o.soakSampleSeconds * 1000LL;
        }
        if (daemon.waitForFinished(FeedMs))
            return QStringLiteral("soak: the daemon exited (status %1); see %2").arg(daemon.exitCode()).arg(logFile);
    }
    // The last stretch counts too, however it divides into the sample interval.
    if (auto error = sample(db, double(clock.elapsed()) / 60'000.0, inserted, &result))
        return *error;
    result.daemonCpuUsec = sampleProcess(pid).cpuUsec;
    const auto stopped = stopDaemon(&daemon, logFile);
    if (!stopped)
        return stopped.error();
    result.daemonExitCode = stopped.value();
    return result;
}

void printSoakReport(const BenchOptions &o, const SoakResult &r)
{
    out(QStringLiteral("soak: 3 stages, PARALLELISM %1, fed %2 messages/s (%3 % of the reference's %4 hops/s) for %5 "
                       "min; stock autovacuum")
            .arg(o.parallelism)
            .arg(num(r.feedMessagesPerSecond, 1))
            .arg(o.soakLoadPercent)
            .arg(num(r.capacityHopsPerSecond))
            .arg(o.soakMinutes));
    const ReportTable table({{QStringLiteral("minute"), 7},
                             {QStringLiteral("msgs/min"), 9},
                             {QStringLiteral("open"), 8},
                             {QStringLiteral("heap MiB"), 9},
                             {QStringLiteral("index MiB"), 10},
                             {QStringLiteral("live"), 9},
                             {QStringLiteral("dead"), 9},
                             {QStringLiteral("autovacuums"), 12}});
    out(table.heading());
    for (const SoakSample &s : r.samples) {
        out(table.row({num(s.minute, 1), num(s.messagesPerMin), QString::number(s.open),
                       num(double(s.heapBytes) / 1048576.0, 1), num(double(s.indexBytes) / 1048576.0, 1),
                       QString::number(s.liveTuples), QString::number(s.deadTuples), QString::number(s.autovacuums)}));
        out(QStringLiteral("RESULT mode=scale part=soak minute=%1 messages_per_min=%2 open=%3 heap_bytes=%4 "
                           "index_bytes=%5 live_tuples=%6 dead_tuples=%7 autovacuums=%8")
                .arg(num(s.minute, 2), num(s.messagesPerMin, 1), QString::number(s.open), QString::number(s.heapBytes),
                     QString::number(s.indexBytes), QString::number(s.liveTuples), QString::number(s.deadTuples),
                     QString::number(s.autovacuums)));
    }
    if (r.samples.size() > 1) {
        const qint64 messages = r.samples.constLast().inserted - r.samples.constLast().open;
        const double hops = 3.0 * double(messages);
        out(QStringLiteral("  daemon CPU per hop over the soak    %1 µs").arg(num(double(r.daemonCpuUsec) / hops, 1)));
    }
}

} // namespace pepsi::bench
