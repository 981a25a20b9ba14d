// SPDX-License-Identifier: AGPL-3.0-or-later
// The configuration reader, $-expansion and the stage-graph validator: any
// file either parses or yields an error naming a line; nothing crashes, hangs
// or reads out of bounds.
#include "config/configuration.h"
#include "config/dispatchsettings.h"
#include "config/stagegraph.h"

#include <cstdint>
#include <cstdlib>

using namespace pepsi;
using namespace std::chrono_literals;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray text(reinterpret_cast<const char *>(data), qsizetype(size));
    const auto parsed = Configuration::parse(text, QStringLiteral("fuzz.conf"));
    if (!parsed) {
        // An error always says where: the file, and a line inside it.
        if (parsed.error().toString().isEmpty())
            std::abort();
        return 0;
    }
    const Configuration &config = *parsed;
    for (const QString &section : config.sections()) {
        for (const QString &option : config.options(section)) {
            (void)config.string(section, option);
            (void)config.duration(section, option, 1s);
            (void)config.integer(section, option, 1, 0, 1000);
            (void)config.boolean(section, option, false);
        }
    }
    // The overlay path: every file entry once more as an overlay row.
    QList<OverlayRow> rows;
    for (const QString &section : config.sections()) {
        for (const QString &option : config.options(section))
            rows.append({section.toUpper(), option, config.entry(section, option)->rawValue});
    }
    const Configuration overlaid = config.withOverlay(rows);
    (void)DispatchSettings::fromConfiguration(overlaid);
    const auto graph = StageGraph::fromConfiguration(overlaid);
    if (graph) {
        for (const StageConfig &stage : graph->stages()) {
            (void)graph->predecessors(stage.name);
            for (const QString &next : stage.next) {
                // A graph that parses names no unknown successor.
                if (!graph->stage(next))
                    std::abort();
            }
        }
    }
    return 0;
}
