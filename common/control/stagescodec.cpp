// SPDX-License-Identifier: AGPL-3.0-or-later
#include "control/stagescodec.h"

#include "control/codecvalues.h"
#include "control/protocol.h"

#include <QJsonArray>

namespace pepsi::protocol {

using namespace codec;

namespace {

// {"sources": {"PARALLELISM": "overlay", ...}, "file_values": {"PARALLELISM": "4"}}:
// the file's value only where an overlay row covers one.
void addSources(QJsonObject &object, const OptionSources &sources)
{
    QJsonObject names;
    QJsonObject fileValues;
    for (auto it = sources.cbegin(); it != sources.cend(); ++it) {
        names.insert(it.key(), optionSourceName(it->source));
        if (it->fileValue)
            fileValues.insert(it.key(), *it->fileValue);
    }
    object.insert(field::Sources, names);
    object.insert(field::FileValues, fileValues);
}

OptionSources sourcesFromJson(const QJsonObject &object)
{
    OptionSources sources;
    const QJsonObject names = object.value(field::Sources).toObject();
    const QJsonObject fileValues = object.value(field::FileValues).toObject();
    for (auto it = names.constBegin(); it != names.constEnd(); ++it) {
        const auto source = optionSourceFromName(it.value().toString());
        if (!source)
            continue; // a newer daemon's word: no claim is better than a wrong one
        const QJsonValue fileValue = fileValues.value(it.key());
        sources.insert(it.key(), {*source, fileValue.isString() ? std::optional(fileValue.toString()) : std::nullopt});
    }
    return sources;
}

} // namespace

QString optionSourceName(OptionSource source)
{
    switch (source) {
    case OptionSource::Default:
        return QString(value::Default);
    case OptionSource::File:
        return QString(value::File);
    case OptionSource::Overlay:
        return QString(value::Overlay);
    }
    return {};
}

std::optional<OptionSource> optionSourceFromName(const QString &name)
{
    for (const OptionSource source : {OptionSource::Default, OptionSource::File, OptionSource::Overlay}) {
        if (optionSourceName(source) == name)
            return source;
    }
    return std::nullopt;
}

QJsonObject toJson(const StageInfo &stage)
{
    QJsonObject object{
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
    addSources(object, stage.sources);
    return object;
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
    stage.sources = sourcesFromJson(object);
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
