// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "control/protocol.h"
#include "control/snapshots.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <optional>

// The values the dispatcher's picture carries (model/dispatchview.h): copies taken in one
// call. Kept apart from the interface so that the pools can fill them without
// seeing the control side. The ones the control protocol carries as they are
// (pools, workers, statistics, queue counts, the lifecycle) are the shared
// library's (common/control/snapshots.h); these are the daemon's own.

namespace pepsi {

struct DaemonInfo
{
    QString version;
    qint64 pid = 0;
    QDateTime startedAt; // UTC
    QString host;
    QString database;     // the database name (never a password)
    QString user;         // the account the daemon runs as
    bool standby = false; // started with --standby
    Lifecycle lifecycle = Lifecycle::Starting;
    QString databaseError; // Reconnecting: why
};

struct RequeueRequest
{
    QString stage;
    QString status;                            // "failed" or "timeout"
    QList<qint64> ids;                         // empty: any
    std::optional<qint64> maxAgeMs;            // only rows whose `updated` is at most this old
    int limit = protocol::DefaultRequeueLimit; // 1..protocol::MaxRequeueLimit
    // Only rows with this reason, as `messages` filters them ("": rows without one).
    std::optional<QString> reason;
};

struct RequeueOutcome
{
    qint64 requeued = 0;
    bool more = false;
};

// `messages`: a page of one stage's rows in one status, in id order.
struct MessagesRequest
{
    QString stage;
    QString status; // pending, running, paused, failed or timeout
    qint64 afterId = 0;
    int limit = 100; // 1..protocol::MaxMessagesLimit
    // Only rows with this reason (state.dispatch_error as listed, cut; "": rows without one).
    std::optional<QString> reason;
    // Only rows that reached the status at most this long ago (as requeue's max_age_ms).
    std::optional<qint64> maxAgeMs;
    // The reasons with their counts instead of rows (afterId and limit unused).
    bool reasons = false;
};

// `set` and `unset`: one [stage-NAME] option in config_overlay, already validated.
struct OverlaySetting
{
    QString section;              // "stage-enrich"
    QString option;               // "PARALLELISM"
    std::optional<QString> value; // "8"; nothing: remove the row (`unset`)
};

// Something that happened, for subscribers (doc/control-protocol.rst, Events):
// the event name and its fields, without "event", "seq" and "time", which the
// control socket adds.
struct DispatchEvent
{
    QString name;
    QJsonObject fields;
};

} // namespace pepsi
