// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <chrono>

namespace pepsi {

// The two calls of libsystemd the daemon makes; ServiceNotifier is their one user.

// Sends one sd_notify(3) message ("READY=1\nSTATUS=..."); a no-op outside
// systemd (no NOTIFY_SOCKET). False when a socket was named but the send failed.
bool sdNotify(const QByteArray &state);
inline bool sdNotify(const char *state) { return sdNotify(QByteArray(state)); }

// WatchdogSec= of the unit as systemd passes it (WATCHDOG_USEC, WATCHDOG_PID
// naming this process); zero when the watchdog is off.
std::chrono::microseconds sdWatchdogInterval();

} // namespace pepsi
