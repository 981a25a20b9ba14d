// SPDX-License-Identifier: AGPL-3.0-or-later
// StatisticsFlusher's arithmetic, on a clock the test moves: the idle flush's
// spacing, the rates over the meter's windows from its once-a-second samples,
// and that nothing is written (or lost) without a database.
#include "core/statisticsflusher.h"

#include <QTest>

using namespace pepsi;
using namespace std::chrono_literals;
using std::chrono::milliseconds;

namespace {

RunReport succeeded(const char *stage)
{
    return RunReport{QString::fromLatin1(stage), RunReport::Result::Succeeded, true, 1000, {}, {}};
}

} // namespace

class TestStatisticsFlusher : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void idleFlushWait_data();
    void idleFlushWait();
    void ratesFollowTheSamples();
    void stageRatesAreTheStagesOwn();
    void withoutADatabaseTheDeltaStays();
};

void TestStatisticsFlusher::idleFlushWait_data()
{
    QTest::addColumn<qint64>("sinceLastMs");
    QTest::addColumn<qint64>("waitMs");

    QTest::newRow("just written") << qint64(0) << qint64(1000);
    QTest::newRow("300 ms ago") << qint64(300) << qint64(700);
    QTest::newRow("999 ms ago") << qint64(999) << qint64(1);
    QTest::newRow("a second ago: now") << qint64(1000) << qint64(0);
    QTest::newRow("a minute ago: now") << qint64(60000) << qint64(0);
}

void TestStatisticsFlusher::idleFlushWait()
{
    QFETCH(qint64, sinceLastMs);
    QFETCH(qint64, waitMs);
    QCOMPARE(StatisticsFlusher::idleFlushWait(milliseconds(sinceLastMs)).count(), waitMs);
}

void TestStatisticsFlusher::ratesFollowTheSamples()
{
    // GIVEN a flusher on a clock at 0 (its first sample: nothing has run)
    qint64 nowMs = 0;
    StatisticsFlusher flusher(nullptr, [&nowMs] { return nowMs; });
    QCOMPARE(flusher.runRate(10s), 0.0);
    // WHEN 20 runs end over 2 s, sampled each second
    for (int second = 1; second <= 2; ++second) {
        for (int run = 0; run < 10; ++run)
            flusher.record(succeeded("a"));
        nowMs = second * 1000;
        flusher.sampleRates();
    }
    // THEN the 10 s rate counts them from the first sample: 20 runs in 2 s
    QCOMPARE(flusher.totals().stageRuns, qint64(20));
    QCOMPARE(flusher.runRate(10s), 10.0);
    // AND the 1 s window starts at the newest sample at least a second back
    for (int run = 0; run < 5; ++run)
        flusher.record(succeeded("a"));
    nowMs = 2500;
    QCOMPARE(flusher.runRate(1s), 15.0 / 1.5); // from the sample at 1 s (10 runs) to 25
}

void TestStatisticsFlusher::stageRatesAreTheStagesOwn()
{
    qint64 nowMs = 0;
    StatisticsFlusher flusher(nullptr, [&nowMs] { return nowMs; });
    for (int run = 0; run < 6; ++run)
        flusher.record(succeeded("a"));
    for (int run = 0; run < 2; ++run)
        flusher.record(succeeded("b"));
    nowMs = 2000;
    QCOMPARE(flusher.stageRunRate(QStringLiteral("a"), 10s), 3.0);
    QCOMPARE(flusher.stageRunRate(QStringLiteral("b"), 10s), 1.0);
    QCOMPARE(flusher.stageRunRate(QStringLiteral("none"), 10s), 0.0);
    QCOMPARE(flusher.runRate(10s), 4.0);
}

void TestStatisticsFlusher::withoutADatabaseTheDeltaStays()
{
    qint64 nowMs = 0;
    StatisticsFlusher flusher(nullptr, [&nowMs] { return nowMs; });
    int held = 0;
    flusher.setInFlightSource([&held] { return held; });
    flusher.record(succeeded("a"));
    QVERIFY(flusher.hasDelta());
    nowMs = 5000;
    flusher.flush();
    flusher.flushWhenIdle();
    held = 3;
    flusher.flushWhenIdle();
    // No session: nothing written, nothing lost.
    QVERIFY(flusher.hasDelta());
    QCOMPARE(flusher.totals().stageRuns, qint64(1));
    QVERIFY(flusher.mayWrite());
    flusher.abandon();
    QVERIFY(!flusher.mayWrite());
}

QTEST_GUILESS_MAIN(TestStatisticsFlusher)
#include "tst_statisticsflusher.moc"
