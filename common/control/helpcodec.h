// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QHash>
#include <QJsonObject>
#include <QString>
#include <QStringList>

// The `help` reply (doc/control-protocol.rst), read: which arguments each
// command of the daemon that answered takes. A client asks before it sends
// an argument that an older daemon would ignore (unknown arguments are
// ignored) where ignoring it would do more than asked: `requeue` without its
// "reason" moves every row of the status.
namespace pepsi::protocol {

// Command name -> its argument names, as `help` lists them.
QHash<QString, QStringList> commandArgumentsFromJson(const QJsonObject &help);

} // namespace pepsi::protocol
