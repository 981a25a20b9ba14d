// SPDX-License-Identifier: AGPL-3.0-or-later
#include "policy/backoff.h"

#include <QTest>
#include <limits>

using namespace std::chrono_literals;
using pepsi::Backoff;
using std::chrono::milliseconds;

// A compile-time policy: the cooldown is a constexpr function built on it.
static_assert(Backoff{1s, 60s}.delay(1) == 1s);
static_assert(Backoff{1s, 60s}.delay(7) == 60s);

// The numbers of each user, named after it: a stage's cooldown (doubling from
// 1 s to 60 s), the database reconnect (100 ms to 10 s), outcomes that a
// locked row kept from being written (1 s to 8 s), the console's reconnect to
// a peer that is not the daemon (twice its interval, to 60 s).
class TestBackoff : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void delay_data();
    void delay();
    void after_data();
    void after();
    void delayNeverShrinks();
};

void TestBackoff::delay_data()
{
    QTest::addColumn<qint64>("first");
    QTest::addColumn<qint64>("cap");
    QTest::addColumn<int>("failures");
    QTest::addColumn<qint64>("ms");

    const int intMin = std::numeric_limits<int>::min();
    const int intMax = std::numeric_limits<int>::max();
    // cooldown: Backoff{1s, 60s}
    QTest::newRow("cooldown INT_MIN") << qint64(1000) << qint64(60000) << intMin << qint64(1000);
    QTest::newRow("cooldown 0") << qint64(1000) << qint64(60000) << 0 << qint64(1000);
    QTest::newRow("cooldown 1") << qint64(1000) << qint64(60000) << 1 << qint64(1000);
    QTest::newRow("cooldown 2") << qint64(1000) << qint64(60000) << 2 << qint64(2000);
    QTest::newRow("cooldown 6") << qint64(1000) << qint64(60000) << 6 << qint64(32000);
    QTest::newRow("cooldown 7 caps") << qint64(1000) << qint64(60000) << 7 << qint64(60000);
    QTest::newRow("cooldown INT_MAX") << qint64(1000) << qint64(60000) << intMax << qint64(60000);
    // database reconnect: Backoff{100ms, 10s}, counted from the first failure
    QTest::newRow("database 1") << qint64(100) << qint64(10000) << 1 << qint64(100);
    QTest::newRow("database 2") << qint64(100) << qint64(10000) << 2 << qint64(200);
    QTest::newRow("database 7") << qint64(100) << qint64(10000) << 7 << qint64(6400);
    QTest::newRow("database 8 caps") << qint64(100) << qint64(10000) << 8 << qint64(10000);
    QTest::newRow("database 11") << qint64(100) << qint64(10000) << 11 << qint64(10000);
    QTest::newRow("database 40") << qint64(100) << qint64(10000) << 40 << qint64(10000);
    // outcomes held off by a locked row: Backoff{1s, 8s}
    QTest::newRow("settle 1") << qint64(1000) << qint64(8000) << 1 << qint64(1000);
    QTest::newRow("settle 2") << qint64(1000) << qint64(8000) << 2 << qint64(2000);
    QTest::newRow("settle 3") << qint64(1000) << qint64(8000) << 3 << qint64(4000);
    QTest::newRow("settle 4 caps") << qint64(1000) << qint64(8000) << 4 << qint64(8000);
    QTest::newRow("settle 6") << qint64(1000) << qint64(8000) << 6 << qint64(8000);
    QTest::newRow("settle 100") << qint64(1000) << qint64(8000) << 100 << qint64(8000);
    // a first delay above the cap is cut to it
    QTest::newRow("first above cap") << qint64(5000) << qint64(2000) << 1 << qint64(2000);
    // a zero first delay stays zero (and does not loop)
    QTest::newRow("zero first") << qint64(0) << qint64(2000) << intMax << qint64(0);
}

void TestBackoff::delay()
{
    QFETCH(qint64, first);
    QFETCH(qint64, cap);
    QFETCH(int, failures);
    QFETCH(qint64, ms);
    QCOMPARE(qint64(Backoff{milliseconds(first), milliseconds(cap)}.delay(failures).count()), ms);
}

void TestBackoff::after_data()
{
    QTest::addColumn<qint64>("first");
    QTest::addColumn<qint64>("cap");
    QTest::addColumn<qint64>("previous");
    QTest::addColumn<qint64>("ms");

    // the console, reconnect interval 1000 ms: Backoff{2000ms, 60000ms}
    QTest::newRow("console none yet") << qint64(2000) << qint64(60000) << qint64(0) << qint64(2000);
    QTest::newRow("console 2000") << qint64(2000) << qint64(60000) << qint64(2000) << qint64(4000);
    QTest::newRow("console 16000") << qint64(2000) << qint64(60000) << qint64(16000) << qint64(32000);
    QTest::newRow("console 32000 caps") << qint64(2000) << qint64(60000) << qint64(32000) << qint64(60000);
    QTest::newRow("console 60000 stays") << qint64(2000) << qint64(60000) << qint64(60000) << qint64(60000);
    // an interval so long that twice it is past the cap
    QTest::newRow("console interval 40000") << qint64(80000) << qint64(60000) << qint64(0) << qint64(60000);
    QTest::newRow("negative previous is none") << qint64(2000) << qint64(60000) << qint64(-5) << qint64(2000);
}

void TestBackoff::after()
{
    QFETCH(qint64, first);
    QFETCH(qint64, cap);
    QFETCH(qint64, previous);
    QFETCH(qint64, ms);
    QCOMPARE(qint64(Backoff{milliseconds(first), milliseconds(cap)}.after(milliseconds(previous)).count()), ms);
}

void TestBackoff::delayNeverShrinks()
{
    for (const Backoff policy : {Backoff{1s, 60s}, Backoff{100ms, 10s}, Backoff{1s, 8s}}) {
        milliseconds previous = 0ms;
        for (int n = 0; n <= 100; ++n) {
            const milliseconds now = policy.delay(n);
            QVERIFY2(
                now >= previous && now >= policy.first && now <= policy.cap,
                qPrintable(
                    QStringLiteral("failure %1: %2 ms after %3 ms").arg(n).arg(now.count()).arg(previous.count())));
            // Counting failures or doubling the last delay is the same sequence.
            if (n >= 2)
                QCOMPARE(now, policy.after(previous));
            previous = now;
        }
    }
}

QTEST_APPLESS_MAIN(TestBackoff)
#include "tst_backoff.moc"
