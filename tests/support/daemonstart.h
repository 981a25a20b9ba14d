// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "daemonprocess.h"

#include <QStringList>

#include <memory>

// The daemon start every daemon test shares: `serve` with the arguments, then
// the wait until it listens. False, with the daemon's log as a warning, when it
// did not get ready (a test's QVERIFY then fails with the log already shown).
bool startReady(DaemonProcess &daemon, const QStringList &arguments = {});

// The daemon of the tests of workers: stage "s" of the fake worker with
// `stageOptions`, then the stages named in `moreStages` (the fake worker,
// default options), and WORKER_IDLE_TIMEOUT 60 s before `dispatchOptions`, so
// that no worker idles out while a test looks at its pid. Started and ready;
// null, with the daemon's log as a warning, when it did not get ready.
std::unique_ptr<DaemonProcess> startWorkerStage(const QString &database,
                                                const DaemonProcess::Options &stageOptions = {},
                                                const DaemonProcess::Options &dispatchOptions = {},
                                                const QStringList &moreStages = {});
