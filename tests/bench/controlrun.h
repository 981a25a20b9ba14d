// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "benchoptions.h"
#include "controlpoller.h"

#include <QList>
#include <QString>

namespace pepsi::bench {

// Who talks to the control socket during a run.
enum class ControlClient {
    None,      // nobody
    Console,   // as pepsi-console polls: workers every 1 s, status every 2 s
    FastStatus // status every 100 ms: a latency sample of its own
};
QString clientName(ControlClient client);

// One pass of --messages through the three stages beside the history.
struct ControlRun
{
    int index = 0; // 1, 2, ... in the order they ran
    ControlClient client = ControlClient::None;
    qint64 done = 0;        // of this run's messages
    qint64 failed = 0;      // of this run's messages, failed or timeout
    double wallSeconds = 0; // the insert's commit -> the last message done (the rows' times)
    double hopsPerSecond = 0;
    // Replies to requests sent while the messages flowed (insert -> the
    // driver saw none open), in the order they came.
    QList<PollSample> flowing;
    qint64 largestReplyBytes = 0; // any reply of the run
    int replyErrors = 0;          // "ok": false among them
    QString clientError;          // the connection broke (or never was)
    int daemonExitCode = -1;
};

struct ControlResult
{
    QList<ControlRun> runs;
    double fillSeconds = 0; // the history: INSERT ... SELECT and VACUUM ANALYZE
    QString fsync;
    QString logFile;
};

// The history first (--history done, --failed failed rows), then
// --repeat rounds of the three client variants, alternating; a daemon of its
// own for each run, the messages inserted once it listens (and the client
// is connected). Each run's rows are deleted before the next.
Result<ControlResult, QString> runControl(const BenchOptions &options);

// One reply of the --pool-size variant.
struct PoolReply
{
    QString name; // for RESULT: workers, workers-no-ids, workers-stage, status, status-stage, queues
    QByteArray request;
    qint64 bytes = 0; // the line with its newline
    bool ok = false;
    QString error;
};

struct PoolResult
{
    int workers = 0; // live workers when the replies were asked for
    qint64 held = 0; // rows running: ids the workers hold
    QList<PoolReply> replies;
    int daemonExitCode = -1;
    QString logFile;
};

// One stage of --pool-size workers with --queue-limit ids each, every one
// of them full (the fake worker holds its messages), beside the history;
// then `workers`, `status` and `queues` (and their narrowed forms, which an
// older daemon ignores), each reply's size.
Result<PoolResult, QString> runPool(const BenchOptions &options);

// The report of each; both return whether the runs completed.
bool printControlReport(const BenchOptions &options, const ControlResult &result);
bool printPoolReport(const BenchOptions &options, const PoolResult &result);

} // namespace pepsi::bench
