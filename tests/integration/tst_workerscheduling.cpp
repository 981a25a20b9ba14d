// SPDX-License-Identifier: AGPL-3.0-or-later
// WORKER_SCHEDULING: the pool starts its workers as SCHED_BATCH tasks, so that
// the ids the dispatcher writes to them do not move it off its core halfway
// through a round; with `normal` they keep the dispatcher's own policy.
#include "workers/workerpool.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <sched.h>

using namespace pepsi;
using namespace Qt::StringLiterals;

class tst_WorkerScheduling : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void workersRunUnderThePolicy_data();
    void workersRunUnderThePolicy();
};

void tst_WorkerScheduling::workersRunUnderThePolicy_data()
{
    QTest::addColumn<bool>("batch");
    QTest::addColumn<int>("policy");
    QTest::newRow("batch") << true << int(SCHED_BATCH);
    // Whatever this test runs under: the pool leaves it alone.
    QTest::newRow("normal") << false << ::sched_getscheduler(0);
}

void tst_WorkerScheduling::workersRunUnderThePolicy()
{
    QFETCH(bool, batch);
    QFETCH(int, policy);
    QVERIFY2(::sched_getscheduler(0) != SCHED_BATCH, "the test itself runs under SCHED_BATCH: nothing to tell apart");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    // Answers, then waits on its input: alive while the test looks at it.
    const QString program = dir.filePath(u"worker"_s);
    QFile file(program);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("#!/bin/sh\nwhile read id; do echo 0; done\n");
    file.close();
    file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);

    StageConfig stage;
    stage.name = u"s"_s;
    stage.program = program;
    stage.parallelism = 1;
    PoolOptions options;
    options.idleTimeout = std::chrono::seconds(60);
    options.batchScheduling = batch;
    WorkerPool pool(stage, options, nullptr);
    QSignalSpy started(&pool, &WorkerPool::workerStarted);
    QSignalSpy ran(&pool, &WorkerPool::runEnded);
    QVERIFY(pool.assign(Tickets{Ticket{1, 1}}).isEmpty());
    QTRY_COMPARE(ran.size(), 1);
    QCOMPARE(started.size(), 1);
    const auto pid = pid_t(started.at(0).at(0).toLongLong());
    QVERIFY(pid > 0);
    const int actual = ::sched_getscheduler(pid);
    QVERIFY2(actual >= 0, strerror(errno));
    QCOMPARE(actual, policy);
}

QTEST_GUILESS_MAIN(tst_WorkerScheduling)
#include "tst_workerscheduling.moc"
