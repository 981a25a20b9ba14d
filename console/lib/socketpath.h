// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QString>

namespace pepsi::console {

// CONTROL_SOCKET's default (CONTRACT.md): /run/pepsi/dispatch.sock for root,
// $XDG_RUNTIME_DIR/pepsi/dispatch.sock for anyone else (/tmp/pepsi-UID/dispatch.sock
// when it is unset, as the daemon does).
QString defaultSocketPath();

} // namespace pepsi::console
