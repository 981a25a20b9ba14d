// SPDX-License-Identifier: AGPL-3.0-or-later
#include "core/pipelinecheck.h"

#include "config/stagegraph.h"
#include "workers/accountaccess.h"

#include <algorithm>

namespace pepsi {

namespace {

// The entry an error points at, if it points at one rather than at a section.
std::optional<std::pair<QString, QString>> entryAt(const Configuration &config, const ConfigOrigin &origin)
{
    for (const QString &section : config.sections()) {
        for (const QString &option : config.options(section)) {
            const ConfigOrigin &o = config.entry(section, option)->origin;
            if (o.file == origin.file && o.line == origin.line && o.overlaySection == origin.overlaySection
                && o.overlayOption == origin.overlayOption)
                return std::make_pair(section, option);
        }
    }
    return std::nullopt;
}

} // namespace

// StageGraph stops at the first problem; each one found is set aside (the
// option, or the section when an option is missing) and the graph read again.
QStringList PipelineCheck::graphProblems(Configuration merged)
{
    QStringList problems;
    for (int round = 0; round < 1000; ++round) {
        const auto graph = StageGraph::fromConfiguration(merged);
        if (graph)
            break;
        problems << graph.error().toString();
        if (const auto at = entryAt(merged, graph.error().origin)) {
            merged = merged.without(at->first, at->second);
            continue;
        }
        const ConfigOrigin &origin = graph.error().origin;
        const auto sections = merged.sections();
        const auto section = std::find_if(sections.begin(), sections.end(), [&](const QString &s) {
            const ConfigOrigin o = merged.sectionOrigin(s);
            return o.file == origin.file && o.line == origin.line && o.overlaySection == origin.overlaySection;
        });
        if (section == sections.end() || (origin.line == 0 && origin.overlaySection.isEmpty()))
            break;
        merged = merged.without(*section);
    }
    return problems;
}

QStringList PipelineCheck::programProblems(const Configuration &merged, const AccountAccess &account)
{
    QStringList problems;
    for (const QString &section : merged.sections()) {
        if (!section.startsWith(QStringLiteral("stage-")))
            continue;
        const auto program = merged.string(section, QStringLiteral("program"));
        if (!program || program->trimmed().isEmpty())
            continue; // a graph problem
        QString why;
        if (account.findProgram(program->trimmed(), &why).isEmpty())
            problems << where(merged, section, QStringLiteral("program")) + QStringLiteral(": ") + section
                    + QStringLiteral(": ") + why;
    }
    return problems;
}

QString PipelineCheck::where(const Configuration &merged, const QString &section, const QString &option)
{
    if (const Configuration::Entry *entry = merged.entry(section, option))
        return entry->origin.describe();
    const ConfigOrigin origin = merged.sectionOrigin(section);
    return origin.line > 0 || !origin.overlaySection.isEmpty() ? origin.describe() : merged.fileName();
}

} // namespace pepsi
