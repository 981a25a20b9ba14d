// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "control/snapshots.h"

#include <QJsonObject>
#include <optional>

// The JSON of the `stages` reply (doc/control-protocol.rst), both ways, as
// control/snapshotcodec.h does for the other snapshots.
namespace pepsi::protocol {

// "file", "overlay", "default"; nullopt for a name this side does not know.
QString optionSourceName(OptionSource source);
std::optional<OptionSource> optionSourceFromName(const QString &name);

// The `stages` reply: {"stages": [...], "settings": {...}}.
QJsonObject toJson(const StageInfo &stage);
StageInfo stageInfoFromJson(const QJsonObject &object);
QJsonObject toJson(const SettingsSnapshot &settings);
SettingsSnapshot settingsFromJson(const QJsonObject &object);
QJsonObject toJson(const StagesSnapshot &stages);
StagesSnapshot stagesFromJson(const QJsonObject &object);

} // namespace pepsi::protocol
