// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "control/snapshots.h"

#include <QJsonObject>

// The JSON of the `reload` reply and event (doc/control-protocol.rst), both
// ways, as control/snapshotcodec.h does for the other snapshots, and the one
// readable line of what a reload changed that the daemon's log, pepsi-ctl
// and the console show.
namespace pepsi::protocol {

// {"added": [...], "removed": [...], "changed": {"STAGE": {"OPTION": {"old": ..., "new": ...}}}}
QJsonObject toJson(const ReloadChanges &changes);
ReloadChanges reloadChangesFromJson(const QJsonObject &object);

// The reply: {"stages": [...], "changed": {...}}; the event adds "source"
// when it is set.
QJsonObject toJson(const ReloadSnapshot &reload);
ReloadSnapshot reloadFromJson(const QJsonObject &object);

// "added x; removed y; deliver PROGRAM /a → /b, PARALLELISM 4 → 8", or
// "nothing changed".
QString describe(const ReloadChanges &changes);

} // namespace pepsi::protocol
