// SPDX-License-Identifier: AGPL-3.0-or-later
// pepsi-stage-example: the reference stage. It advances every message to the
// stage's first NEXT stage (or marks it done at a terminal stage), after an
// optional simulated work time, [stage-NAME] WORK_TIME (default 0).
#include "stagekit.h"

#include <QHash>
#include <chrono>
#include <optional>
#include <thread>

using namespace pepsi;
using namespace pepsi::stagekit;
using namespace std::chrono_literals;

int main(int argc, char **argv)
{
    // Per stage: a worker also runs the stages fused into its own (FUSE = YES,
    // same PROGRAM), and the setup runs once for each of them.
    QHash<QString, std::chrono::milliseconds> workTimes;

    auto setup = [&workTimes](StageContext &ctx) -> std::optional<ConfigError> {
        const auto value = ctx.configuration().duration(ctx.stageSection(), QStringLiteral("work_time"), 0ms);
        if (!value)
            return value.error();
        workTimes.insert(ctx.stage(), *value);
        return std::nullopt;
    };

    auto handler = [&workTimes](StageContext &ctx, qint64 id) {
        if (const auto workTime = workTimes.value(ctx.stage(), 0ms); workTime > 0ms)
            std::this_thread::sleep_for(workTime); // the "work"
        return ctx.advance(id);
    };

    // Opt-in (issue 11): the handler only advances through the kit, so it may
    // commit the ids it holds in one transaction. Off unless asked for, so
    // the benchmark's default figures stay comparable.
    WorkerOptions options;
    options.commitBatches = qEnvironmentVariableIntValue("PEPSI_EXAMPLE_COMMIT_BATCHES") == 1;
    return runWorker(argc, argv, setup, handler, options);
}
