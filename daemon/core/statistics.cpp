// SPDX-License-Identifier: AGPL-3.0-or-later
#include "core/statistics.h"

#include <algorithm>

namespace pepsi {

bool Statistics::isTerminal(const QString &stage) const
{
    const StageConfig *config = m_graph.stage(stage);
    return config && config->next.isEmpty();
}

void Statistics::add(const QString &stage, const StageCounters &counters)
{
    for (StatsDelta *target : {&m_delta, &m_totals}) {
        target->stages[stage] += counters;
        target->stageRuns += counters.runs;
    }
}

void Statistics::record(const RunReport &report)
{
    StageCounters own;
    own.runs = report.heldMessage ? 1 : 0;
    bool leftPipeline = false;
    switch (report.result) {
    case RunReport::Result::Succeeded: {
        qint64 fusedUsec = 0;
        for (const FusedRun &run : report.fused) {
            add(run.stage, StageCounters{1, 0, 0, 0, run.usec});
            fusedUsec += run.usec;
        }
        own.busyUsec = std::max<qint64>(0, report.busyUsec - fusedUsec);
        leftPipeline = isTerminal(report.fused.isEmpty() ? report.stage : report.fused.last().stage);
        break;
    }
    case RunReport::Result::Failed:
        own.failures = 1;
        own.busyUsec = report.busyUsec;
        leftPipeline = true;
        break;
    case RunReport::Result::TriedLater:
        own.busyUsec = report.busyUsec;
        break;
    case RunReport::Result::TimedOut:
        own.timeouts = 1;
        own.busyUsec = report.busyUsec;
        leftPipeline = true;
        break;
    case RunReport::Result::Crashed:
        own.crashes = 1;
        own.busyUsec = report.busyUsec;
        leftPipeline = report.heldMessage;
        break;
    }
    add(report.stage, own);
    if (report.heldMessage) {
        if (report.result == RunReport::Result::Succeeded) {
            m_failedInARow.remove(report.stage);
            for (const FusedRun &run : report.fused)
                m_failedInARow.remove(run.stage);
        } else if (report.result != RunReport::Result::TriedLater) {
            ++m_failedInARow[report.stage];
        }
    }
    if (leftPipeline) {
        ++m_delta.messages;
        ++m_totals.messages;
    }
}

StatsDelta Statistics::takeDelta()
{
    StatsDelta delta;
    std::swap(delta, m_delta);
    return delta;
}

} // namespace pepsi
