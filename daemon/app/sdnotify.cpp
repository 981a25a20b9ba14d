// SPDX-License-Identifier: AGPL-3.0-or-later
#include "app/sdnotify.h"

#ifdef PEPSI_HAVE_SYSTEMD
#include <systemd/sd-daemon.h>
#endif

namespace pepsi {

void sdNotify(const char *state)
{
#ifdef PEPSI_HAVE_SYSTEMD
    sd_notify(0, state);
#else
    (void)state;
#endif
}

} // namespace pepsi
