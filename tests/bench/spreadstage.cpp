// SPDX-License-Identifier: AGPL-3.0-or-later
// pepsi-bench-spread-stage: the head of pepsi-bench --scale's fan-out. The
// reference stage always advances to its first NEXT stage; this one spreads
// the messages over all of them by id (id modulo their count), so that every
// branch of the fan-out carries its share. At a terminal stage: done.
#include "stagekit.h"

#include <optional>

using namespace pepsi;
using namespace pepsi::stagekit;

int main(int argc, char **argv)
{
    auto setup = [](StageContext &) -> std::optional<ConfigError> { return std::nullopt; };
    auto handler = [](StageContext &ctx, qint64 id) {
        const QStringList &next = ctx.stageConfig().next;
        if (next.isEmpty())
            return ctx.advance(id);
        return ctx.advanceTo(id, next.at(qsizetype(id % next.size())));
    };
    // As the reference stage: a worker's batch commits once, its moves in one statement.
    WorkerOptions options;
    options.commitBatches = true;
    options.combineMoves = true;
    return runWorker(argc, argv, setup, handler, options);
}
