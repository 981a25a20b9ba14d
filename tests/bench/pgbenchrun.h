// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "benchoptions.h"

namespace pepsi::bench {

struct PgbenchResult
{
    int clients = 0;
    int threads = 0;
    double tps = 0; // "without initial connection time"
    double latencyMs = 0;
    qint64 transactions = 0;
    qint64 clientCpuUsec = 0;    // pgbench itself
    qint64 postgresCpuUsec = -1; // the postmaster and all its backends; -1: unknown
};

// The physical limit the pipeline is held against: one-row UPDATEs, each its
// own transaction, from as many clients as the pipeline has workers, on a
// 100,000-row table of our own (pgbench's tpcb tables would also write
// history and branches).
Result<PgbenchResult, QString> runPgbench(const BenchOptions &options, int clients);

} // namespace pepsi::bench
