// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QString>

namespace pepsi::bench {

class BenchDatabase;

// The server's fsync and synchronous_commit, "on" or "off" each (run-bench's
// default is on/on; --fast-unsafe turns fsync off): beside every mode's figures.
struct ServerDurability
{
    QString fsync;
    QString synchronousCommit;
};

ServerDurability readDurability(BenchDatabase &db);

} // namespace pepsi::bench
