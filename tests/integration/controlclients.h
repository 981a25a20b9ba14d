// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QList>

class DaemonProcess;

// The clients a real daemon holds a control connection for, by pid, as its
// DEBUG log tells (`client uid U pid P connected`, then `… gone`): what a test
// of a bridge or a target looks at to know that nothing of a client that ended
// is left on the daemon's side. In the order they connected.
QList<qint64> openControlClients(DaemonProcess &daemon);
