// SPDX-License-Identifier: AGPL-3.0-or-later
// EpollDispatcher's timers, as Qt's contract has them: in deadline order and
// never early when precise; coarse ones of one period share a wake; a
// stopped one never fires, not even one its id went to; an object's timers
// are listed and go with it; a zero timer leaves room for notifiers and
// posted events; deleteLater() runs.
#include "epolltest.h"
#include "loop/timerschedule.h"

#include <QElapsedTimer>
#include <QPointer>
#include <QSignalSpy>
#include <QSocketNotifier>
#include <QTimer>

#include <algorithm>
#include <memory>
#include <vector>

using namespace pepsi;
using epolltest::Pipe;

class tst_EpollTimers : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void runsThisThread();
    void timersFireInOrderAndNeverEarly_data();
    void timersFireInOrderAndNeverEarly();
    void repeatingTimerKeepsFiring();
    void coarseTimersShareAWake_data();
    void coarseTimersShareAWake();
    void stoppedTimerNeverFires();
    void timersOfAnObject();
    void zeroTimerLeavesRoomForTheRest();
    void deleteLaterRuns();
};

void tst_EpollTimers::runsThisThread()
{
    QVERIFY(qobject_cast<EpollDispatcher *>(QAbstractEventDispatcher::instance()));
}

void tst_EpollTimers::timersFireInOrderAndNeverEarly_data()
{
    QTest::addColumn<QList<int>>("intervals");
    QTest::newRow("one") << QList<int>{5};
    QTest::newRow("reversed") << QList<int>{40, 30, 20, 10, 0};
    QTest::newRow("equal keep their order") << QList<int>{7, 7, 7, 7};
    QList<int> many;
    for (int i = 0; i < 2000; ++i)
        many.append((i * 37) % 97);
    QTest::newRow("2000 at once") << many;
}

void tst_EpollTimers::timersFireInOrderAndNeverEarly()
{
    QFETCH(QList<int>, intervals);
    QElapsedTimer clock;
    clock.start();
    // Each timer's deadline lies between these two: its interval after the
    // clock read before its start() and after it.
    QList<qint64> earliest(intervals.size());
    QList<qint64> latest(intervals.size());
    std::vector<std::unique_ptr<QTimer>> timers;
    QList<int> fired;
    QList<int> early;
    for (int i = 0; i < intervals.size(); ++i) {
        auto timer = std::make_unique<QTimer>();
        timer->setSingleShot(true);
        timer->setTimerType(Qt::PreciseTimer);
        QObject::connect(timer.get(), &QTimer::timeout, timer.get(), [&, i] {
            fired.append(i);
            if (clock.nsecsElapsed() < earliest[i])
                early.append(i);
        });
        const qint64 interval = qint64(intervals[i]) * 1000000;
        earliest[i] = clock.nsecsElapsed() + interval;
        timer->start(intervals[i]);
        latest[i] = clock.nsecsElapsed() + interval;
        timers.push_back(std::move(timer));
    }
    QTRY_COMPARE(fired.size(), intervals.size());
    QCOMPARE(early, QList<int>{});
    // None fired after one that was certainly due later than it.
    qint64 certainlyDueByNow = 0;
    for (const int i : fired) {
        QVERIFY2(latest[i] >= certainlyDueByNow, qPrintable(QStringLiteral("timer %1 fired out of order").arg(i)));
        certainlyDueByNow = std::max(certainlyDueByNow, earliest[i]);
    }
}

void tst_EpollTimers::repeatingTimerKeepsFiring()
{
    QTimer timer;
    timer.setTimerType(Qt::PreciseTimer);
    QSignalSpy ticks(&timer, &QTimer::timeout);
    timer.start(5);
    const int remaining = timer.remainingTime();
    QVERIFY2(remaining >= 0 && remaining <= 5, qPrintable(QString::number(remaining)));
    QTRY_VERIFY(ticks.size() >= 5);
    QVERIFY(timer.isActive());
    timer.stop();
    QCOMPARE(timer.remainingTime(), -1);
    QCOMPARE(QAbstractEventDispatcher::instance()->remainingTime(987654), -1);
}

