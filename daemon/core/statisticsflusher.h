// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "core/statistics.h"
#include "model/ratemeter.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <chrono>
#include <functional>

namespace pepsi {

class DatabaseSession;

// The statistics the runs add up to, and when they are written: every
// STATS_INTERVAL, and when the dispatcher goes idle (at most once a second),
// so the stats rows follow the queue closely without a write per run. Also
// the rate meter, sampled once a second, that the control socket's rates and
// systemd's status line read. A flush that fails keeps its numbers for the
// next one.
class StatisticsFlusher : public QObject
{
    Q_OBJECT

public:
    // Milliseconds on a clock that only goes forward.
    using Clock = std::function<qint64()>;
    static constexpr std::chrono::milliseconds IdleFlushSpacing{1000};

    // `clock`: the meter's and the idle spacing's time; none: since construction.
    explicit StatisticsFlusher(QObject *parent = nullptr, Clock clock = {});

    void setSession(DatabaseSession *session) { m_session = session; }
    // How many messages the workers hold now: an idle flush waits for none.
    void setInFlightSource(std::function<int()> inFlight) { m_inFlight = std::move(inFlight); }
    void setGraph(const StageGraph &graph) { m_stats.setGraph(graph); }
    void record(const RunReport &report) { m_stats.record(report); }

    bool hasDelta() const { return m_stats.hasDelta(); }
    const StatsDelta &totals() const { return m_stats.totals(); }
    qint64 failedInARow(const QString &stage) const { return m_stats.failedInARow(stage); }
    // Runs per second over the last `window`, from the once-a-second samples.
    double runRate(std::chrono::milliseconds window) const;
    double stageRunRate(const QString &stage, std::chrono::milliseconds window) const;

    // Writes every `interval` from now on; stop(): no more.
    void start(std::chrono::milliseconds interval) { m_interval.start(interval); }
    void stop() { m_interval.stop(); }
    // Writes what was added since the last write (nothing: nothing written).
    void flush();
    // Nothing runs: write now if the last write is a second old, else once it is.
    void flushWhenIdle();
    // Nothing may be written any more (another dispatcher owns the rows).
    void abandon() { m_mayWrite = false; }
    bool mayWrite() const { return m_mayWrite; }
    // Takes a sample of the run counters (the once-a-second timer does).
    void sampleRates();

    // How long an idle flush waits, `sinceLast` after the last write: 0, now.
    static std::chrono::milliseconds idleFlushWait(std::chrono::milliseconds sinceLast);

Q_SIGNALS:
    // Writing failed; the numbers are kept. `error`: the statement's.
    void writeFailed(const QString &error);

private:
    qint64 now() const { return m_clock ? m_clock() : m_since.elapsed(); }

    Statistics m_stats;
    RateMeter m_rates;
    Clock m_clock;
    QElapsedTimer m_since;
    std::function<int()> m_inFlight;
    DatabaseSession *m_session = nullptr;
    QTimer m_interval;    // STATS_INTERVAL
    QTimer m_idleFlush;   // the idle flush, at most once a second
    QTimer m_rateSampler; // once a second
    qint64 m_lastFlushAt = 0;
    bool m_mayWrite = true;
};

} // namespace pepsi
