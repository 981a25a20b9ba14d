// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "benchdatabase.h"
#include "benchoptions.h"

#include <QProcess>
#include <QString>
#include <QStringList>

#include <optional>

namespace pepsi::bench {

// The three stages every mode drives: first -> second -> third.
const QStringList &stageNames();

// What every mode does first: checks that the daemon and the reference stage
// are built; prepares the work directory, readable (and for the control
// socket, writable) by the account the daemon and its workers run as after
// dropping root; writes WORK_DIR/pepsi.conf for the three stages, with
// stageExtra appended to every [stage-*] section ("STAMP_START = YES\n");
// opens db. Returns the configuration's path.
Result<QString, QString> prepareRun(const BenchOptions &options, BenchDatabase &db, const QString &stageExtra = {});

// The first part of prepareRun: the binaries are there and the work
// directory belongs to USER.
std::optional<QString> prepareWorkDir(const BenchOptions &options);

// The [pepsi] and [pepsi-dispatch] sections every mode's configuration
// starts with (CONFIG_FILE = path, the control socket in the work directory).
QString configHeader(const BenchOptions &options, const QString &path);

// Writes `path`: configHeader, then `sections` (the [stage-*] ones); readable
// by the account the daemon runs as. Returns the error.
std::optional<QString> writeConfigFile(const BenchOptions &options, const QString &path, const QString &sections);

// The control socket the configuration names: WORK_DIR/run/dispatch.sock.
QString controlSocketPath(const BenchOptions &options);

// TRUNCATE workqueue, then a table that has been in use: `done` rows done at
// the last of `stages` and `failed` rows failed with a state.dispatch_error,
// spread over the stages and among the done ones; ids 1 .. done + failed. One
// INSERT ... SELECT generate_series; no VACUUM (the caller adds its rows first).
std::optional<QString> fillHistory(BenchDatabase &db, qint64 done, qint64 failed,
                                   const QStringList &stages = stageNames());

// Starts BUILD/daemon/pepsi-dispatch -c config (under --wrap when given),
// its stdout and stderr going to logFile.
std::optional<QString> startDaemon(const BenchOptions &options, const QString &config, const QString &logFile,
                                   QProcess *daemon);

// SIGTERM, then waits up to 60 s. Returns the exit status (-1: it crashed);
// the error when it had to be killed.
Result<int, QString> stopDaemon(QProcess *daemon, const QString &logFile);

// Whether pg_stat_statements is preloaded (run-bench --stat-statements); then
// creates the extension in the database.
bool statStatementsLoaded(BenchDatabase &db);

// The claim round as pg_stat_statements saw it (server-side execution time,
// lock waits included): the daemon's one statement with SKIP LOCKED that runs
// all the time. calls < 0: not found.
struct ClaimStatement
{
    qint64 calls = -1;
    double meanMs = 0;
    double maxMs = 0;
    double stddevMs = 0;
    qint64 rows = 0;
    double buffers = 0; // shared buffers a call touched (hit + read), mean
    QString query;      // its first characters, to show what was matched
};
ClaimStatement readClaimStatement(BenchDatabase &db);

// Whether any row is pending, running or paused: EXISTS on each partial
// index, no scan of the finished rows.
QString anyOpenRowSql();
// How many rows are pending, running or paused, each status counted through
// its partial index: a count of the finished rows would scan the table being
// timed, a little more every time.
QString openRowCountSql();

// CPU of the daemon's own server sessions (their application_name says so:
// the claim rounds, LISTEN, the operator queries); -1: none found. They live
// as long as the daemon, so their CPU is its run's.
qint64 dispatcherSessionsCpuUsec(BenchDatabase &db);

// One line on stderr: what the driver is doing.
void progress(const QString &text);

// One line of the report on stdout, flushed so that it shows while the run goes on.
void out(const QString &text);

// A figure with a fixed number of decimals.
QString num(double value, int decimals = 0);

} // namespace pepsi::bench
