// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "benchdatabase.h"
#include "benchoptions.h"
#include "scalepipeline.h"

#include <QList>
#include <QString>

namespace pepsi::bench {

// --scale history: the reference run beside N finished rows (vacuumed), for
// each N of --history-sizes, against the run beside the first N (0 by default).
struct HistoryRun
{
    qint64 finished = 0;
    bool again = false; // the first size once more, after the others: the drift
    TopologyRun run;
    // Hops between 10 % and 90 % of the messages finished, per second of that
    // span: the rate without the start of the pool and the pipeline's tail.
    double steadyHopsPerSecond = 0;
};

struct HistoryResult
{
    QList<HistoryRun> runs; // the first: the reference of the ratios
};

Result<HistoryResult, QString> runHistory(const BenchOptions &options, BenchDatabase &db, bool statStatements);

// The table, each figure with its ratio to the first run, the target (hops/s
// >= 0.9 x the first run's at every size) and RESULT lines. Returns whether
// every run's daemon stopped cleanly.
bool printHistoryReport(const BenchOptions &options, const HistoryResult &result);

} // namespace pepsi::bench
