// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "model/runreport.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QString>
#include <QTimer>
#include <array>
#include <chrono>
#include <functional>

namespace pepsi {

// What fails, as it happens (doc/control-protocol.rst, Events): fed every
// run's RunReport, it says which messages failed, coalesced per stage to at
// most one messagesFailed a second, and when a stage starts or stops failing
// most of its runs. A run counts as failed when it held a message and failed,
// timed out or crashed; as good when it succeeded; a tempfail (75) counts
// neither way, as in Statistics::failedInARow.
//
// A stage is failing once at least FailingShare of at least MinRuns runs in
// the last Window failed, and recovered once under RecoveredShare of at least
// MinRuns did: between the two it keeps its state, so a share that wavers
// around one threshold does not flap, and an idle stage stays as it was last
// seen (nothing shows it healed).
class FailureWatch : public QObject
{
    Q_OBJECT

public:
    // Milliseconds on a clock that only goes forward.
    using Clock = std::function<qint64()>;
    static constexpr std::chrono::milliseconds Window{10'000};
    static constexpr int MinRuns = 10;
    static constexpr double FailingShare = 0.5;
    static constexpr double RecoveredShare = 0.1;
    // messagesFailed comes at most this often per stage.
    static constexpr std::chrono::milliseconds Spacing{1000};

    // `clock`: the window's time; none: since construction.
    explicit FailureWatch(QObject *parent = nullptr, Clock clock = {});

    void record(const RunReport &report);

    bool isFailing(const QString &stage) const { return m_stages.value(stage).failing; }
    // Failed runs over all runs of the last Window; 0 without runs.
    double failureShare(const QString &stage) const;

    // Reports what failed since the last report (the spacing timer does).
    // Public for the unit test, which steps through the spacing.
    void reportFailures();

Q_SIGNALS:
    // `count` runs failed or timed out at `stage` since its last report;
    // `reason` is the latest one's state.dispatch_error.
    void messagesFailed(const QString &stage, qint64 count, const QString &reason);
    void stageFailing(const QString &stage, double failureShare);
    void stageRecovered(const QString &stage, double failureShare);

private:
    // One second of a stage's runs.
    struct Slot
    {
        qint64 second = -1;
        int runs = 0;
        int failures = 0;
    };
    static constexpr std::size_t Slots = std::size_t(Window.count() / 1000);
    struct StageWatch
    {
        std::array<Slot, Slots> slots{};
        bool failing = false;
        qint64 unreported = 0; // failed runs since the last messagesFailed
        QString latestReason;
    };
    struct Totals
    {
        int runs = 0;
        int failures = 0;
    };

    static QString describe(const Totals &sum);
    qint64 now() const;
    Totals totals(const StageWatch &watch) const;
    void judge(const QString &stage, StageWatch &watch);

    Clock m_clock;
    QElapsedTimer m_since;
    QHash<QString, StageWatch> m_stages;
    QTimer m_spacing; // single shot: runs while a report was made within Spacing
};

} // namespace pepsi
