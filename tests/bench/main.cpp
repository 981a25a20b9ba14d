// SPDX-License-Identifier: AGPL-3.0-or-later
// pepsi-bench: the pipeline benchmark of doc/performance.rst. Not a QTest:
// it prints figures and exits 0 when every message was done (targets met or
// not), 1 when the run could not complete, 64 on a bad command line.
#include "backlogrun.h"
#include "benchoptions.h"
#include "controlrun.h"
#include "heldrun.h"
#include "latencyrun.h"
#include "pgbenchrun.h"
#include "pipelinerun.h"
#include "report.h"
#include "scalerun.h"

#include <QCoreApplication>

#include <cstdio>

using namespace pepsi::bench;

namespace {

int failed(const QString &error)
{
    std::fprintf(stderr, "pepsi-bench: %s\n", error.toUtf8().constData());
    return 1;
}

// A mode that measures then prints: 1 when it could not measure, else whether
// its report found the run complete.
template<typename Value>
int measureAndReport(const BenchOptions &options, pepsi::Result<Value, QString> (*measure)(const BenchOptions &),
                     bool (*report)(const BenchOptions &, const Value &))
{
    const auto result = measure(options);
    if (!result)
        return failed(result.error());
    return report(options, result.value()) ? 0 : 1;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("pepsi-bench"));

    const auto parsed = parseBenchOptions(app.arguments());
    if (!parsed) {
        std::fprintf(stderr, "pepsi-bench: %s\n", parsed.error().toUtf8().constData());
        return 64;
    }
    const BenchOptions &options = parsed.value();
    printHeader(options);
    if (options.mode == BenchOptions::Mode::Scale)
        return runScale(options);
    if (options.mode == BenchOptions::Mode::Latency)
        return measureAndReport(options, runLatency, printLatencyReport);
    if (options.mode == BenchOptions::Mode::Backlog)
        return measureAndReport(options, runBacklog, printBacklogReport);
    if (options.mode == BenchOptions::Mode::HeldSnapshot)
        return measureAndReport(options, runHeldSnapshot, printHeldReport);
    if (options.mode == BenchOptions::Mode::Control && options.poolSize > 0)
        return measureAndReport(options, runPool, printPoolReport);
    if (options.mode == BenchOptions::Mode::Control)
        return measureAndReport(options, runControl, printControlReport);
    const auto pipeline = runPipeline(options);
    if (!pipeline)
        return failed(pipeline.error());

    // Measured after the pipeline, on the same server, so both see the same machine.
    std::optional<PgbenchResult> reference;
    if (options.runPgbench) {
        auto bench = runPgbench(options, options.workers());
        if (!bench)
            return failed(bench.error());
        reference = std::move(bench).value();
    }
    return printReport(options, pipeline.value(), reference) ? 0 : 1;
}
