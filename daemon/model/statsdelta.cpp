// SPDX-License-Identifier: AGPL-3.0-or-later
#include "model/statsdelta.h"

namespace pepsi {

StageCounters &StageCounters::operator+=(const StageCounters &other)
{
    runs += other.runs;
    failures += other.failures;
    timeouts += other.timeouts;
    crashes += other.crashes;
    busyUsec += other.busyUsec;
    return *this;
}

StatsDelta &StatsDelta::operator+=(const StatsDelta &other)
{
    for (auto it = other.stages.cbegin(); it != other.stages.cend(); ++it)
        stages[it.key()] += it.value();
    stageRuns += other.stageRuns;
    messages += other.messages;
    return *this;
}

} // namespace pepsi
