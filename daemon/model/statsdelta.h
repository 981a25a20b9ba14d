// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QHash>
#include <QString>

namespace pepsi {

struct StageCounters
{
    qint64 runs = 0;     // runs that ended (answered, timed out or crashed), fused runs included
    qint64 failures = 0; // non-zero answers other than 75, protocol errors
    qint64 timeouts = 0; // watchdog kills
    qint64 crashes = 0;  // workers that died on their own
    qint64 busyUsec = 0; // processing time; a fused stage's time is its own, not its host's

    StageCounters &operator+=(const StageCounters &other);
    bool operator==(const StageCounters &) const = default;
};

struct StatsDelta
{
    QHash<QString, StageCounters> stages;
    qint64 stageRuns = 0;
    qint64 messages = 0; // messages that left the pipeline: done at a terminal stage, failed or timed out

    bool isEmpty() const { return stages.isEmpty() && !stageRuns && !messages; }
    StatsDelta &operator+=(const StatsDelta &other);
};

} // namespace pepsi
