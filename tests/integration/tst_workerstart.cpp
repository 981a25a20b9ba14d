// SPDX-License-Identifier: AGPL-3.0-or-later
// A worker's first answers and its start, seen in one pass of the event loop:
// the worker's stdout pipe and QProcess's start-up pipe are both ready when
// the loop next runs. Its answers must count for a started worker, or it is
// never seen to go idle and never recycled (a worker still "starting" is
// neither); and the pool says it started before it says what it ran.
#include "workers/workerpool.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace pepsi;
using namespace Qt::StringLiterals;

class tst_WorkerStart : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void answersWithTheStartCount_data();
    void answersWithTheStartCount();
};

void tst_WorkerStart::answersWithTheStartCount_data()
{
    QTest::addColumn<QString>("reason");
    QTest::newRow("recycled after MAX_MESSAGES") << u"recycled"_s;
    QTest::newRow("idle") << u"idle"_s;
}

void tst_WorkerStart::answersWithTheStartCount()
{
    QFETCH(QString, reason);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    // The worker says on a FIFO that it has answered; the test waits for that
    // outside the event loop, so the answer and the start wait together.
    const QByteArray fifo = QFile::encodeName(dir.filePath(u"answered"_s));
    QVERIFY2(::mkfifo(fifo.constData(), 0600) == 0, strerror(errno));
    const QString program = dir.filePath(u"worker"_s);
    QFile file(program);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("#!/bin/sh\nread a; echo 0; echo answered > '" + fifo + "'; while read id; do echo 0; done\n");
    file.close();
    file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);

    StageConfig stage;
    stage.name = u"s"_s;
    stage.program = program;
    stage.parallelism = 1;
    stage.queueLimit = 4;
    stage.maxMessages = reason == u"recycled"_s ? 1 : 1000;
    PoolOptions options;
    options.idleTimeout = reason == u"idle"_s ? std::chrono::milliseconds(100) : std::chrono::seconds(60);
    QStringList order; // outlives the pool that appends to it
    WorkerPool pool(stage, options, nullptr);
    connect(&pool, &WorkerPool::workerStarted, this, [&order] { order << u"started"_s; });
    connect(&pool, &WorkerPool::runEnded, this, [&order] { order << u"ran"_s; });
    QSignalSpy exited(&pool, &WorkerPool::workerExited);

    const int answered = ::open(fifo.constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    QVERIFY2(answered >= 0, strerror(errno));
    QVERIFY(pool.assign(Tickets{Ticket{1, 1}}).isEmpty());
    pollfd ready = {answered, POLLIN, 0};
    const int polled = ::poll(&ready, 1, 10000);
    ::close(answered);
    QCOMPARE(polled, 1);

    QTRY_COMPARE(exited.size(), 1);
    QCOMPARE(exited.at(0).at(1).toString(), reason);
    QCOMPARE(exited.at(0).at(2).toLongLong(), 1);
    QCOMPARE(order, (QStringList{u"started"_s, u"ran"_s}));
}

QTEST_GUILESS_MAIN(tst_WorkerStart)
#include "tst_workerstart.moc"
