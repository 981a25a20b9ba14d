// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "result.h"

#include <QString>
#include <QStringList>

#include <optional>

class QCommandLineParser;

namespace pepsi::bench {

struct BenchOptions
{
    // Pipeline: N messages through the three stages (throughput, CPU per hop).
    // Latency: single rows into an idle pipeline, insert commit -> stage start.
    // Backlog: the pipeline with a small and a large pending backlog.
    // Control: the pipeline beside a production-sized history, with and
    // without a client on the control socket (or, with --pool-size, the
    // size of the replies about one big pool).
    // HeldSnapshot: the pipeline clean, then with a session holding an XID.
    // Scale: how the cost grows (stage chains, 500 workers, a deep backlog,
    // a large history, idle stages, a soak), each part in turn, with gnuplot plots.
    enum class Mode { Pipeline, Latency, Backlog, Control, HeldSnapshot, Scale };
    Mode mode = Mode::Pipeline;

    QString database;                       // libpq URI of a database with the schema installed
    QString buildDir;                       // holds daemon/pepsi-dispatch and stagekit/pepsi-stage-example
    QString workDir;                        // pepsi.conf, the daemon's log, the pgbench script
    QString user = QStringLiteral("pepsi"); // USER: the account the daemon drops to as root
    QString logLevel = QStringLiteral("INFO");
    QString pgbench;  // the pgbench binary
    QStringList wrap; // run the daemon under this (valgrind ...): CPU figures then mean little
    int messages = 20000;
    int parallelism = 4;
    int queueLimit = 4;
    int maxMessages = 0; // 0: the daemon's default MAX_MESSAGES
    int pgbenchSeconds = 10;
    int stallSeconds = 60; // give up when nothing finishes for this long
    bool runPgbench = true;
    bool analyze = false; // ANALYZE workqueue after filling it (statistics of a burst)
    bool fused = false;

    int latencyCount = 500;     // --latency: rows inserted one at a time into a warm pipeline
    int latencyIntervalMs = 20; // between two of those inserts
    int coldCount = 3;          // rows inserted each after the pool went to zero workers
    int idleSeconds = 7;        // how long "idle" is: past WORKER_IDLE_TIMEOUT (5 s)

    QList<int> backlogSizes = {10'000, 1'000'000}; // --backlog: pending rows, one run each
    int finishedRows = 1'000'000;                  // done rows in the table beside them
    int backlogSeconds = 20;                       // each run stops when drained or after this long
    int vacuumSeconds = 0;     // --backlog: VACUUM workqueue this often during a run (0: never, autovacuum only)
    bool backlogVacuum = true; // --backlog: VACUUM ANALYZE after filling (--no-vacuum: ANALYZE only)

    int historyRows = 3'000'000; // --control: done rows in the table, a week of history
    int failedRows = 20'000;     // --control: failed rows beside them, spread over the stages
    int controlRepeat = 2;       // --control: each client variant runs this often, alternating
    int poolSize = 0;            // --control --pool-size P: one stage of P workers, every one full

    // --scale: the parts to run, in this order.
    QStringList scaleParts = {QStringLiteral("chains"),  QStringLiteral("workers"), QStringLiteral("backlog"),
                              QStringLiteral("history"), QStringLiteral("idle"),    QStringLiteral("soak")};
    int scaleHops = 200'000;        // --scale chains: hops of each chain run, the same through every one
    int scaleFinished = 10'000'000; // --scale backlog: done rows beside the pending ones
    // --scale history: done rows in the table beside the reference run, one run each.
    QList<int> historySizes = {0, 3'000'000, 10'000'000};
    int idleMinutes = 10;       // --scale idle: how long 100 stages stay without messages
    int soakMinutes = 60;       // --scale soak: how long the soak feeds the pipeline
    int soakSampleSeconds = 60; // --scale soak: one sample of rate and table sizes this often
    int soakLoadPercent = 70;   // --scale soak: the insert rate, share of the measured capacity
    QString plotDir;            // --scale: where the plots go (default WORK_DIR/plots)

    int stages() const { return 3; }
    // Worker processes at full load: fused, only the first stage has any.
    int workers() const { return (fused ? 1 : stages()) * parallelism; }
    qint64 hops() const { return qint64(stages()) * messages; }
};

// The error is one line for stderr (exit 64).
Result<BenchOptions, QString> parseBenchOptions(const QStringList &arguments);

// The start every bench program's command line shares: --help prints and
// exits here; a parse error or a positional argument is the error line.
std::optional<QString> parseCommandLine(QCommandLineParser &parser, const QStringList &arguments);
// --NAME, when given, as a whole number in min..max into *out, else the error line.
std::optional<QString> readCount(const QCommandLineParser &parser, const QString &name, int min, int max, int *out);
// --build (default: this build), --work-dir (default BUILD + workSubdir), both
// made absolute, and --user, for the programs without pepsi-bench's variables.
void readBenchDirs(const QCommandLineParser &parser, const QString &workSubdir, BenchOptions *o);

} // namespace pepsi::bench
