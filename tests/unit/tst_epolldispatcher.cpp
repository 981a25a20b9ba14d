// SPDX-License-Identifier: AGPL-3.0-or-later
// EpollDispatcher, the dispatch thread's event loop, keeps Qt's contract for
// one: timers fire in deadline order and never early, a stopped one never;
// notifiers fire while their descriptor is ready (an end or an error wakes
// them all) and never once unregistered, even by a handler of the same pass;
// a descriptor epoll refuses still works; posted events, deleteLater(), a
// wake from another thread and interrupt() end a wait; QProcess and
// QLocalSocket, which the daemon runs on it, work whole.
#include "loop/epolldispatcher.h"
#include "loop/timerschedule.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QLocalServer>
#include <QLocalSocket>
#include <QPointer>
#include <QProcess>
#include <QSignalSpy>
#include <QSocketNotifier>
#include <QTemporaryFile>
#include <QTest>
#include <QThread>
#include <QTimer>

#include <QSemaphore>

#include <algorithm>
#include <fcntl.h>
#include <memory>
#include <sys/socket.h>
#include <unistd.h>

using namespace pepsi;

class tst_EpollDispatcher : public QObject
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
    void notifierFiresWhileReady_data();
    void notifierFiresWhileReady();
    void readAndWriteOnOneDescriptor();
    void aReusedDescriptorIsWatched();
    void unregisteredInTheSamePassIsNotActivated_data();
    void unregisteredInTheSamePassIsNotActivated();
    void excludedNotifiersWait();
    void wakeFromAnotherThreadEndsAWait();
    void interruptEndsAWait();
    void deleteLaterRuns();
    void processRunsWhole();
    void localSocketRoundTrip();
};

namespace {

// Both ends of a pipe, closed with the test; -1 once closed.
struct Pipe
{
    int read = -1;
    int write = -1;
    Pipe()
    {
        int fds[2];
        if (::pipe2(fds, O_CLOEXEC | O_NONBLOCK) == 0) {
            read = fds[0];
            write = fds[1];
        }
    }
    ~Pipe()
    {
        closeRead();
        closeWrite();
    }
    void closeRead() { closeEnd(read); }
    void closeWrite() { closeEnd(write); }
    static void closeEnd(int &fd)
    {
        if (fd >= 0)
            ::close(fd);
        fd = -1;
    }
    void fill() const
    {
        const QByteArray block(4096, 'x');
        while (::write(write, block.constData(), size_t(block.size())) > 0) { }
    }
    void drain() const
    {
        char buffer[4096];
        while (::read(read, buffer, sizeof buffer) > 0) { }
    }
};

} // namespace

void tst_EpollDispatcher::runsThisThread()
{
    QVERIFY(qobject_cast<EpollDispatcher *>(QAbstractEventDispatcher::instance()));
}

void tst_EpollDispatcher::timersFireInOrderAndNeverEarly_data()
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

void tst_EpollDispatcher::timersFireInOrderAndNeverEarly()
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

void tst_EpollDispatcher::repeatingTimerKeepsFiring()
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

void tst_EpollDispatcher::coarseTimersShareAWake_data()
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

void tst_EpollDispatcher::coarseTimersShareAWake()
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

void tst_EpollDispatcher::stoppedTimerNeverFires()
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

void tst_EpollDispatcher::timersOfAnObject()
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

void tst_EpollDispatcher::zeroTimerLeavesRoomForTheRest()
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

void tst_EpollDispatcher::notifierFiresWhileReady_data()
{
    QTest::addColumn<QString>("situation");
    QTest::newRow("written") << QStringLiteral("written");
    QTest::newRow("writer gone") << QStringLiteral("writer gone");
    QTest::newRow("room again") << QStringLiteral("room again");
    QTest::newRow("reader gone") << QStringLiteral("reader gone");
    QTest::newRow("regular file") << QStringLiteral("regular file");
}

