// SPDX-License-Identifier: AGPL-3.0-or-later
#include "config/stagegraph.h"

#include <QHash>
#include <QRegularExpression>

#include <algorithm>

namespace pepsi {

namespace {

const QString kStagePrefix = QStringLiteral("stage-");
const QString kNamePattern = QStringLiteral("[a-z0-9][a-z0-9_-]{0,62}");

// "stage-x: " in front of the accessor's "OPTION: reason".
ConfigError inSection(const QString &section, ConfigError error)
{
    error.reason = section + QStringLiteral(": ") + error.reason;
    return error;
}

ConfigError nextError(const Configuration &config, const QString &section, const QString &reason)
{
    const Configuration::Entry *e = config.entry(section, QStringLiteral("next"));
    return {e ? e->origin : config.sectionOrigin(section), section + QStringLiteral(": NEXT: ") + reason};
}

// Everything that can be checked within one section.
Result<StageConfig, ConfigError> readStage(const Configuration &config, const QString &section)
{
    StageConfig stage;
    stage.name = section.mid(kStagePrefix.size());
    static const QRegularExpression namePattern(QRegularExpression::anchoredPattern(kNamePattern));
    if (!namePattern.match(stage.name).hasMatch())
        return ConfigError{config.sectionOrigin(section),
                           QStringLiteral("bad stage name \"") + stage.name + QStringLiteral("\" in [") + section
                               + QStringLiteral("] (expected ") + kNamePattern + u')'};

    // Other options in a stage section belong to the stage program (say,
    // WORK_TIME of the reference stage); the dispatcher leaves them alone.

    const Configuration::Entry *programEntry = config.entry(section, QStringLiteral("program"));
    if (!programEntry)
        return ConfigError{config.sectionOrigin(section), section + QStringLiteral(": PROGRAM is required")};
    const auto program = config.string(section, QStringLiteral("program"));
    if (!program)
        return inSection(section, program.error());
    stage.program = program.value().trimmed();
    if (stage.program.isEmpty())
        return ConfigError{programEntry->origin, section + QStringLiteral(": PROGRAM is empty")};

    const auto parallelism = config.integer(section, QStringLiteral("parallelism"), stage.parallelism, 1, 1024);
    if (!parallelism)
        return inSection(section, parallelism.error());
    stage.parallelism = int(parallelism.value());

    const auto queueLimit = config.integer(section, QStringLiteral("queue_limit"), stage.queueLimit, 1, 1024);
    if (!queueLimit)
        return inSection(section, queueLimit.error());
    stage.queueLimit = int(queueLimit.value());

    const auto maxMessages =
        config.integer(section, QStringLiteral("max_messages"), stage.maxMessages, 1, 1'000'000'000);
    if (!maxMessages)
        return inSection(section, maxMessages.error());
    stage.maxMessages = int(maxMessages.value());

    const auto fuse = config.boolean(section, QStringLiteral("fuse"), stage.fuse);
    if (!fuse)
        return inSection(section, fuse.error());
    stage.fuse = fuse.value();

    const auto next = config.string(section, QStringLiteral("next"));
    if (!next)
        return inSection(section, next.error());
    // Stage names are case-insensitive like the section names they come from.
    for (const QString &name : next.value().toLower().simplified().split(u' ', Qt::SkipEmptyParts)) {
        if (stage.next.contains(name))
            return nextError(config, section, u'"' + name + QStringLiteral("\" is listed twice"));
        stage.next << name;
    }
    return stage;
}

// Depth-first search in name order, successors in configured order, so the
// reported cycle is the same on every run. Returns the cycle, or empty.
class CycleFinder
{
public:
    explicit CycleFinder(const QList<StageConfig> &stages)
        : m_stages(stages)
    {
        for (qsizetype i = 0; i < stages.size(); ++i)
            m_index.insert(stages[i].name, i);
        m_state.fill(Unvisited, stages.size());
    }

    QStringList find()
    {
        for (qsizetype i = 0; i < m_stages.size(); ++i) {
            if (m_state[i] == Unvisited && visit(i))
                return m_cycle;
        }
        return {};
    }

private:
    enum State { Unvisited, OnPath, Done };

    bool visit(qsizetype i)
    {
        m_state[i] = OnPath;
        m_path << i;
        for (const QString &successor : m_stages[i].next) {
            const qsizetype j = m_index.value(successor);
            if (m_state[j] == OnPath) {
                for (qsizetype k = m_path.indexOf(j); k < m_path.size(); ++k)
                    m_cycle << m_stages[m_path[k]].name;
                m_cycle << successor;
                return true;
            }
            if (m_state[j] == Unvisited && visit(j))
                return true;
        }
        m_path.removeLast();
        m_state[i] = Done;
        return false;
    }

    const QList<StageConfig> &m_stages;
    QHash<QString, qsizetype> m_index;
    QList<State> m_state;
    QList<qsizetype> m_path;
    QStringList m_cycle;
};

} // namespace

Result<StageGraph, ConfigError> StageGraph::fromConfiguration(const Configuration &config)
{
    if (config.overlayError())
        return *config.overlayError();
    StageGraph graph;
    // sections() is sorted and every stage section shares the prefix, so the
    // stages come out sorted by name.
    for (const QString &section : config.sections()) {
        if (!section.startsWith(kStagePrefix))
            continue;
        if (graph.m_stages.size() == MaxStages)
            return ConfigError{config.sectionOrigin(section),
                               QStringLiteral("[%1]: more than %2 stages").arg(section).arg(MaxStages)};
        auto stage = readStage(config, section);
        if (!stage)
            return stage.error();
        graph.m_stages << stage.value();
        OptionSources &sources = graph.m_sources[stage->name];
        for (const QString &option : stageOptions())
            sources.insert(option, provenanceOf(config, section, option));
    }

    const QStringList names = graph.names();
    for (const StageConfig &stage : std::as_const(graph.m_stages)) {
        const QString section = kStagePrefix + stage.name;
        for (const QString &successor : stage.next) {
            if (successor == stage.name)
                return nextError(config, section, u'"' + successor + QStringLiteral("\" is the stage itself"));
            if (!names.contains(successor))
                return nextError(config, section, QStringLiteral("unknown stage \"") + successor + u'"');
        }
    }

    const QStringList cycle = CycleFinder(graph.m_stages).find();
    if (!cycle.isEmpty())
        return nextError(config, kStagePrefix + cycle.first(),
                         QStringLiteral("cycle ") + cycle.join(QStringLiteral(" -> ")));
    return graph;
}

const QStringList &StageGraph::stageOptions()
{
    static const QStringList options{QStringLiteral("PROGRAM"),     QStringLiteral("PARALLELISM"),
                                     QStringLiteral("QUEUE_LIMIT"), QStringLiteral("MAX_MESSAGES"),
                                     QStringLiteral("NEXT"),        QStringLiteral("FUSE")};
    return options;
}

const StageConfig *StageGraph::stage(const QString &name) const
{
    const auto it = std::lower_bound(m_stages.cbegin(), m_stages.cend(), name,
                                     [](const StageConfig &s, const QString &n) { return s.name < n; });
    return it != m_stages.cend() && it->name == name ? &*it : nullptr;
}

QStringList StageGraph::names() const
{
    QStringList result;
    result.reserve(m_stages.size());
    for (const StageConfig &s : m_stages)
        result << s.name;
    return result;
}

QStringList StageGraph::predecessors(const QString &name) const
{
    QStringList result;
    for (const StageConfig &s : m_stages) {
        if (s.next.contains(name))
            result << s.name;
    }
    return result;
}

} // namespace pepsi
