// SPDX-License-Identifier: AGPL-3.0-or-later
#include "control/stagescodec.h"

#include "control/codecvalues.h"
#include "control/fieldtable.h"
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

// The sources and file values are written apart.
constexpr auto stageInfoFields = std::tuple{
    Field{field::Name, &StageInfo::name},
    Field{field::Program, &StageInfo::program},
    Field{field::Parallelism, &StageInfo::parallelism},
    Field{field::QueueLimit, &StageInfo::queueLimit},
    Field{field::MaxMessages, &StageInfo::maxMessages},
    Field{field::Next, &StageInfo::next},
    Field{field::Fuse, &StageInfo::fuse},
    Field{field::Predecessors, &StageInfo::predecessors},
    Field{field::Drained, &StageInfo::drained},
};

constexpr auto settingsFields = std::tuple{
    Field{field::MaxRuntimeMs, &SettingsSnapshot::maxRuntimeMs},
    Field{field::WorkerIdleTimeoutMs, &SettingsSnapshot::workerIdleTimeoutMs},
    Field{field::PollIntervalMs, &SettingsSnapshot::pollIntervalMs},
    Field{field::StatsIntervalMs, &SettingsSnapshot::statsIntervalMs},
    Field{field::TempfailDelayMs, &SettingsSnapshot::tempfailDelayMs},
    Field{field::DbPoolSize, &SettingsSnapshot::dbPoolSize},
    Field{field::ConfigFile, &SettingsSnapshot::configFile, EmptyText::Null},
};

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
    QJsonObject object = fieldsToJson(stage, stageInfoFields);
    addSources(object, stage.sources);
    return object;
}

StageInfo stageInfoFromJson(const QJsonObject &object)
{
    StageInfo stage = fieldsFromJson<StageInfo>(object, stageInfoFields);
    stage.sources = sourcesFromJson(object);
    return stage;
}

QJsonObject toJson(const SettingsSnapshot &settings) { return fieldsToJson(settings, settingsFields); }

SettingsSnapshot settingsFromJson(const QJsonObject &object)
{
    return fieldsFromJson<SettingsSnapshot>(object, settingsFields);
}

QJsonObject toJson(const StagesSnapshot &stages)
{
    return {{field::Stages, listToJson(stages.stages, [](const StageInfo &stage) { return toJson(stage); })},
            {field::Settings, toJson(stages.settings)}};
}

StagesSnapshot stagesFromJson(const QJsonObject &object)
{
    StagesSnapshot stages;
    stages.stages = listFromJson<StageInfo>(object.value(field::Stages), stageInfoFromJson);
    stages.settings = settingsFromJson(object.value(field::Settings).toObject());
    return stages;
}

} // namespace pepsi::protocol
