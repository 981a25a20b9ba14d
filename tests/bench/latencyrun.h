// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "benchoptions.h"
#include "serverdurability.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace pepsi::bench {

// Milliseconds from a row's insert to the moment the first stage's handler
// began it (state.started.first, written by the reference stage with
// STAMP_START = YES, by the same machine's real-time clock).
struct PickupSample
{
    double fromCommitMs = 0; // from the client's clock right after COMMIT returned
    double fromSendMs = 0;   // from just before the INSERT was sent: an upper bound
    int workersBefore = -1;  // the daemon's live children when the row went in
};

struct LatencyResult
{
    QList<PickupSample> warm; // one row every interval, the pool warm
    QList<PickupSample> cold; // rows each after the pool idled to zero workers
    qint64 lost = 0;          // rows without a stamp (should be none)
    int daemonExitCode = -1;
    QString logFile;
    ServerDurability server;
};

// Starts the daemon on an empty queue, inserts the cold rows then the warm
// ones, one committed INSERT each, waits for all of them to be done and reads
// the stamps.
Result<LatencyResult, QString> runLatency(const BenchOptions &options);

// The figures, the targets (p50 <= 2 ms, p99 <= 10 ms) and a RESULT line.
// Returns whether every row was stamped and the daemon stopped cleanly.
bool printLatencyReport(const BenchOptions &options, const LatencyResult &result);

} // namespace pepsi::bench
