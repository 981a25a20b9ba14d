// SPDX-License-Identifier: AGPL-3.0-or-later
#include "core/failurewatch.h"

#include "model/logcategories.h"

#include <QList>
#include <algorithm>

namespace pepsi {

namespace {

bool countsAsFailure(const RunReport &report)
{
    switch (report.result) {
    case RunReport::Result::Failed:
    case RunReport::Result::TimedOut:
        return true;
    case RunReport::Result::Crashed:
        return report.heldMessage;
    case RunReport::Result::Succeeded:
    case RunReport::Result::TriedLater:
        return false;
    }
    return false;
}

} // namespace

// "7 of its 12 runs in the last 10 s failed (58 %)"
QString FailureWatch::describe(const Totals &sum)
{
    return QStringLiteral("%1 of its %2 runs in the last %3 s failed (%4 %)")
        .arg(sum.failures)
        .arg(sum.runs)
        .arg(Window.count() / 1000)
        .arg(100 * sum.failures / std::max(1, sum.runs)); // rounded down, as clients show it
}

FailureWatch::FailureWatch(QObject *parent, Clock clock)
    : QObject(parent)
    , m_clock(std::move(clock))
{
    m_since.start();
    m_spacing.setSingleShot(true);
    m_spacing.setInterval(Spacing);
    connect(&m_spacing, &QTimer::timeout, this, &FailureWatch::reportFailures);
}

qint64 FailureWatch::now() const { return m_clock ? m_clock() : m_since.elapsed(); }

FailureWatch::Totals FailureWatch::totals(const StageWatch &watch) const
{
    const qint64 second = now() / 1000;
    Totals sum;
    for (const Slot &slot : watch.slots) {
        if (slot.second >= 0 && slot.second > second - qint64(Slots)) {
            sum.runs += slot.runs;
            sum.failures += slot.failures;
        }
    }
    return sum;
}

double FailureWatch::failureShare(const QString &stage) const
{
    const auto it = m_stages.constFind(stage);
    if (it == m_stages.cend())
        return 0;
    const Totals sum = totals(*it);
    return sum.runs > 0 ? double(sum.failures) / sum.runs : 0;
}

void FailureWatch::record(const RunReport &report)
{
    const bool failed = countsAsFailure(report);
    if (!failed && report.result != RunReport::Result::Succeeded)
        return;
    StageWatch &watch = m_stages[report.stage];
    const qint64 second = now() / 1000;
    Slot &slot = watch.slots[std::size_t(second % qint64(Slots))];
    if (slot.second != second)
        slot = Slot{second, 0, 0};
    ++slot.runs;
    if (failed) {
        ++slot.failures;
        ++watch.unreported;
        watch.latestReason = report.reason;
    }
    judge(report.stage, watch);
    if (failed && !m_spacing.isActive())
        reportFailures();
}

void FailureWatch::judge(const QString &stage, StageWatch &watch)
{
    const Totals sum = totals(watch);
    if (sum.runs < MinRuns)
        return;
    const double share = double(sum.failures) / sum.runs;
    if (!watch.failing && share >= FailingShare) {
        watch.failing = true;
        qCWarning(lcPool).noquote() << "stage" << stage << "is failing:"
                                    << describe(sum) + QStringLiteral("; the latest: ") + watch.latestReason;
        Q_EMIT stageFailing(stage, share);
    } else if (watch.failing && share < RecoveredShare) {
        watch.failing = false;
        qCInfo(lcPool).noquote() << "stage" << stage << "recovered:" << describe(sum);
        Q_EMIT stageRecovered(stage, share);
    }
}

void FailureWatch::reportFailures()
{
    struct Report
    {
        QString stage;
        qint64 count = 0;
        QString reason;
    };
    m_spacing.stop(); // when called before its timeout (a test)
    QList<Report> due;
    for (auto it = m_stages.begin(); it != m_stages.end(); ++it) {
        if (it->unreported > 0) {
            due.append({it.key(), std::exchange(it->unreported, 0), it->latestReason});
        }
    }
    if (due.isEmpty())
        return;
    // Every stage reported now waits a Spacing before its next report.
    m_spacing.start();
    std::sort(due.begin(), due.end(), [](const Report &a, const Report &b) { return a.stage < b.stage; });
    for (const Report &report : std::as_const(due))
        Q_EMIT messagesFailed(report.stage, report.count, report.reason);
}

} // namespace pepsi
