// SPDX-License-Identifier: AGPL-3.0-or-later
// pepsi-stage-example: the reference stage. It advances every message to the
// stage's first NEXT stage (or marks it done at a terminal stage), after an
// optional simulated work time, [stage-NAME] WORK_TIME (default 0).
#include "stagekit.h"

#include <chrono>
#include <optional>
#include <thread>

using namespace pepsi;
using namespace pepsi::stagekit;
using namespace std::chrono_literals;

int main(int argc, char **argv)
{
    std::chrono::milliseconds workTime = 0ms;

    auto setup = [&workTime](StageContext &ctx) -> std::optional<ConfigError> {
        const auto value = ctx.configuration().duration(ctx.stageSection(), QStringLiteral("work_time"), 0ms);
        if (!value)
            return value.error();
        workTime = *value;
        return std::nullopt;
    };

    auto handler = [&workTime](StageContext &ctx, qint64 id) {
        if (workTime > 0ms)
            std::this_thread::sleep_for(workTime); // the "work"
        return ctx.advance(id);
    };

    return runWorker(argc, argv, setup, handler);
}
