// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "benchoptions.h"
#include "result.h"

#include <QList>
#include <QString>

namespace pepsi::bench {

// pepsi-bench-bridge (doc/performance.rst, "Through ssh"): what a control
// client pays for reaching a daemon through `ssh` and `pepsi-ctl bridge`
// rather than through its socket, on one machine over loopback ssh.
struct BridgeOptions
{
    BenchOptions bench;  // database, build, work directory and USER of the daemon (prepareRun)
    int requests = 2000; // status round trips on each persistent stream
    int fresh = 40;      // pepsi-ctl status processes of each kind
    int rounds = 4;      // the kinds alternate in this many rounds, so that both see the same load
    int warmUp = 20;     // round trips on each stream before any is counted
};

struct BridgeResult
{
    // Milliseconds, in the order they were taken.
    QList<double> local;      // status over one QLocalSocket stream
    QList<double> ssh;        // status over one ssh session to `pepsi-ctl bridge`
    QList<double> freshLocal; // `pepsi-ctl --socket S status`, process start -> exit
    QList<double> freshSsh;   // `pepsi-ctl --target ssh://… status`, the same
    double localSetupMs = 0;  // open() -> the first reply
    double sshSetupMs = 0;    // the ssh session's set-up included
    QString logFile;
    int daemonExitCode = -1;
};

// A private sshd on loopback (the tests' SshServer), a daemon with the
// three stages idle, then the rounds. The error when a part could not run.
Result<BridgeResult, QString> runBridge(const BridgeOptions &options);

// The figures, the target of doc/performance.rst (p99 through the bridge at
// most 2 ms above the socket's) and one RESULT line. Returns whether it ran whole.
bool printBridgeReport(const BridgeOptions &options, const BridgeResult &result);

} // namespace pepsi::bench
