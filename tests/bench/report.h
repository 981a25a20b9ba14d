// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "benchoptions.h"
#include "pgbenchrun.h"
#include "pipelinerun.h"

#include <optional>

namespace pepsi::bench {

// The run's settings and the machine, before anything runs.
void printHeader(const BenchOptions &options);

// The pipeline's figures, the pgbench reference (when it ran), the targets of
// doc/performance.rst and one RESULT line for scripts. Returns whether every message was done.
bool printReport(const BenchOptions &options, const PipelineResult &pipeline,
                 const std::optional<PgbenchResult> &pgbench);

} // namespace pepsi::bench
