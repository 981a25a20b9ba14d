// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "benchdatabase.h"
#include "benchoptions.h"
#include "scalepipeline.h"

#include <QList>

namespace pepsi::bench {

// --scale chains: the same number of hops through chains of 3, 10, 50 and
// 100 stages and a fan-out 1 -> 20 -> 1, each from an empty pipeline until drained.
struct ChainsResult
{
    QList<TopologyRun> runs; // the 3-stage chain first: the reference of the ratios
};

// The 3-stage chain at --parallelism and --queue-limit: the bench's default
// pipeline, the reference of every --scale ratio.
Result<TopologyRun, QString> runReferenceChain(const BenchOptions &options, BenchDatabase &db, bool statStatements);

// The runs after the reference (which the caller ran).
Result<ChainsResult, QString> runChains(const BenchOptions &options, BenchDatabase &db, const TopologyRun &reference,
                                        bool statStatements);

// The table, each figure against the reference as a ratio, and RESULT lines.
void printChainsReport(const BenchOptions &options, const ChainsResult &result);

// "1.23" or "-" when either side is unknown.
QString ratio(double value, double reference);

} // namespace pepsi::bench
