// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "benchoptions.h"
#include "benchsetup.h"
#include "pipelinerun.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace pepsi::bench {

// One pipeline run of --hold-snapshot: clean, or with a session holding an
// XID (BEGIN; SELECT txid_current()) from before the daemon starts until
// every message is done, so nothing the run writes can be cleaned.
struct HeldPhase
{
    bool held = false;
    PipelineResult pipeline;
    QList<double> windowHopsPerSecond;  // per WindowSeconds, from the rows' updated (3 hops a done row)
    QList<double> quarterHopsPerSecond; // per quarter of the run
    double lastTenSecondsHopsPerSecond = 0;
    ClaimStatement claim; // calls < 0: pg_stat_statements not loaded
    // EXPLAIN (ANALYZE, BUFFERS) of the claim round once everything is done
    // (nothing pending: every pick walks what it finds): the plan nodes that
    // touched the most shared buffers, and where the whole plan went.
    QStringList planHotNodes;
    QString planFile;
};

struct HeldResult
{
    QList<HeldPhase> phases; // clean, held
};

inline constexpr int WindowSeconds = 5;

Result<HeldResult, QString> runHeldSnapshot(const BenchOptions &options);

// The phases side by side: hops/s, the held/clean ratio, per quarter and per
// window, the claim round's time and buffers; a RESULT line per phase.
bool printHeldReport(const BenchOptions &options, const HeldResult &result);

} // namespace pepsi::bench
