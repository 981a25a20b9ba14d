// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "control/snapshots.h"

#include <QJsonObject>

// The JSON of the `messages` and `message` replies (doc/control-protocol.rst),
// both ways, as control/snapshotcodec.h does for the other snapshots.
namespace pepsi::protocol {

// One row of `messages` ("reason" null when the row has none).
QJsonObject toJson(const MessageRow &row);
MessageRow messageRowFromJson(const QJsonObject &object);
// The `messages` reply: {"messages": [...], "next_after_id": n or null}; with
// "reasons": true {"reasons": [{"reason", "count", "oldest", "newest"}...], "more": b,
// "total": n} (without "total", as from an older daemon, the listed counts' sum).
QJsonObject toJson(const MessagePage &page);
MessagePage messagePageFromJson(const QJsonObject &object);
// The `message` reply: the row's fields, "created", "timeout", and "state":
// the state object when whole, the first MaxStateBytes of its JSON text (a
// string) with "truncated": true when cut.
QJsonObject toJson(const MessageDetail &detail);
MessageDetail messageDetailFromJson(const QJsonObject &object);

} // namespace pepsi::protocol
