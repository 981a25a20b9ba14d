// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "benchoptions.h"

#include <QProcess>
#include <QString>
#include <QStringList>

#include <optional>

namespace pepsi::bench {

// The three stages every mode drives: first -> second -> third.
const QStringList &stageNames();

// Checks that the daemon and the reference stage are built, and prepares
// the work directory, readable (and for the control socket, writable) by the
// account the daemon and its workers run as after dropping root.
std::optional<QString> prepareWorkDir(const BenchOptions &options);

// Writes WORK_DIR/pepsi.conf for the three stages; stageExtra is appended to
// every [stage-*] section ("STAMP_START = YES\n"). Returns its path.
Result<QString, QString> writeConfig(const BenchOptions &options, const QString &stageExtra = {});

// Starts BUILD/daemon/pepsi-dispatch -c config (under --wrap when given),
// its stdout and stderr going to logFile.
std::optional<QString> startDaemon(const BenchOptions &options, const QString &config, const QString &logFile,
                                   QProcess *daemon);

// SIGTERM, then waits up to 60 s. Returns the exit status (-1: it crashed);
// the error when it had to be killed.
Result<int, QString> stopDaemon(QProcess *daemon, const QString &logFile);

// One line on stderr: what the driver is doing.
void progress(const QString &text);

// One line of the report on stdout, flushed so that it shows while the run goes on.
void out(const QString &text);

// A figure with a fixed number of decimals.
QString num(double value, int decimals = 0);

} // namespace pepsi::bench
