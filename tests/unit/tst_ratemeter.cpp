// SPDX-License-Identifier: AGPL-3.0-or-later
// RateMeter: the rate over a window from one sample a second, the base
// sample chosen, spans too short to count, samples dropped past the kept
// number, and per-stage rates.
#include "model/ratemeter.h"

#include <QTest>

using namespace pepsi;
using namespace std::chrono_literals;

namespace {

// (atMs, runs)
using Samples = QList<QPair<qint64, qint64>>;

RateMeter meterOf(const Samples &samples, std::size_t kept = 61)
{
    RateMeter meter(kept);
    for (const auto &[atMs, runs] : samples)
        meter.sample(atMs, RateMeter::Counts{runs, {{QStringLiteral("a"), runs * 2}}});
    return meter;
}

// One sample a second from 0 to `last` s, `perSecond` runs each second.
Samples steady(int last, qint64 perSecond)
{
    Samples samples;
    for (int s = 0; s <= last; ++s)
        samples.append({s * 1000LL, s * perSecond});
    return samples;
}

} // namespace

class TestRateMeter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rate_data();
    void rate();
    void stageRateUsesTheSameBase();
    void stageNeverSampledCountsFromZero();
};

void TestRateMeter::rate_data()
{
    QTest::addColumn<Samples>("samples");
    QTest::addColumn<int>("kept");
    QTest::addColumn<qint64>("nowMs");
    QTest::addColumn<qint64>("windowMs");
    QTest::addColumn<qint64>("current");
    QTest::addColumn<double>("expected");

    QTest::newRow("no sample") << Samples{} << 61 << 5000LL << 10000LL << 100LL << 0.0;
    QTest::newRow("span under half a second") << Samples{{0, 0}} << 61 << 499LL << 10000LL << 100LL << 0.0;
    QTest::newRow("half a second counts") << Samples{{0, 0}} << 61 << 500LL << 10000LL << 100LL << 200.0;
    QTest::newRow("younger than the window: from the oldest")
        << Samples{{0, 0}, {1000, 10}, {2000, 20}} << 61 << 4000LL << 10000LL << 40LL << 10.0;
    QTest::newRow("10 s window: the newest sample at least 10 s old")
        << steady(30, 5) << 61 << 30000LL << 10000LL << 150LL << 5.0;
    // Runs only in the last 10 s of 60: the 60 s rate is a sixth of the 10 s one.
    Samples burst = steady(60, 0);
    for (int s = 51; s <= 60; ++s)
        burst[s].second = (s - 50) * 60LL;
    QTest::newRow("burst over 10 s") << burst << 61 << 60000LL << 10000LL << 600LL << 60.0;
    QTest::newRow("burst over 60 s") << burst << 61 << 60000LL << 60000LL << 600LL << 10.0;
    QTest::newRow("between samples: the base is the newest old enough")
        << steady(20, 3) << 61 << 20500LL << 10000LL << 61LL << (61.0 - 30.0) / 10.5;
    QTest::newRow("a stall shows in the window")
        << Samples{{0, 0}, {1000, 100}, {2000, 100}, {3000, 100}} << 61 << 3000LL << 1000LL << 100LL << 0.0;
    QTest::newRow("only the kept samples: 60 s asked, 3 s kept")
        << steady(60, 7) << 3 << 60000LL << 60000LL << 420LL << 7.0;
}

void TestRateMeter::rate()
{
    QFETCH(Samples, samples);
    QFETCH(int, kept);
    QFETCH(qint64, nowMs);
    QFETCH(qint64, windowMs);
    QFETCH(qint64, current);
    QFETCH(double, expected);

    const RateMeter meter = meterOf(samples, std::size_t(kept));
    QCOMPARE(meter.rate(nowMs, std::chrono::milliseconds(windowMs), current), expected);
}

void TestRateMeter::stageRateUsesTheSameBase()
{
    // Stage "a" ran twice as often as the total the helper records.
    const RateMeter meter = meterOf(steady(20, 4));
    QCOMPARE(meter.rate(20000, 10s, 80), 4.0);
    QCOMPARE(meter.stageRate(20000, 10s, QStringLiteral("a"), 160), 8.0);
}

void TestRateMeter::stageNeverSampledCountsFromZero()
{
    // A stage added by a reload has no count in older samples: its runs so far.
    const RateMeter meter = meterOf(steady(10, 1));
    QCOMPARE(meter.stageRate(10000, 10s, QStringLiteral("new"), 25), 2.5);
}

QTEST_GUILESS_MAIN(TestRateMeter)
#include "tst_ratemeter.moc"
