// SPDX-License-Identifier: AGPL-3.0-or-later
#include "control/stagescodec.h"

#include "control/codecvalues.h"
#include "control/protocol.h"

#include <QJsonArray>

namespace pepsi::protocol {

using namespace codec;

namespace {

QStringList namesFromJson(const QJsonValue &value)
{
    QStringList names;
    for (const QJsonValue name : value.toArray())
        names.append(name.toString());
    return names;
}

} // namespace

QJsonObject toJson(const StageInfo &stage)
{
    return {
        {field::Name, stage.name},
        {field::Program, stage.program},
        {field::Parallelism, stage.parallelism},
        {field::QueueLimit, stage.queueLimit},
        {field::MaxMessages, stage.maxMessages},
        {field::Next, QJsonArray::fromStringList(stage.next)},
        {field::Fuse, stage.fuse},
        {field::Predecessors, QJsonArray::fromStringList(stage.predecessors)},
        {field::Drained, stage.drained},
    };
}

StageInfo stageInfoFromJson(const QJsonObject &object)
{
    StageInfo stage;
    stage.name = object.value(field::Name).toString();
    stage.program = object.value(field::Program).toString();
    stage.parallelism = object.value(field::Parallelism).toInt();
    stage.queueLimit = object.value(field::QueueLimit).toInt();
    stage.maxMessages = object.value(field::MaxMessages).toInt();
    stage.next = namesFromJson(object.value(field::Next));
    stage.fuse = object.value(field::Fuse).toBool();
    stage.predecessors = namesFromJson(object.value(field::Predecessors));
    stage.drained = object.value(field::Drained).toBool();
    return stage;
}

QJsonObject toJson(const SettingsSnapshot &settings)
{
    return {
        {field::MaxRuntimeMs, double(settings.maxRuntimeMs)},
        {field::WorkerIdleTimeoutMs, double(settings.workerIdleTimeoutMs)},
        {field::PollIntervalMs, double(settings.pollIntervalMs)},
        {field::StatsIntervalMs, double(settings.statsIntervalMs)},
        {field::TempfailDelayMs, double(settings.tempfailDelayMs)},
        {field::DbPoolSize, settings.dbPoolSize},
        {field::ConfigFile, textOrNull(settings.configFile)},
    };
}

SettingsSnapshot settingsFromJson(const QJsonObject &object)
{
    SettingsSnapshot settings;
    settings.maxRuntimeMs = object.value(field::MaxRuntimeMs).toInteger();
    settings.workerIdleTimeoutMs = object.value(field::WorkerIdleTimeoutMs).toInteger();
    settings.pollIntervalMs = object.value(field::PollIntervalMs).toInteger();
    settings.statsIntervalMs = object.value(field::StatsIntervalMs).toInteger();
    settings.tempfailDelayMs = object.value(field::TempfailDelayMs).toInteger();
    settings.dbPoolSize = object.value(field::DbPoolSize).toInt();
    settings.configFile = object.value(field::ConfigFile).toString();
    return settings;
}

QJsonObject toJson(const StagesSnapshot &stages)
{
    QJsonArray list;
    for (const StageInfo &stage : stages.stages)
        list.append(toJson(stage));
    return {{field::Stages, list}, {field::Settings, toJson(stages.settings)}};
}

StagesSnapshot stagesFromJson(const QJsonObject &object)
{
    StagesSnapshot stages;
    for (const QJsonValue each : object.value(field::Stages).toArray())
        stages.stages.append(stageInfoFromJson(each.toObject()));
    stages.settings = settingsFromJson(object.value(field::Settings).toObject());
    return stages;
}

} // namespace pepsi::protocol
