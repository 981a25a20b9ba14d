// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QString>

namespace pepsi {

// Started as root, become `user` for good: supplementary groups, gid, uid, and
// a check that root cannot be regained. Returns an error message, or empty.
// Not root: nothing to do.
QString dropPrivileges(const QString &user);

} // namespace pepsi
