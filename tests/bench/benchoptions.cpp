// SPDX-License-Identifier: AGPL-3.0-or-later
#include "benchoptions.h"

#include <QCommandLineParser>
#include <QFileInfo>

namespace pepsi::bench {

namespace {

// The items of a comma-separated option, trimmed, each through parse (which
// says what it wanted when it refuses one). Empty items are skipped where a
// list of names tolerates a stray comma, and refused where each must count.
template<typename Item, typename Parse>
std::optional<QString> readList(const QCommandLineParser &parser, const QString &name, Qt::SplitBehavior empties,
                                Parse parse, QList<Item> *out)
{
    if (!parser.isSet(name))
        return std::nullopt;
    out->clear();
    for (const QString &item : parser.value(name).split(u',', empties)) {
        const Result<Item, QString> parsed = parse(item.trimmed());
        if (!parsed)
            return QStringLiteral("--%1: \"%2\" is not %3").arg(name, item.trimmed(), parsed.error());
        *out << *parsed;
    }
    return std::nullopt;
}

QString defaultPgbench()
{
    // Debian's /usr/bin/pgbench is a wrapper that picks a cluster version.
    const QString real = QStringLiteral("/usr/lib/postgresql/15/bin/pgbench");
    return QFileInfo(real).isExecutable() ? real : QStringLiteral("pgbench");
}

} // namespace

std::optional<QString> parseCommandLine(QCommandLineParser &parser, const QStringList &arguments)
{
    if (!parser.parse(arguments))
        return parser.errorText();
    if (parser.isSet(QStringLiteral("help")))
        parser.showHelp(0); // exits
    if (!parser.positionalArguments().isEmpty())
        return QStringLiteral("unexpected argument \"%1\"").arg(parser.positionalArguments().constFirst());
    return std::nullopt;
}

std::optional<QString> readCount(const QCommandLineParser &parser, const QString &name, int min, int max, int *out)
{
    if (!parser.isSet(name))
        return std::nullopt;
    bool ok = false;
    const int value = parser.value(name).toInt(&ok);
    if (!ok || value < min || value > max)
        return QStringLiteral("--%1: \"%2\" is not a whole number in %3..%4")
            .arg(name, parser.value(name))
            .arg(min)
            .arg(max);
    *out = value;
    return std::nullopt;
}

void readBenchDirs(const QCommandLineParser &parser, const QString &workSubdir, BenchOptions *o)
{
    o->buildDir = QFileInfo(parser.isSet(QStringLiteral("build")) ? parser.value(QStringLiteral("build"))
                                                                  : QStringLiteral(PEPSI_BENCH_BUILD_DIR))
                      .absoluteFilePath();
    o->workDir = QFileInfo(parser.isSet(QStringLiteral("work-dir")) ? parser.value(QStringLiteral("work-dir"))
                                                                    : o->buildDir + workSubdir)
                     .absoluteFilePath();
    if (parser.isSet(QStringLiteral("user")))
        o->user = parser.value(QStringLiteral("user"));
}

Result<BenchOptions, QString> parseBenchOptions(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Drives N messages through three stages of pepsi-stage-example under a real pepsi-dispatch,\n"
                       "then measures the single-row UPDATE rate of the same PostgreSQL with pgbench.\n"
                       "Usually started by tests/bench/run-bench, which prepares the database."));
    parser.addHelpOption();
    parser.addOptions({
        {QStringLiteral("database"),
         QStringLiteral("libpq URI of a database holding the schema (required; "
                        "default $PEPSI_BENCH_DATABASE)"),
         QStringLiteral("URI")},
        {QStringLiteral("build"), QStringLiteral("build directory (default: $PEPSI_BUILD_DIR, else this build)"),
         QStringLiteral("DIR")},
        {QStringLiteral("work-dir"),
         QStringLiteral("where pepsi.conf and the daemon's log go (default BUILD/bench-work)"), QStringLiteral("DIR")},
        {QStringLiteral("messages"), QStringLiteral("messages to push through (default 20000)"), QStringLiteral("N")},
        {QStringLiteral("parallelism"), QStringLiteral("PARALLELISM of every stage (default 4)"), QStringLiteral("P")},
        {QStringLiteral("queue-limit"), QStringLiteral("QUEUE_LIMIT of every stage (default 4)"), QStringLiteral("Q")},
        {QStringLiteral("max-messages"), QStringLiteral("MAX_MESSAGES of every stage (default: the daemon's)"),
         QStringLiteral("M")},
        {QStringLiteral("pgbench-seconds"), QStringLiteral("pgbench -T (default 10)"), QStringLiteral("S")},
        {QStringLiteral("no-pgbench"), QStringLiteral("skip the pgbench reference run")},
        {QStringLiteral("analyze"),
         QStringLiteral("ANALYZE workqueue once it is filled, so the claim plans with "
                        "the statistics of a burst: every row pending at the first stage")},
        {QStringLiteral("pgbench"), QStringLiteral("the pgbench binary"), QStringLiteral("PATH")},
        {QStringLiteral("user"), QStringLiteral("USER the daemon drops to when started as root (default pepsi)"),
         QStringLiteral("NAME")},
        {QStringLiteral("log-level"), QStringLiteral("the daemon's -L (default INFO)"), QStringLiteral("LEVEL")},
        {QStringLiteral("wrap"),
         QStringLiteral("run the daemon under this command (valgrind ...; see doc/performance.rst)"),
         QStringLiteral("COMMAND")},
        {QStringLiteral("stall-seconds"), QStringLiteral("give up when no message finishes for this long (default 60)"),
         QStringLiteral("S")},
        {QStringLiteral("latency"),
         QStringLiteral("pickup latency: single-row inserts into an idle pipeline, insert commit -> "
                        "stage start (see doc/performance.rst)")},
        {QStringLiteral("count"), QStringLiteral("--latency: rows inserted into the warm pipeline (default 500)"),
         QStringLiteral("N")},
        {QStringLiteral("interval"), QStringLiteral("--latency: milliseconds between two inserts (default 20)"),
         QStringLiteral("MS")},
        {QStringLiteral("cold"),
         QStringLiteral("--latency: rows inserted each after the pool went idle to zero workers (default 3)"),
         QStringLiteral("K")},
        {QStringLiteral("idle-seconds"),
         QStringLiteral("--latency: the wait before a cold insert, past WORKER_IDLE_TIMEOUT (default 7)"),
         QStringLiteral("S")},
        {QStringLiteral("backlog"),
         QStringLiteral("backlog scaling: claim-round time and hops/s with a small and a large pending backlog")},
        {QStringLiteral("backlog-sizes"),
         QStringLiteral("--backlog: pending rows of each run, comma-separated (default 10000,1000000)"),
         QStringLiteral("N,N")},
        {QStringLiteral("finished"), QStringLiteral("--backlog: done rows in the table beside them (default 1000000)"),
         QStringLiteral("N")},
        {QStringLiteral("backlog-seconds"),
         QStringLiteral("--backlog: stop each run when drained or after this long (default 20)"), QStringLiteral("S")},
        {QStringLiteral("vacuum-seconds"),
         QStringLiteral("--backlog: VACUUM workqueue every S seconds during a run (default 0: never)"),
         QStringLiteral("S")},
        {QStringLiteral("no-vacuum"),
         QStringLiteral("--backlog: ANALYZE the filled table, without the VACUUM that would set its visibility map")},
        {QStringLiteral("scale"),
         QStringLiteral("how the cost grows: stage chains and a fan-out, 500 workers, a deep backlog beside a large "
                        "history, the pipeline beside 3 M and 10 M finished rows, idle stages, a soak at 70 % of "
                        "capacity; tables and gnuplot plots")},
        {QStringLiteral("scale-parts"),
         QStringLiteral("--scale: the parts to run, comma-separated (default "
                        "chains,workers,backlog,history,idle,soak)"),
         QStringLiteral("LIST")},
        {QStringLiteral("scale-hops"),
         QStringLiteral("--scale: stage hops of each chain run, the same through every chain (default 200000)"),
         QStringLiteral("N")},
        {QStringLiteral("scale-finished"),
         QStringLiteral("--scale backlog: done rows beside the pending ones (default 10000000)"), QStringLiteral("N")},
        {QStringLiteral("history-sizes"),
         QStringLiteral("--scale history: done rows beside the reference run, comma-separated, one run each "
                        "(default 0,3000000,10000000)"),
         QStringLiteral("N,N")},
        {QStringLiteral("idle-minutes"),
         QStringLiteral("--scale idle: minutes 100 stages stay without messages (default 10)"), QStringLiteral("M")},
        {QStringLiteral("soak-minutes"), QStringLiteral("--scale soak: minutes of the soak (default 60)"),
         QStringLiteral("M")},
        {QStringLiteral("soak-sample-seconds"),
         QStringLiteral("--scale soak: seconds between two samples of rate and table sizes (default 60)"),
         QStringLiteral("S")},
        {QStringLiteral("soak-load"),
         QStringLiteral("--scale soak: insert rate in percent of the measured capacity (default 70)"),
         QStringLiteral("PERCENT")},
        {QStringLiteral("plot-dir"), QStringLiteral("--scale: where the plots go (default WORK_DIR/plots)"),
         QStringLiteral("DIR")},
        {QStringLiteral("hold-snapshot"),
         QStringLiteral("the pipeline clean, then with a session holding an XID (BEGIN; SELECT txid_current()) for the "
                        "whole run: hops/s per quarter and per 5 s, the claim round's time and buffers")},
        {QStringLiteral("control"),
         QStringLiteral("the control plane at production scale: hops/s with and without a client polling the "
                        "control socket, beside a large history; the status reply's latency")},
        {QStringLiteral("history"),
         QStringLiteral("--control: done rows in the table before the runs (default 3000000)"), QStringLiteral("N")},
        {QStringLiteral("failed"),
         QStringLiteral("--control: failed rows beside them, spread over the stages (default 20000)"),
         QStringLiteral("N")},
        {QStringLiteral("repeat"), QStringLiteral("--control: runs of each client variant, alternating (default 2)"),
         QStringLiteral("N")},
        {QStringLiteral("pool-size"),
         QStringLiteral("--control: instead, one stage of PARALLELISM P and --queue-limit, every worker full, "
                        "and the size of the workers, status and queues replies"),
         QStringLiteral("P")},
        {QStringLiteral("fused"),
         QStringLiteral("mark every stage after the first FUSE = YES: one worker pass runs all three")},
    });
    if (auto error = parseCommandLine(parser, arguments))
        return *error;

    BenchOptions o;
    o.fused = parser.isSet(QStringLiteral("fused"));
    const int modes = int(parser.isSet(QStringLiteral("latency"))) + int(parser.isSet(QStringLiteral("backlog")))
        + int(parser.isSet(QStringLiteral("control"))) + int(parser.isSet(QStringLiteral("hold-snapshot")))
        + int(parser.isSet(QStringLiteral("scale")));
    if (modes > 1)
        return QStringLiteral(
            "--latency, --backlog, --control, --hold-snapshot and --scale are separate runs: give one");
    if (parser.isSet(QStringLiteral("latency")))
        o.mode = BenchOptions::Mode::Latency;
    else if (parser.isSet(QStringLiteral("backlog")))
        o.mode = BenchOptions::Mode::Backlog;
    else if (parser.isSet(QStringLiteral("control")))
        o.mode = BenchOptions::Mode::Control;
    else if (parser.isSet(QStringLiteral("hold-snapshot")))
        o.mode = BenchOptions::Mode::HeldSnapshot;
    else if (parser.isSet(QStringLiteral("scale")))
        o.mode = BenchOptions::Mode::Scale;
    o.backlogVacuum = !parser.isSet(QStringLiteral("no-vacuum"));
    static const QStringList knownParts = BenchOptions().scaleParts;
    const auto part = [](const QString &item) -> Result<QString, QString> {
        if (!knownParts.contains(item))
            return failure(QStringLiteral("one of %1").arg(knownParts.join(u',')));
        return item;
    };
    if (auto error = readList(parser, QStringLiteral("scale-parts"), Qt::SkipEmptyParts, part, &o.scaleParts))
        return *error;
    if (parser.isSet(QStringLiteral("pool-size")) && o.mode != BenchOptions::Mode::Control)
        return QStringLiteral("--pool-size belongs to --control");
    const auto size = [](const QString &item) -> Result<int, QString> {
        bool ok = false;
        const int value = item.toInt(&ok);
        if (!ok || value < 1 || value > 100'000'000)
            return QStringLiteral("a whole number in 1..100000000");
        return value;
    };
    if (auto error = readList(parser, QStringLiteral("backlog-sizes"), Qt::KeepEmptyParts, size, &o.backlogSizes))
        return *error;
    const auto rows = [](const QString &item) -> Result<int, QString> {
        bool ok = false;
        const int value = item.toInt(&ok);
        if (!ok || value < 0 || value > 100'000'000)
            return QStringLiteral("a whole number in 0..100000000");
        return value;
    };
    if (auto error = readList(parser, QStringLiteral("history-sizes"), Qt::KeepEmptyParts, rows, &o.historySizes))
        return *error;
    o.database = parser.isSet(QStringLiteral("database")) ? parser.value(QStringLiteral("database"))
                                                          : qEnvironmentVariable("PEPSI_BENCH_DATABASE");
    if (o.database.isEmpty())
        return QStringLiteral("--database: no database given (and $PEPSI_BENCH_DATABASE is not set)");
    o.buildDir = parser.isSet(QStringLiteral("build")) ? parser.value(QStringLiteral("build"))
                                                       : qEnvironmentVariable("PEPSI_BUILD_DIR");
    if (o.buildDir.isEmpty())
        o.buildDir = QStringLiteral(PEPSI_BENCH_BUILD_DIR);
    o.buildDir = QFileInfo(o.buildDir).absoluteFilePath();
    o.workDir = parser.isSet(QStringLiteral("work-dir")) ? parser.value(QStringLiteral("work-dir"))
                                                         : o.buildDir + QStringLiteral("/bench-work");
    o.workDir = QFileInfo(o.workDir).absoluteFilePath();
    o.plotDir = parser.isSet(QStringLiteral("plot-dir")) ? parser.value(QStringLiteral("plot-dir"))
                                                         : o.workDir + QStringLiteral("/plots");
    o.plotDir = QFileInfo(o.plotDir).absoluteFilePath();
    o.pgbench = parser.isSet(QStringLiteral("pgbench")) ? parser.value(QStringLiteral("pgbench")) : defaultPgbench();
    o.runPgbench = !parser.isSet(QStringLiteral("no-pgbench"));
    o.analyze = parser.isSet(QStringLiteral("analyze"));
    if (parser.isSet(QStringLiteral("user")))
        o.user = parser.value(QStringLiteral("user"));
    if (parser.isSet(QStringLiteral("log-level")))
        o.logLevel = parser.value(QStringLiteral("log-level"));
    if (parser.isSet(QStringLiteral("wrap")))
        o.wrap = parser.value(QStringLiteral("wrap")).split(u' ', Qt::SkipEmptyParts);

    for (const auto &[name, min, max, out] : {
             std::tuple{QStringLiteral("messages"), 1, 100'000'000, &o.messages},
             std::tuple{QStringLiteral("parallelism"), 1, 1000, &o.parallelism},
             std::tuple{QStringLiteral("queue-limit"), 1, 100'000, &o.queueLimit},
             std::tuple{QStringLiteral("max-messages"), 1, 1'000'000'000, &o.maxMessages},
             std::tuple{QStringLiteral("pgbench-seconds"), 1, 3600, &o.pgbenchSeconds},
             std::tuple{QStringLiteral("stall-seconds"), 1, 86400, &o.stallSeconds},
             std::tuple{QStringLiteral("count"), 1, 1'000'000, &o.latencyCount},
             std::tuple{QStringLiteral("interval"), 1, 60'000, &o.latencyIntervalMs},
             std::tuple{QStringLiteral("cold"), 0, 100, &o.coldCount},
             std::tuple{QStringLiteral("idle-seconds"), 1, 3600, &o.idleSeconds},
             std::tuple{QStringLiteral("finished"), 0, 100'000'000, &o.finishedRows},
             std::tuple{QStringLiteral("backlog-seconds"), 1, 3600, &o.backlogSeconds},
             std::tuple{QStringLiteral("vacuum-seconds"), 0, 3600, &o.vacuumSeconds},
             std::tuple{QStringLiteral("history"), 0, 100'000'000, &o.historyRows},
             std::tuple{QStringLiteral("failed"), 0, 100'000'000, &o.failedRows},
             std::tuple{QStringLiteral("repeat"), 1, 100, &o.controlRepeat},
             std::tuple{QStringLiteral("pool-size"), 1, 1000, &o.poolSize},
             std::tuple{QStringLiteral("scale-hops"), 100, 100'000'000, &o.scaleHops},
             std::tuple{QStringLiteral("scale-finished"), 0, 100'000'000, &o.scaleFinished},
             std::tuple{QStringLiteral("idle-minutes"), 1, 1440, &o.idleMinutes},
             std::tuple{QStringLiteral("soak-minutes"), 1, 1440, &o.soakMinutes},
             std::tuple{QStringLiteral("soak-sample-seconds"), 5, 3600, &o.soakSampleSeconds},
             std::tuple{QStringLiteral("soak-load"), 1, 100, &o.soakLoadPercent},
         }) {
        if (auto error = readCount(parser, name, min, max, out))
            return *error;
    }
    return o;
}

} // namespace pepsi::bench
