// SPDX-License-Identifier: AGPL-3.0-or-later
#include "service/sdnotify.h"

#include <systemd/sd-daemon.h>

namespace pepsi {

bool sdNotify(const QByteArray &state)
{
    // 0: NOTIFY_SOCKET stays set; the daemon notifies for as long as it runs.
    return sd_notify(0, state.constData()) >= 0;
}

std::chrono::microseconds sdWatchdogInterval()
{
    uint64_t usec = 0;
    if (sd_watchdog_enabled(0, &usec) <= 0)
        return std::chrono::microseconds::zero();
    return std::chrono::microseconds(usec);
}

} // namespace pepsi
