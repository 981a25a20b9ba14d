// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "control/messagecodec.h" // the `messages` and `message` replies
#include "control/snapshots.h"
#include "control/stagescodec.h" // the `stages` reply

#include <QJsonObject>
#include <QJsonValue>

// The JSON of the snapshot values (doc/control-protocol.rst), both ways. The
// daemon writes with toJson(); a client reads with the *FromJson() functions,
// which take what is there and leave the rest at its default (a newer daemon
// may add fields, an older one may lack some).
namespace pepsi::protocol {

// "2026-12-02T19:51:47.123Z"; null for an invalid time.
QJsonValue timeToJson(const QDateTime &when);
QDateTime timeFromJson(const QJsonValue &value);

// A pool as in status.stages.NAME, without its "queue" and "stats" (the
// stage's name is the key it is filed under, not a field).
QJsonObject toJson(const PoolSnapshot &pool);
PoolSnapshot poolFromJson(const QJsonObject &object, const QString &stage);

enum class WorkerIds { Included, Omitted };
// One entry of the `workers` reply; "held" always, "ids" unless omitted.
QJsonObject toJson(const WorkerSnapshot &worker, WorkerIds ids = WorkerIds::Included);
WorkerSnapshot workerFromJson(const QJsonObject &object);

QJsonObject toJson(const StageStatsSnapshot &stats);
StageStatsSnapshot stageStatsFromJson(const QJsonObject &object);

// The "totals" of `status` and `stats`: the counters without the stages.
QJsonObject totalsToJson(const StatsSnapshot &stats);
// The `stats` reply: since, totals and each stage's statistics.
QJsonObject toJson(const StatsSnapshot &stats);
StatsSnapshot statsFromJson(const QJsonObject &object);

QJsonObject toJson(const StageQueue &queue);
StageQueue stageQueueFromJson(const QJsonObject &object);

// The `queues` reply; "age_ms" counts from `now`.
QJsonObject toJson(const QueueCounts &counts, const QDateTime &now);
QueueCounts queueCountsFromJson(const QJsonObject &object);

// The `status` reply. "totals" are the statistics' totals and the daemon's
// poolTotals (of every pool, the ones left out of `pools` too);
// "queues_error" is at the top, beside "queues_at", and every stage's "queue"
// is null while it is set.
QJsonObject toJson(const StatusSnapshot &status);
StatusSnapshot statusFromJson(const QJsonObject &object);

// A `tick` event's own fields (without "event", "seq" and "time").
QJsonObject toJson(const TickSnapshot &tick);
TickSnapshot tickFromJson(const QJsonObject &object);

} // namespace pepsi::protocol
