// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "config/configuration.h"
#include "config/optionsource.h"
#include "result.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

namespace pepsi {

struct StageConfig
{
    QString name;           // "enrich" for [stage-enrich]
    QString program;        // as configured (expanded); resolved on PATH by whoever starts it
    int parallelism = 4;    // 1..1024
    int queueLimit = 4;     // 1..1024
    int maxMessages = 1000; // 1..1e9
    QStringList next;       // successors, in configured order
    bool fuse = false;

    int capacity() const { return parallelism * queueLimit; }
    bool operator==(const StageConfig &) const = default;
};

// The pipeline: every [stage-NAME] section, validated. Errors name the stage
// and the option (and the file line or overlay row it came from).
class StageGraph
{
public:
    // Each stage is a pool of up to 1024 processes and a claim round; past
    // this many the configuration is a mistake (doc/quality.rst, "Limits").
    static constexpr qsizetype MaxStages = 256;

    StageGraph() = default;
    // Also refuses what Configuration::withOverlay refused (overlayError()).
    static Result<StageGraph, ConfigError> fromConfiguration(const Configuration &config);

    // The options of a [stage-NAME] section that the dispatcher reads, as
    // pepsi.conf spells them; any other belongs to the stage program.
    static const QStringList &stageOptions();

    const QList<StageConfig> &stages() const { return m_stages; } // sorted by name
    const StageConfig *stage(const QString &name) const;
    // Where each of stageOptions() of a stage took its value from. Kept beside
    // the stages rather than in StageConfig: a value that moves from the file
    // to an overlay row unchanged leaves the stage as it was.
    OptionSources sources(const QString &name) const { return m_sources.value(name); }
    QStringList names() const;
    QStringList predecessors(const QString &name) const;

private:
    QList<StageConfig> m_stages;
    QHash<QString, OptionSources> m_sources;
};

} // namespace pepsi
