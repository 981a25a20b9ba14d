// SPDX-License-Identifier: AGPL-3.0-or-later
// The reports of --control: the runs with and without a client, and the
// reply sizes of one big pool.
#include "benchsetup.h"
#include "controlrun.h"
#include "reporttable.h"

#include <algorithm>

namespace pepsi::bench {

namespace {

// The targets of doc/performance.rst, "Control plane at production scale".
constexpr double TargetRatio = 0.95; // hops/s with the console's polling / without
constexpr double TargetStatusP99Ms = 20;
constexpr qint64 MaxLineBytes = 65536; // the protocol's line limit, newline included

struct Latency
{
    qsizetype count = 0;
    double p50 = 0, p95 = 0, p99 = 0, max = 0;
};

Latency latencyOf(const QList<const ControlRun *> &runs, const QString &name)
{
    QList<double> ms;
    for (const ControlRun *run : runs) {
        for (const PollSample &sample : run->flowing) {
            if (sample.name == name)
                ms << sample.latencyMs;
        }
    }
    std::sort(ms.begin(), ms.end());
    return {ms.size(), percentile(ms, 0.5), percentile(ms, 0.95), percentile(ms, 0.99), ms.isEmpty() ? 0 : ms.last()};
}

QString describe(const Latency &l)
{
    if (l.count == 0)
        return QStringLiteral("no replies while messages flowed");
    return QStringLiteral("p50 %1  p95 %2  p99 %3  max %4 ms (%5 replies)")
        .arg(num(l.p50, 2), num(l.p95, 2), num(l.p99, 2), num(l.max, 2))
        .arg(l.count);
}

QList<const ControlRun *> runsOf(const ControlResult &r, ControlClient client)
{
    QList<const ControlRun *> runs;
    for (const ControlRun &run : r.runs) {
        if (run.client == client)
            runs << &run;
    }
    return runs;
}

double meanHops(const QList<const ControlRun *> &runs)
{
    double sum = 0;
    for (const ControlRun *run : runs)
        sum += run->hopsPerSecond;
    return runs.isEmpty() ? 0 : sum / double(runs.size());
}

qint64 largestReply(const ControlResult &r, const QString &name)
{
    qint64 largest = 0;
    for (const ControlRun &run : r.runs) {
        for (const PollSample &sample : run.flowing) {
            if (sample.name == name)
                largest = std::max(largest, sample.bytes);
        }
    }
    return largest;
}

QString verdict(bool met) { return met ? QStringLiteral("met") : QStringLiteral("MISSED"); }

} // namespace

bool printControlReport(const BenchOptions &o, const ControlResult &r)
{
    out(QStringLiteral("control plane (server: fsync %1): %2 done and %3 failed rows in the table (filled in %4 s), "
                       "%5 messages a run")
            .arg(r.fsync)
            .arg(o.historyRows)
            .arg(o.failedRows)
            .arg(num(r.fillSeconds, 1))
            .arg(o.messages));
    const ReportTable table({{QStringLiteral("run"), 4},
                             {QStringLiteral("client"), -13},
                             {QStringLiteral("hops/s"), 8},
                             {QStringLiteral("wall s"), 8},
                             {QStringLiteral("largest reply B"), 16},
                             {QStringLiteral("status while flowing"), 0}});
    out(table.heading());
    bool complete = true;
    for (const ControlRun &run : r.runs) {
        const Latency status = latencyOf({&run}, QStringLiteral("status"));
        out(table.row({QString::number(run.index), clientName(run.client), num(run.hopsPerSecond),
                       num(run.wallSeconds, 2), QString::number(run.largestReplyBytes),
                       run.client == ControlClient::None ? QStringLiteral("-") : describe(status)})
            + (run.clientError.isEmpty() ? QString() : QStringLiteral("  CLIENT: ") + run.clientError));
        complete = complete && run.done == o.messages && run.failed == 0 && run.daemonExitCode == 0
            && run.clientError.isEmpty();
        if (run.done != o.messages || run.failed != 0)
            out(QStringLiteral("  INCOMPLETE: run %1: %2 done, %3 failed of %4")
                    .arg(run.index)
                    .arg(run.done)
                    .arg(run.failed)
                    .arg(o.messages));
        if (run.replyErrors > 0)
            out(QStringLiteral("  run %1: %2 replies were ok:false").arg(run.index).arg(run.replyErrors));
    }

    const double none = meanHops(runsOf(r, ControlClient::None));
    const double console = meanHops(runsOf(r, ControlClient::Console));
    const double fast = meanHops(runsOf(r, ControlClient::FastStatus));
    const double ratioConsole = none > 0 ? console / none : 0;
    const double ratioFast = none > 0 ? fast / none : 0;
    const Latency fastStatus = latencyOf(runsOf(r, ControlClient::FastStatus), QStringLiteral("status"));
    const Latency consoleStatus = latencyOf(runsOf(r, ControlClient::Console), QStringLiteral("status"));
    const Latency consoleWorkers = latencyOf(runsOf(r, ControlClient::Console), QStringLiteral("workers"));
    const qint64 largestWorkers = largestReply(r, QStringLiteral("workers"));
    const qint64 largestStatus = largestReply(r, QStringLiteral("status"));
    out(QStringLiteral("  mean hops/s: no client %1, console %2 (%3 x), status every 100 ms %4 (%5 x)")
            .arg(num(none), num(console), num(ratioConsole, 3), num(fast), num(ratioFast, 3)));
    out(QStringLiteral("  status, every 100 ms:     ") + describe(fastStatus));
    out(QStringLiteral("  status, console (2 s):    ") + describe(consoleStatus));
    out(QStringLiteral("  workers, console (1 s):   ") + describe(consoleWorkers));
    out(QStringLiteral("  largest reply line: workers %1 B, status %2 B (limit %3 B with the newline)")
            .arg(largestWorkers)
            .arg(largestStatus)
            .arg(MaxLineBytes));
    out(QStringLiteral("targets (doc/performance.rst)"));
    out(QStringLiteral("  hops/s with the console's polling >= %1 x without   %2 %3")
            .arg(num(TargetRatio, 2), num(ratioConsole, 3), verdict(ratioConsole >= TargetRatio)));
    out(QStringLiteral("  status p99 <= %1 ms while messages flow (100 ms)   %2 %3")
            .arg(num(TargetStatusP99Ms), num(fastStatus.p99, 2),
                 verdict(fastStatus.count > 0 && fastStatus.p99 <= TargetStatusP99Ms)));

    for (const ControlRun &run : r.runs) {
        const Latency status = latencyOf({&run}, QStringLiteral("status"));
        out(QStringLiteral("RESULT mode=control run=%1 client=%2 messages=%3 done=%4 wall_s=%5 hops_per_s=%6 "
                           "status_replies=%7 status_p50_ms=%8 status_p95_ms=%9 status_p99_ms=%10 status_max_ms=%11 "
                           "largest_reply_bytes=%12 reply_errors=%13")
                .arg(run.index)
                .arg(clientName(run.client))
                .arg(o.messages)
                .arg(run.done)
                .arg(num(run.wallSeconds, 3), num(run.hopsPerSecond))
                .arg(status.count)
                .arg(num(status.p50, 2), num(status.p95, 2), num(status.p99, 2), num(status.max, 2))
                .arg(run.largestReplyBytes)
                .arg(run.replyErrors));
    }
    out(QStringLiteral("RESULT mode=control summary=yes history=%1 failed=%2 messages=%3 repeat=%4 "
                       "hops_per_s_none=%5 hops_per_s_console=%6 hops_per_s_status_100ms=%7 ratio_console=%8 "
                       "ratio_status_100ms=%9 status_p50_ms=%10 status_p95_ms=%11 status_p99_ms=%12 "
                       "status_max_ms=%13 largest_workers_bytes=%14 largest_status_bytes=%15 fsync=%16")
            .arg(o.historyRows)
            .arg(o.failedRows)
            .arg(o.messages)
            .arg(o.controlRepeat)
            .arg(num(none), num(console), num(fast), num(ratioConsole, 3), num(ratioFast, 3))
            .arg(num(fastStatus.p50, 2), num(fastStatus.p95, 2), num(fastStatus.p99, 2), num(fastStatus.max, 2))
            .arg(largestWorkers)
            .arg(largestStatus)
            .arg(r.fsync));
    return complete;
}

bool printPoolReport(const BenchOptions &o, const PoolResult &r)
{
    out(QStringLiteral("control replies about one pool: stage %1 of PARALLELISM %2, QUEUE_LIMIT %3 (%4 ids held, "
                       "%5 live workers), %6 done and %7 failed rows in the table")
            .arg(QStringLiteral("hold"))
            .arg(o.poolSize)
            .arg(o.queueLimit)
            .arg(r.held)
            .arg(r.workers)
            .arg(o.historyRows)
            .arg(o.failedRows));
    bool allFit = true;
    for (const PoolReply &reply : r.replies) {
        const bool fits = reply.bytes > 0 && reply.bytes <= MaxLineBytes;
        allFit = allFit && fits;
        out(QStringLiteral("  %1 %2 B  %3%4")
                .arg(QString::fromUtf8(reply.request), -40)
                .arg(reply.bytes, 8)
                .arg(fits ? QStringLiteral("fits") : QStringLiteral("OVER THE LIMIT"),
                     reply.ok ? QStringLiteral(", ok") : QStringLiteral(", ok:false: ") + reply.error.left(160)));
    }
    out(QStringLiteral("targets (doc/performance.rst)"));
    out(QStringLiteral("  every reply <= %1 B with its newline   %2").arg(MaxLineBytes).arg(verdict(allFit)));
    for (const PoolReply &reply : r.replies) {
        out(QStringLiteral("RESULT mode=control-pool parallelism=%1 queue_limit=%2 request=%3 bytes=%4 ok=%5 fits=%6")
                .arg(o.poolSize)
                .arg(o.queueLimit)
                .arg(reply.name)
                .arg(reply.bytes)
                .arg(reply.ok ? QStringLiteral("yes") : QStringLiteral("no"),
                     reply.bytes > 0 && reply.bytes <= MaxLineBytes ? QStringLiteral("yes") : QStringLiteral("no")));
    }
    return r.daemonExitCode == 0 && r.replies.size() == 6;
}

} // namespace pepsi::bench