void tst_EpollDispatcher::notifierFiresWhileReady()
{
    QFETCH(QString, situation);
    Pipe pipe;
    QTemporaryFile file;
    QVERIFY(file.open());
    int fd = pipe.read;
    auto type = QSocketNotifier::Read;
    if (situation == QLatin1String("room again") || situation == QLatin1String("reader gone")) {
        fd = pipe.write;
        type = QSocketNotifier::Write;
        pipe.fill();
    } else if (situation == QLatin1String("regular file")) {
        fd = file.handle();
    }
    QSocketNotifier notifier(fd, type);
    QSignalSpy activated(&notifier, &QSocketNotifier::activated);
    if (situation != QLatin1String("regular file")) {
        QCoreApplication::processEvents();
        QCOMPARE(activated.size(), 0); // not ready yet
    }
    if (situation == QLatin1String("written"))
        QCOMPARE(::write(pipe.write, "x", 1), 1);
    else if (situation == QLatin1String("writer gone"))
        pipe.closeWrite();
    else if (situation == QLatin1String("room again"))
        pipe.drain();
    else if (situation == QLatin1String("reader gone"))
        pipe.closeRead();
    QTRY_VERIFY(activated.size() >= 1);
    // Level-triggered: still ready, so again on the next pass.
    const auto before = activated.size();
    QCoreApplication::processEvents();
    QVERIFY(activated.size() > before);
    // And never once disabled.
    notifier.setEnabled(false);
    const auto atDisable = activated.size();
    QCoreApplication::processEvents();
    QCoreApplication::processEvents();
    QCOMPARE(activated.size(), atDisable);
}

void tst_EpollDispatcher::readAndWriteOnOneDescriptor()
{
    int ends[2];
    QCOMPARE(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, ends), 0);
    QSocketNotifier readable(ends[0], QSocketNotifier::Read);
    QSocketNotifier writable(ends[0], QSocketNotifier::Write);
    QSignalSpy reads(&readable, &QSocketNotifier::activated);
    QSignalSpy writes(&writable, &QSocketNotifier::activated);
    QTRY_VERIFY(writes.size() >= 1); // room from the start
    QCOMPARE(reads.size(), 0);
    writable.setEnabled(false); // the descriptor stays watched for reading
    QCOMPARE(::write(ends[1], "x", 1), 1);
    QTRY_VERIFY(reads.size() >= 1);
    const auto writesAtDisable = writes.size();
    readable.setEnabled(false);
    writable.setEnabled(true); // watched again, now for writing only
    const auto readsAtDisable = reads.size();
    QTRY_VERIFY(writes.size() > writesAtDisable);
    QCOMPARE(reads.size(), readsAtDisable);
    ::close(ends[0]);
    ::close(ends[1]);
}

void tst_EpollDispatcher::aReusedDescriptorIsWatched()
{
    // A descriptor closed while its notifier is still enabled leaves epoll's
    // set by itself; a new file that gets its number must still be watched.
    Pipe first;
    auto forgotten = std::make_unique<QSocketNotifier>(first.read, QSocketNotifier::Read);
    const int number = first.read;
    first.closeRead();
    Pipe second; // the lowest free number: most often the closed one already
    if (second.read != number) {
        QCOMPARE(::dup3(second.read, number, O_CLOEXEC), number);
        Pipe::closeEnd(second.read);
        second.read = number;
    }
    const QString warning =
        QStringLiteral("QSocketNotifier: Multiple socket notifiers for same socket %1 and type Read");
    QTest::ignoreMessage(QtWarningMsg, qPrintable(warning.arg(number)));
    QSocketNotifier notifier(number, QSocketNotifier::Read);
    QSignalSpy activated(&notifier, &QSocketNotifier::activated);
    QCOMPARE(::write(second.write, "x", 1), 1);
    QTRY_VERIFY(activated.size() >= 1);
    forgotten.reset(); // its number is the new notifier's now: that one stays
    const auto before = activated.size();
    QTRY_VERIFY(activated.size() > before);
    notifier.setEnabled(false);
}

void tst_EpollDispatcher::unregisteredInTheSamePassIsNotActivated_data()
{
    QTest::addColumn<bool>("deleted");
    QTest::newRow("disabled") << false;
    QTest::newRow("deleted") << true;
}

void tst_EpollDispatcher::unregisteredInTheSamePassIsNotActivated()
{
    QFETCH(bool, deleted);
    Pipe one;
    Pipe two;
    QPointer<QSocketNotifier> first = new QSocketNotifier(one.read, QSocketNotifier::Read, this);
    QPointer<QSocketNotifier> second = new QSocketNotifier(two.read, QSocketNotifier::Read, this);
    int activations = 0;
    // Whichever comes first silences the other, which is ready in the same pass.
    auto silence = [&](QPointer<QSocketNotifier> &other) {
        ++activations;
        if (!other)
            return;
        if (deleted)
            delete other.data();
        else
            other->setEnabled(false);
    };
    QObject::connect(first, &QSocketNotifier::activated, this, [&] { silence(second); });
    QObject::connect(second, &QSocketNotifier::activated, this, [&] { silence(first); });
    QCOMPARE(::write(one.write, "x", 1), 1);
    QCOMPARE(::write(two.write, "x", 1), 1);
    QCoreApplication::processEvents();
    QCOMPARE(activations, 1);
    delete first.data();
    delete second.data();
}

