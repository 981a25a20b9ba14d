// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "daemonprocess.h"

#include <QStringList>

// The daemon start every daemon test shares: `serve` with the arguments, then
// the wait until it listens. False, with the daemon's log as a warning, when it
// did not get ready (a test's QVERIFY then fails with the log already shown).
bool startReady(DaemonProcess &daemon, const QStringList &arguments = {});
