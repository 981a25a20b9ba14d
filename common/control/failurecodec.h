// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "control/snapshots.h"

#include <QJsonObject>
#include <cmath>

// The JSON of the failure events (doc/control-protocol.rst, Events), both
// ways, as control/snapshotcodec.h does for the snapshots: their own fields,
// without "event", "seq" and "time".
namespace pepsi::protocol {

// `message_failed`: "stage", "count", "reason".
QJsonObject toJson(const MessageFailedEvent &event);
MessageFailedEvent messageFailedFromJson(const QJsonObject &object);
// `stage_failing` and `stage_recovered`: "stage", "failure_share".
QJsonObject toJson(const StageFailureEvent &event);
StageFailureEvent stageFailureFromJson(const QJsonObject &object);

// A failure_share in whole percent for people, rounded down: a share just
// under a tenth (a stage_recovered) never reads "10 %", nor one under half "50 %".
// (The epsilon keeps 0.29, which is 28.999... times 100, at 29.)
inline int failurePercent(double share) { return int(std::floor(share * 100 + 1e-9)); }

} // namespace pepsi::protocol
