// SPDX-License-Identifier: AGPL-3.0-or-later
// IdleReaper alone: each idle worker named once when its own timeout is
// over, in the order they went idle; one that took work again, or all of
// them at a retirement, never.
#include "workers/idlereaper.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace pepsi;
using namespace std::chrono_literals;

class TestIdleReaper : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void expiresEachAfterItsOwnTimeout();
    void markingAgainKeepsTheFirstTime();
    void forgottenWorkersDoNotExpire();
    void clearForgetsEveryWorker();

private:
    static constexpr std::chrono::milliseconds Timeout = 400ms;
    // The workers it named so far, in order.
    QList<QObject *> expired() const;

    QObject m_first;
    QObject m_second;
    std::unique_ptr<IdleReaper> m_reaper;
    std::unique_ptr<QSignalSpy> m_expired;
};

void TestIdleReaper::init()
{
    m_expired.reset();
    m_reaper = std::make_unique<IdleReaper>(Timeout, nullptr);
    m_expired = std::make_unique<QSignalSpy>(m_reaper.get(), &IdleReaper::expired);
}

QList<QObject *> TestIdleReaper::expired() const
{
    QList<QObject *> workers;
    for (const QList<QVariant> &signal : std::as_const(*m_expired))
        workers.append(signal.at(0).value<QObject *>());
    return workers;
}

void TestIdleReaper::expiresEachAfterItsOwnTimeout()
{
    QElapsedTimer clock;
    clock.start();
    m_reaper->markIdle(&m_first);
    QTest::qWait(300);
    m_reaper->markIdle(&m_second);
    QTRY_COMPARE(expired(), QList<QObject *>{&m_first});
    QVERIFY2(clock.elapsed() >= 400, qPrintable(QString::number(clock.elapsed())));
    QVERIFY(!m_reaper->isIdle(&m_first));
    QVERIFY(m_reaper->isIdle(&m_second));
    QTRY_COMPARE(expired(), (QList<QObject *>{&m_first, &m_second}));
    QVERIFY(clock.elapsed() >= 700);
    QVERIFY(!m_reaper->isIdle(&m_second));
    // Once each.
    QTest::qWait(400);
    QCOMPARE(m_expired->size(), 2);
}

void TestIdleReaper::markingAgainKeepsTheFirstTime()
{
    QElapsedTimer clock;
    clock.start();
    m_reaper->markIdle(&m_first);
    QTest::qWait(300);
    m_reaper->markIdle(&m_first);
    QTRY_COMPARE(m_expired->size(), 1);
    // From the second mark on, it would have taken 700 ms.
    QVERIFY2(clock.elapsed() < 650, qPrintable(QString::number(clock.elapsed())));
}

void TestIdleReaper::forgottenWorkersDoNotExpire()
{
    m_reaper->markIdle(&m_first);
    m_reaper->markIdle(&m_second);
    m_reaper->forget(&m_first);
    QVERIFY(!m_reaper->isIdle(&m_first));
    QTRY_COMPARE(expired(), QList<QObject *>{&m_second});
    // Idle again later: a new time of its own.
    m_reaper->markIdle(&m_first);
    QTRY_COMPARE(expired(), (QList<QObject *>{&m_second, &m_first}));
}

void TestIdleReaper::clearForgetsEveryWorker()
{
    m_reaper->markIdle(&m_first);
    m_reaper->markIdle(&m_second);
    m_reaper->clear();
    QVERIFY(!m_reaper->isIdle(&m_first) && !m_reaper->isIdle(&m_second));
    QTest::qWait(2 * int(Timeout.count()));
    QCOMPARE(m_expired->size(), 0);
}

QTEST_GUILESS_MAIN(TestIdleReaper)
#include "tst_idlereaper.moc"
