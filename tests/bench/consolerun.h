// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "benchoptions.h"
#include "result.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace pepsi::bench {

// pepsi-bench-console (doc/performance.rst, "A console watching eight
// systems"): what a pepsi-console watching several systems costs itself and
// the daemons it watches. One daemon per database, each with a small live
// pipeline; the first systems reached by their socket, the rest through ssh
// and `pepsi-ctl bridge`, as pepsi-bench-bridge sets it up.
struct ConsoleOptions
{
    BenchOptions bench;    // build, work directory and USER of the daemons (database: unused)
    QStringList databases; // one per system
    int sshSystems = 4;    // the last this many are watched through ssh
    int seconds = 60;      // the measured window of each configuration
    int warmUpSeconds = 10;
    int feedPerSecond = 4;  // rows into each system's first stage a second
    int probeEveryMs = 250; // each daemon's probe asks `status` this often
    int watchedInOne = 1;   // the console of the small configuration watches this many
};

// One configuration's window.
struct ConsoleWindow
{
    QString name;
    int watched = 0;              // the first `watched` systems are the console's targets
    double seconds = 0;           // the window as measured
    qint64 consoleCpuUsec = -1;   // pepsi-console itself; -1: no console
    qint64 sshCpuUsec = 0;        // its ssh children
    qint64 farSideCpuUsec = 0;    // sshd's sessions and the bridges under them
    int sshChildren = 0;          // counted at the window's end
    QList<qint64> daemonCpuUsec;  // each daemon's own process
    QList<QList<double>> probeMs; // each daemon's probe round trips
    QList<int> probeSkipped;      // ticks that found a probe request unanswered
    qint64 fed = 0;               // rows inserted during the window, all systems
};

struct ConsoleResult
{
    QStringList targets;
    QList<ConsoleWindow> windows;
    QList<int> daemonExitCodes;
    QString workDir;
};

// sshd, the daemons, the feeder, the probes; then each configuration (no
// console, one watching watchedInOne, one watching all), a warm-up and a window each.
Result<ConsoleResult, QString> runConsoleSystems(const ConsoleOptions &options);

// The figures per minute and one RESULT line. Returns whether it ran whole.
bool printConsoleReport(const ConsoleOptions &options, const ConsoleResult &result);

} // namespace pepsi::bench
