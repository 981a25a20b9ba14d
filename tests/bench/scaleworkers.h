// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "benchdatabase.h"
#include "benchoptions.h"
#include "scalepipeline.h"

namespace pepsi::bench {

// --scale workers: 50 stages x PARALLELISM 10, 500 workers and as many
// server sessions, with work at every stage from the start so that the
// whole pool comes up at once.
Result<TopologyRun, QString> runWorkers(const BenchOptions &options, BenchDatabase &db, bool statStatements);

// The daemon's RSS and descriptors, the time to a full pool and the CPU per
// hop against the reference (the 3-stage chain's 12 workers at the defaults).
void printWorkersReport(const TopologyRun &workers, const TopologyRun &reference);

} // namespace pepsi::bench
