// SPDX-License-Identifier: AGPL-3.0-or-later
// EpollDispatcher, the dispatch thread's event loop, keeps Qt's contract for
// notifiers and waits: a notifier fires while its descriptor is ready (an end
// or an error wakes them all) and never once unregistered, even by a handler
// of the same pass; a descriptor epoll refuses, or one whose number was
// reused, still works; a wake from another thread and interrupt() end a
// wait; QProcess and QLocalSocket, which the daemon runs on it, work whole.
// Its timers: tst_epolltimers.
#include "epolltest.h"

#include <QEventLoop>
#include <QLocalServer>
#include <QLocalSocket>
#include <QPointer>
#include <QProcess>
#include <QSemaphore>
#include <QSignalSpy>
#include <QSocketNotifier>
#include <QTemporaryFile>
#include <QThread>
#include <QTimer>

#include <memory>
#include <sys/socket.h>

using namespace pepsi;
using epolltest::Pipe;

class tst_EpollDispatcher : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void runsThisThread();
    void notifierFiresWhileReady_data();
    void notifierFiresWhileReady();
    void readAndWriteOnOneDescriptor();
    void aReusedDescriptorIsWatched();
    void unregisteredInTheSamePassIsNotActivated_data();
    void unregisteredInTheSamePassIsNotActivated();
    void excludedNotifiersWait();
    void wakeFromAnotherThreadEndsAWait();
    void interruptEndsAWait();
    void processRunsWhole();
    void localSocketRoundTrip();
};

void tst_EpollDispatcher::runsThisThread()
{
    QVERIFY(qobject_cast<EpollDispatcher *>(QAbstractEventDispatcher::instance()));
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

PEPSI_EPOLL_TEST_MAIN(tst_EpollDispatcher)
#include "tst_epolldispatcher.moc"
