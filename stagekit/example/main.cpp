// SPDX-License-Identifier: AGPL-3.0-or-later
// pepsi-stage-example: the reference stage. It advances every message to the
// stage's first NEXT stage (or marks it done at a terminal stage), after an
// optional simulated work time, [stage-NAME] WORK_TIME (default 0). With
// [stage-NAME] STAMP_START = YES it also records in the same UPDATE when it
// began the message: state.started.<stage>, microseconds since the epoch by
// this machine's real-time clock (pepsi-bench --latency reads it).
#include "stagekit.h"

#include <QHash>
#include <chrono>
#include <optional>
#include <thread>

using namespace pepsi;
using namespace pepsi::stagekit;
using namespace std::chrono_literals;

namespace {

struct StageSettings
{
    std::chrono::milliseconds workTime{0};
    bool stampStart = false;
};

} // namespace

int main(int argc, char **argv)
{
    // Per stage: a worker also runs the stages fused into its own (FUSE = YES,
    // same PROGRAM), and the setup runs once for each of them.
    QHash<QString, StageSettings> settings;

    auto setup = [&settings](StageContext &ctx) -> std::optional<ConfigError> {
        const auto workTime = ctx.configuration().duration(ctx.stageSection(), QStringLiteral("work_time"), 0ms);
        if (!workTime)
            return workTime.error();
        const auto stamp = ctx.configuration().boolean(ctx.stageSection(), QStringLiteral("stamp_start"), false);
        if (!stamp)
            return stamp.error();
        settings.insert(ctx.stage(), {*workTime, *stamp});
        return std::nullopt;
    };

    auto handler = [&settings](StageContext &ctx, qint64 id) {
        // Taken first, so that the stamp is the moment the handler got the id.
        const auto began = std::chrono::system_clock::now();
        const StageSettings stage = settings.value(ctx.stage());
        if (stage.workTime > 0ms)
            std::this_thread::sleep_for(stage.workTime); // the "work"
        if (!stage.stampStart)
            return ctx.advance(id);
        const auto usec = std::chrono::duration_cast<std::chrono::microseconds>(began.time_since_epoch()).count();
        return ctx.advance(id, StateUpdate().set({QStringLiteral("started"), ctx.stage()}, qint64(usec)));
    };

    // The handler only advances through the kit, returns the advance's
    // outcome and may run twice, so the ids a worker holds commit in one
    // transaction (fewer commits per hop on a durable server) and their
    // advances are written in one statement (one round trip per batch): see
    // doc/stage-programs.rst, measured in doc/performance.rst.
    // PEPSI_EXAMPLE_COMMIT_BATCHES=0 commits each message on its own,
    // PEPSI_EXAMPLE_COMBINE_MOVES=0 writes each advance on its own, as
    // before, for comparisons.
    WorkerOptions options;
    options.commitBatches = qEnvironmentVariable("PEPSI_EXAMPLE_COMMIT_BATCHES") != u"0";
    options.combineMoves = qEnvironmentVariable("PEPSI_EXAMPLE_COMBINE_MOVES") != u"0";
    return runWorker(argc, argv, setup, handler, options);
}
