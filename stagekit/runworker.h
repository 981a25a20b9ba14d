// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "workerloop.h"
#include "workersession.h"

namespace pepsi::stagekit {

// The whole life of a stage program: `PROGRAM [-c FILE] worker` with
// PEPSI_STAGE in the environment. Loads the configuration (-c, else
// $PEPSI_CONFIG, else /etc/pepsi/pepsi.conf), connects to [pepsi] DATABASE
// once, then answers ids from stdin until it ends. Returns the exit status:
// 0 at end of stdin, 64 bad command line, 78 bad configuration or unknown
// stage, 1 stdin/stdout failures.
int runWorker(int argc, char **argv, Handler handler);

// As above; `setup` runs once, when the context exists and before the first
// message, to read the stage's own options. Its error makes the worker exit 78.
int runWorker(int argc, char **argv, Setup setup, Handler handler);

// As above, with what the program declares about its handler (see
// WorkerOptions: commitBatches).
int runWorker(int argc, char **argv, Setup setup, Handler handler, WorkerOptions options);

} // namespace pepsi::stagekit
