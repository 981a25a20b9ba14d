// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

// The enrich stage at work as the tests of the protocol's values and of the
// control socket picture it (doc/control-protocol.rst): for tests that link
// pepsi_protocol. The figures are what those tests assert on the wire.
#include "control/snapshots.h"

// 3 workers, 2 busy, 5 of 16 in flight.
inline pepsi::PoolSnapshot sampleEnrichPool()
{
    pepsi::PoolSnapshot pool;
    pool.stage = QStringLiteral("enrich");
    pool.workers = 3;
    pool.busy = 2;
    pool.idle = 1;
    pool.parallelism = 4;
    pool.queueLimit = 4;
    pool.inFlight = 5;
    pool.capacity = 16;
    return pool;
}

// Pid 5001, running, holding ids 88 to 90.
inline pepsi::WorkerSnapshot sampleEnrichWorker()
{
    pepsi::WorkerSnapshot worker;
    worker.pid = 5001;
    worker.stage = QStringLiteral("enrich");
    worker.state = pepsi::WorkerSnapshot::State::Running;
    worker.messages = 512;
    worker.uptimeMs = 61000;
    worker.ids = {88, 89, 90};
    worker.headAgeMs = 12;
    worker.maxRuntimeMs = 300000;
    return worker;
}