void tst_EpollTimers::coarseTimersShareAWake_data()
{
    // Timers registered at the given milliseconds after a whole second of
    // the clock; the milliseconds each has left, seen from the last one's.
    QTest::addColumn<Qt::TimerType>("type");
    QTest::addColumn<int>("interval");
    QTest::addColumn<QList<int>>("registeredAt");
    QTest::addColumn<QList<int>>("remaining");
    QTest::newRow("coarse 1 s: on the second")
        << Qt::CoarseTimer << 1000 << QList<int>{0, 13, 27} << QList<int>{973, 973, 973};
    QTest::newRow("precise 1 s: its own")
        << Qt::PreciseTimer << 1000 << QList<int>{0, 13, 27} << QList<int>{973, 986, 1000};
    QTest::newRow("coarse 300 ms: the 100 ms mark") << Qt::CoarseTimer << 300 << QList<int>{7} << QList<int>{293};
    QTest::newRow("very coarse: the nearest second")
        << Qt::VeryCoarseTimer << 1500 << QList<int>{27} << QList<int>{1973};
    QTest::newRow("coarse under 20 ms: precise") << Qt::CoarseTimer << 15 << QList<int>{3} << QList<int>{15};
}

void tst_EpollTimers::coarseTimersShareAWake()
{
    QFETCH(Qt::TimerType, type);
    QFETCH(int, interval);
    QFETCH(QList<int>, registeredAt);
    QFETCH(QList<int>, remaining);
    const TimerSchedule::Clock::time_point second{std::chrono::seconds(10'000)};
    TimerSchedule schedule;
    QObject owner;
    for (int i = 0; i < registeredAt.size(); ++i)
        schedule.add(i + 1, std::chrono::milliseconds(interval), type, &owner,
                     second + std::chrono::milliseconds(registeredAt[i]));
    const auto last = second + std::chrono::milliseconds(registeredAt.last());
    QList<int> left;
    for (int i = 0; i < registeredAt.size(); ++i)
        left.append(schedule.remainingMs(i + 1, last));
    QCOMPARE(left, remaining);
}

void tst_EpollTimers::stoppedTimerNeverFires()
{
    // Both due in the same pass; the first stops the second and starts a
    // third, which may get the stopped one's id and must wait its interval.
    QTimer first;
    QTimer second;
    QTimer third;
    for (QTimer *timer : {&first, &second})
        timer->setSingleShot(true);
    third.setSingleShot(true);
    bool secondFired = false;
    bool thirdFired = false;
    QObject::connect(&first, &QTimer::timeout, &first, [&] {
        second.stop();
        third.start(200);
    });
    QObject::connect(&second, &QTimer::timeout, &second, [&] { secondFired = true; });
    QObject::connect(&third, &QTimer::timeout, &third, [&] { thirdFired = true; });
    first.start(0);
    second.start(0);
    QCoreApplication::processEvents();
    QTRY_VERIFY(!first.isActive());
    QVERIFY(!secondFired);
    QVERIFY(third.isActive());
    QVERIFY(!thirdFired);
    QTRY_VERIFY(thirdFired);
    QVERIFY(!secondFired);
}

void tst_EpollTimers::timersOfAnObject()
{
    auto *dispatcher = QAbstractEventDispatcher::instance();
    auto owner = std::make_unique<QObject>();
    const int a = owner->startTimer(1000);
    const int b = owner->startTimer(2000, Qt::PreciseTimer);
    const auto timers = dispatcher->registeredTimers(owner.get());
    QCOMPARE(timers.size(), 2);
    for (const auto &timer : timers)
        QVERIFY(timer.timerId == a || timer.timerId == b);
    owner->killTimer(a);
    QCOMPARE(dispatcher->registeredTimers(owner.get()).size(), 1);
    QVERIFY(dispatcher->remainingTime(b) > 1000);
    owner.reset(); // its destructor unregisters the rest
    QCOMPARE(dispatcher->remainingTime(b), -1);
}

void tst_EpollTimers::zeroTimerLeavesRoomForTheRest()
{
    QTimer busy; // fires on every pass
    int passes = 0;
    QObject::connect(&busy, &QTimer::timeout, &busy, [&] { ++passes; });
    busy.start(0);
    Pipe pipe;
    QSocketNotifier readable(pipe.read, QSocketNotifier::Read);
    bool read = false;
    QObject::connect(&readable, &QSocketNotifier::activated, &readable, [&] {
        pipe.drain();
        read = true;
    });
    bool posted = false;
    QMetaObject::invokeMethod(
        this, [&] { posted = true; }, Qt::QueuedConnection);
    QCOMPARE(::write(pipe.write, "x", 1), 1);
    QTRY_VERIFY(read && posted);
    QVERIFY(passes > 0);
}

void tst_EpollTimers::deleteLaterRuns()
{
    QPointer<QObject> doomed = new QObject;
    doomed->deleteLater();
    QTRY_VERIFY(doomed.isNull());
}

PEPSI_EPOLL_TEST_MAIN(tst_EpollTimers)
#include "tst_epolltimers.moc"
