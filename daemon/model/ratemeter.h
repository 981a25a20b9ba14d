// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QHash>
#include <QString>
#include <chrono>
#include <deque>

namespace pepsi {

// Runs per second over a recent window, from one sample of the run counters
// a second: the one place the daemon computes a rate (the control socket's
// 10 s and 60 s rates, systemd's STATUS= line). A value class with no clock
// of its own: the owner samples, and passes the time and the counters now.
class RateMeter
{
public:
    struct Counts
    {
        qint64 runs = 0;
        QHash<QString, qint64> stageRuns;
    };

    // Keeps the last `kept` samples: at one a second, 61 cover a 60 s window.
    explicit RateMeter(std::size_t kept = 61);

    // The counters at `atMs` (on the owner's clock, increasing).
    void sample(qint64 atMs, Counts counts);

    // Runs per second from the newest sample at least `window` before `nowMs`
    // (or the oldest kept) to `current`, the count at `nowMs`. 0 without a
    // sample, or when that span is under half a second: too short to mean much.
    double rate(qint64 nowMs, std::chrono::milliseconds window, qint64 current) const;
    double stageRate(qint64 nowMs, std::chrono::milliseconds window, const QString &stage, qint64 current) const;

private:
    struct Sample
    {
        qint64 atMs = 0;
        Counts counts;
    };
    const Sample *baseFor(qint64 nowMs, std::chrono::milliseconds window) const;
    static double perSecond(qint64 runs, qint64 spanMs);

    std::size_t m_kept;
    std::deque<Sample> m_samples; // oldest first
};

} // namespace pepsi
