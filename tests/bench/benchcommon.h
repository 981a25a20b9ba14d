// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "control/lineframer.h"
#include "transport/controlchannel.h"

#include <QString>

namespace pepsi::bench {

// What pepsi-bench-bridge and pepsi-bench-console share beyond
// pepsi_bench_lib, which does not link the transport their probes talk through.

// The report's first line: the program, when, the build type, the system,
// its cores and load, so that two runs' figures can be told apart.
void printHeadline();
// "PROGRAM: error" on stderr, and exitCode for main() to return.
int failed(const QString &error, int exitCode);
// Feeds what the channel has ready through framer, each complete line to
// onLine; false when a line ran over MaxLine (the framer dropped the rest).
bool readLines(transport::ControlChannel &channel, protocol::LineFramer &framer,
               const protocol::LineFramer::LineHandler &onLine);

} // namespace pepsi::bench
