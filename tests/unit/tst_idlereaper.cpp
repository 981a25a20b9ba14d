// SPDX-License-Identifier: AGPL-3.0-or-later
// IdleReaper alone: each idle worker named once when its own timeout is
// over, in the order they went idle; one that took work again, or all of
// them at a retirement, never.
#include "workers/idlereaper.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

using namespace pepsi;
using namespace std::chrono_literals;

class TestIdleReaper : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void expiresEachAfterItsOwnTimeout();
    void markingAgainKeepsTheFirstTime();
    void forgottenWorkersDoNotExpire();
    void clearForgetsEveryWorker();
};

void TestIdleReaper::expiresEachAfterItsOwnTimeout()
{
    IdleReaper reaper(300ms, nullptr);
    QSignalSpy expired(&reaper, &IdleReaper::expired);
    QObject first;
    QObject second;
    QElapsedTimer clock;
    clock.start();
    reaper.markIdle(&first);
    QTest::qWait(150);
    reaper.markIdle(&second);
    QTRY_COMPARE(expired.size(), 1);
    QCOMPARE(expired.at(0).at(0).value<QObject *>(), &first);
    QVERIFY2(clock.elapsed() >= 300, qPrintable(QString::number(clock.elapsed())));
    QVERIFY(!reaper.isIdle(&first));
    QVERIFY(reaper.isIdle(&second));
    QTRY_COMPARE(expired.size(), 2);
    QCOMPARE(expired.at(1).at(0).value<QObject *>(), &second);
    QVERIFY(clock.elapsed() >= 450);
    QVERIFY(!reaper.isIdle(&second));
    // Once each.
    QTest::qWait(400);
    QCOMPARE(expired.size(), 2);
}

void TestIdleReaper::markingAgainKeepsTheFirstTime()
{
    IdleReaper reaper(300ms, nullptr);
    QSignalSpy expired(&reaper, &IdleReaper::expired);
    QObject worker;
    QElapsedTimer clock;
    clock.start();
    reaper.markIdle(&worker);
    QTest::qWait(250);
    reaper.markIdle(&worker);
    QTRY_COMPARE(expired.size(), 1);
    // From the second mark on, it would have taken 550 ms.
    QVERIFY2(clock.elapsed() < 500, qPrintable(QString::number(clock.elapsed())));
}

void TestIdleReaper::forgottenWorkersDoNotExpire()
{
    IdleReaper reaper(200ms, nullptr);
    QSignalSpy expired(&reaper, &IdleReaper::expired);
    QObject busy;
    QObject idle;
    reaper.markIdle(&busy);
    reaper.markIdle(&idle);
    reaper.forget(&busy);
    QVERIFY(!reaper.isIdle(&busy));
    QTRY_COMPARE(expired.size(), 1);
    QCOMPARE(expired.at(0).at(0).value<QObject *>(), &idle);
    // Idle again later: a new time of its own.
    reaper.markIdle(&busy);
    QTRY_COMPARE(expired.size(), 2);
    QCOMPARE(expired.at(1).at(0).value<QObject *>(), &busy);
}

void TestIdleReaper::clearForgetsEveryWorker()
{
    IdleReaper reaper(100ms, nullptr);
    QSignalSpy expired(&reaper, &IdleReaper::expired);
    QObject a;
    QObject b;
    reaper.markIdle(&a);
    reaper.markIdle(&b);
    reaper.clear();
    QVERIFY(!reaper.isIdle(&a) && !reaper.isIdle(&b));
    QTest::qWait(300);
    QCOMPARE(expired.size(), 0);
}

QTEST_GUILESS_MAIN(TestIdleReaper)
#include "tst_idlereaper.moc"
