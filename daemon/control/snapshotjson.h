// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "config/dispatchsettings.h"
#include "config/stagegraph.h"
#include "model/snapshots.h"

#include <QJsonObject>
#include <QJsonValue>

// The JSON shapes of doc/control-protocol.rst, one function per value type.
namespace pepsi::json {

// "2026-12-02T19:51:47.123Z"; null for an invalid time.
QJsonValue time(const QDateTime &when);
QJsonObject pool(const PoolSnapshot &pool);
// `held`: how many ids it holds; `ids`: which (head of line first) when withIds.
QJsonObject worker(const WorkerSnapshot &worker, bool withIds = true);
QJsonObject stageStats(const StageStatsSnapshot &stats);
QJsonObject statsTotals(const StatsSnapshot &stats);
QJsonObject stageQueue(const StageQueue &queue);
QJsonObject stage(const StageConfig &stage, const QStringList &predecessors, bool drained);
QJsonObject settings(const DispatchSettings &settings);

} // namespace pepsi::json
