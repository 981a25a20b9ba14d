// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "benchdatabase.h"
#include "benchoptions.h"

#include <QList>
#include <QString>

namespace pepsi::bench {

// --scale idle: 100 stages and no message for --idle-minutes.
struct IdleStatement
{
    qint64 calls = 0;
    QString query; // its first characters
};

struct IdleResult
{
    int stages = 0;
    double seconds = 0;          // the measured window (after a settling start)
    qint64 daemonCpuUsec = 0;    // in the window
    qint64 wakeUps = 0;          // its main thread's voluntary context switches in the window
    qint64 workersAtEnd = 0;     // live workers when the window closed
    qint64 commits = -1;         // transactions committed in the database in the window; -1: unknown
    qint64 statements = -1;      // the daemon's statements (pg_stat_statements); -1: not loaded
    QList<IdleStatement> top;    // the busiest of them
    qint64 sessionsCpuUsec = -1; // the daemon's server sessions in the window; -1: unknown
    int daemonExitCode = -1;
};

Result<IdleResult, QString> runIdle(const BenchOptions &options, BenchDatabase &db, bool statStatements);

void printIdleReport(const IdleResult &result);

} // namespace pepsi::bench
