// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "control/snapshots.h"

#include <QJsonArray>
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

// The reasons as the list that `reasons` carries ([{"reason", "count", "oldest", "newest"}...]).
QJsonArray toJson(const QList<ReasonCount> &reasons);

// `page` cut so that toJson() of it is at most `maxBytes` of compact JSON,
// measured row by row as it is encoded: the first rows that fit, with
// nextAfterId then the id of the last one kept (the next page starts right
// after it); or the most frequent reasons that fit, with moreReasons set.
// A page that fits is returned as it is; one of which not a single row or
// reason fits, too (its reply is then refused for its size).
MessagePage fittedPage(const MessagePage &page, qsizetype maxBytes);

} // namespace pepsi::protocol
