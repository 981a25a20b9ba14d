// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "config/stagegraph.h"
#include "core/runreport.h"

#include <QHash>
#include <QString>

namespace pepsi {

struct StageCounters
{
    qint64 runs = 0;      // runs that ended (answered, timed out or crashed), fused runs included
    qint64 failures = 0;  // non-zero answers other than 75, protocol errors
    qint64 timeouts = 0;  // watchdog kills
    qint64 crashes = 0;   // workers that died on their own
    qint64 busyUsec = 0;  // processing time; a fused stage's time is its own, not its host's

    bool isZero() const { return !runs && !failures && !timeouts && !crashes && !busyUsec; }
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

// In-memory statistics: deltas since the last flush, and totals since start.
// The dispatcher is the only writer of stage_stats/dispatch_stats; workers
// report fused runs on their status line instead of writing them.
class Statistics
{
public:
    void setGraph(const StageGraph &graph) { m_graph = graph; }
    void record(const RunReport &report);

    bool hasDelta() const { return !m_delta.isEmpty(); }
    StatsDelta takeDelta();
    // A flush failed: keep its numbers for the next one.
    void giveBack(const StatsDelta &delta) { m_delta += delta; }
    const StatsDelta &totals() const { return m_totals; }

private:
    void add(const QString &stage, const StageCounters &counters);
    bool isTerminal(const QString &stage) const;

    StageGraph m_graph;
    StatsDelta m_delta;
    StatsDelta m_totals;
};

} // namespace pepsi
