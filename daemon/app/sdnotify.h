// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

namespace pepsi {

// Tells systemd (Type=notify) about state changes; a no-op outside systemd
// or when built without libsystemd.
void sdNotify(const char *state);

} // namespace pepsi