void tst_EpollDispatcher::excludedNotifiersWait()
{
    Pipe pipe;
    QSocketNotifier notifier(pipe.read, QSocketNotifier::Read);
    QSignalSpy activated(&notifier, &QSocketNotifier::activated);
    QCOMPARE(::write(pipe.write, "x", 1), 1);
    QCoreApplication::processEvents(QEventLoop::ExcludeSocketNotifiers);
    QCOMPARE(activated.size(), 0);
    QTRY_VERIFY(activated.size() >= 1);
}

void tst_EpollDispatcher::wakeFromAnotherThreadEndsAWait()
{
    // Nothing else is due for 30 s: only the wake can end the loop in time.
    QEventLoop loop;
    bool byTheGuard = false;
    QTimer::singleShot(30000, &loop, [&] {
        byTheGuard = true;
        loop.quit();
    });
    // Sent when the loop is about to sleep (or asleep already: a wake that
    // comes first must end the sleep that follows it).
    QSemaphore asleep;
    const auto connection =
        QObject::connect(QAbstractEventDispatcher::instance(), &QAbstractEventDispatcher::aboutToBlock, this,
                         [&asleep] { asleep.release(); });
    std::unique_ptr<QThread> poster(QThread::create([&loop, &asleep] {
        asleep.acquire();
        QMetaObject::invokeMethod(&loop, &QEventLoop::quit, Qt::QueuedConnection);
    }));
    poster->start();
    loop.exec();
    poster->wait();
    QObject::disconnect(connection);
    QVERIFY(!byTheGuard);
}

void tst_EpollDispatcher::interruptEndsAWait()
{
    auto *dispatcher = QAbstractEventDispatcher::instance();
    bool byTheGuard = false;
    QTimer guard;
    guard.setSingleShot(true);
    QObject::connect(&guard, &QTimer::timeout, &guard, [&] { byTheGuard = true; });
    guard.start(30000);
    QSemaphore asleep;
    const auto connection =
        QObject::connect(dispatcher, &QAbstractEventDispatcher::aboutToBlock, this, [&asleep] { asleep.release(); });
    std::unique_ptr<QThread> interrupter(QThread::create([dispatcher, &asleep] {
        asleep.acquire();
        dispatcher->interrupt();
    }));
    interrupter->start();
    dispatcher->processEvents(QEventLoop::WaitForMoreEvents);
    interrupter->wait();
    QObject::disconnect(connection);
    QVERIFY(!byTheGuard);
}

void tst_EpollDispatcher::deleteLaterRuns()
{
    QPointer<QObject> doomed = new QObject;
    doomed->deleteLater();
    QTRY_VERIFY(doomed.isNull());
}

void tst_EpollDispatcher::processRunsWhole()
{
    QProcess process;
    process.start(QStringLiteral("/bin/sh"),
                  {QStringLiteral("-c"), QStringLiteral("read line; echo \"out $line\"; echo err >&2; exit 3")});
    QVERIFY(process.waitForStarted());
    process.write("in\n");
    QSignalSpy finished(&process, &QProcess::finished);
    QVERIFY(finished.wait(30000));
    QCOMPARE(process.exitCode(), 3);
    QCOMPARE(process.readAllStandardOutput(), QByteArray("out in\n"));
    QCOMPARE(process.readAllStandardError(), QByteArray("err\n"));
}

void tst_EpollDispatcher::localSocketRoundTrip()
{
    QLocalServer server;
    const QString name = QStringLiteral("tst_epolldispatcher-%1").arg(QCoreApplication::applicationPid());
    QLocalServer::removeServer(name);
    QVERIFY(server.listen(name));
    QLocalSocket client;
    client.connectToServer(name);
    QTRY_VERIFY(server.hasPendingConnections());
    QLocalSocket *peer = server.nextPendingConnection();
    QObject::connect(peer, &QLocalSocket::readyRead, peer, [peer] { peer->write(peer->readAll().toUpper()); });
    QByteArray big(256 * 1024, 'a'); // more than a socket buffer: write notifiers too
    client.write(big);
    QByteArray echoed;
    QObject::connect(&client, &QLocalSocket::readyRead, &client, [&] { echoed += client.readAll(); });
    QTRY_COMPARE(echoed.size(), big.size());
    QCOMPARE(echoed, big.toUpper());
}

int main(int argc, char **argv)
{
    QCoreApplication::setEventDispatcher(new EpollDispatcher);
    QCoreApplication app(argc, argv);
    tst_EpollDispatcher test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_epolldispatcher.moc"
