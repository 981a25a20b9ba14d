// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "config/stagegraph.h"
#include "model/runreport.h"
#include "model/statsdelta.h"

#include <QHash>
#include <QString>

namespace pepsi {

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
    // How many of the stage's latest runs that held a message failed, timed
    // out or crashed, since its last success (a tempfail counts neither way).
    qint64 failedInARow(const QString &stage) const { return m_failedInARow.value(stage); }

private:
    void add(const QString &stage, const StageCounters &counters);
    bool isTerminal(const QString &stage) const;

    StageGraph m_graph;
    StatsDelta m_delta;
    StatsDelta m_totals;
    QHash<QString, qint64> m_failedInARow;
};

} // namespace pepsi
