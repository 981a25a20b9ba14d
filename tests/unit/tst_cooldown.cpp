// SPDX-License-Identifier: AGPL-3.0-or-later
#include "workers/cooldown.h"

#include <QTest>
#include <limits>

using namespace std::chrono_literals;
using pepsi::cooldownDelay;

// The policy is a compile-time function; keep it usable as one.
static_assert(cooldownDelay(1) == 1s);
static_assert(cooldownDelay(7) == 60s);

class TestCooldown : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void delay_data();
    void delay();
    void neverShrinksAndStaysCapped();
};

void TestCooldown::delay_data()
{
    QTest::addColumn<int>("failures");
    QTest::addColumn<qint64>("ms");

    QTest::newRow("INT_MIN") << std::numeric_limits<int>::min() << qint64(1'000);
    QTest::newRow("negative") << -3 << qint64(1'000);
    QTest::newRow("0") << 0 << qint64(1'000);
    QTest::newRow("1") << 1 << qint64(1'000);
    QTest::newRow("2") << 2 << qint64(2'000);
    QTest::newRow("3") << 3 << qint64(4'000);
    QTest::newRow("4") << 4 << qint64(8'000);
    QTest::newRow("5") << 5 << qint64(16'000);
    QTest::newRow("6") << 6 << qint64(32'000);
    QTest::newRow("7 reaches the cap") << 7 << qint64(60'000);
    QTest::newRow("8") << 8 << qint64(60'000);
    QTest::newRow("17 (shift limit)") << 17 << qint64(60'000);
    QTest::newRow("18") << 18 << qint64(60'000);
    QTest::newRow("33 (past 32 bits)") << 33 << qint64(60'000);
    QTest::newRow("65") << 65 << qint64(60'000);
    QTest::newRow("1000000") << 1'000'000 << qint64(60'000);
    QTest::newRow("INT_MAX") << std::numeric_limits<int>::max() << qint64(60'000);
}

void TestCooldown::delay()
{
    QFETCH(int, failures);
    QFETCH(qint64, ms);
    QCOMPARE(qint64(cooldownDelay(failures).count()), ms);
}

void TestCooldown::neverShrinksAndStaysCapped()
{
    qint64 previous = 0;
    for (int n = 0; n <= 200; ++n) {
        const qint64 now = cooldownDelay(n).count();
        QVERIFY2(now >= previous,
                 qPrintable(QStringLiteral("failure %1: %2 ms < %3 ms").arg(n).arg(now).arg(previous)));
        QVERIFY2(now >= 1'000 && now <= 60'000, qPrintable(QStringLiteral("failure %1: %2 ms").arg(n).arg(now)));
        previous = now;
    }
}

QTEST_APPLESS_MAIN(TestCooldown)
#include "tst_cooldown.moc"
