// SPDX-License-Identifier: AGPL-3.0-or-later
// WorkerPool and WorkerProcess with real processes (small shell scripts as
// stage programs; no database): what hostile worker output and start-up
// faults turn into (settlements, signals), idle and exiting workers
// (doc/stage-programs.rst, "The worker protocol"; the memory that floods
// cost: tst_workerfloods).
#include "workerpooltest.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace pepsi;
using namespace Qt::StringLiterals;

class tst_WorkerPool : public WorkerPoolTest
{
    Q_OBJECT

private Q_SLOTS:
    void startFailureFailsNothing_data();
    void startFailureFailsNothing();
    void crashFailsTheHead_data();
    void crashFailsTheHead();
    void reasonsAreCleaned_data();
    void reasonsAreCleaned();
    void watchdogWaitsForTheStart();
    void idleWorkerExits();
    void startingWorkerHasItsPid();
    void exitReasons_data();
    void exitReasons();
};

// A program that exits with a status before answering anything
// (or cannot be executed) is a stage that cannot start: its ids go back, no
// message fails, the stage cools down and says why.
void tst_WorkerPool::startFailureFailsNothing_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("cause");
    QTest::addColumn<QString>("stderrLine");
    QTest::newRow("exit 78") << QByteArray("echo 'bad configuration: no DATABASE' >&2; exit 78")
                             << u"exited with status 78 before answering anything"_s
                             << u"bad configuration: no DATABASE"_s;
    QTest::newRow("exit 127") << QByteArray("echo 'libmissing.so: cannot open shared object file' >&2; exit 127")
                              << u"exited with status 127 before answering anything"_s
                              << u"libmissing.so: cannot open shared object file"_s;
    QTest::newRow("exit 0 holding ids") << QByteArray("exit 0") << u"exited with status 0 before answering anything"_s
                                        << QString();
    QTest::newRow("exec fails") << QByteArray() << u"failed to start: "_s << QString();
    QTest::newRow("never reads its input")
        << QByteArray("echo 'connecting...' >&2; exec sleep 60")
        << u"did not read its input within 500 ms of starting"_s << u"connecting..."_s;
}

void tst_WorkerPool::startFailureFailsNothing()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, cause);
    QFETCH(QString, stderrLine);
    QString program = script(u"worker"_s, body);
    if (body.isEmpty()) { // executable, but not a format exec knows
        QFile file(program);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("\x7f"
                   "ELF garbage");
    }
    PoolOptions options;
    options.startTimeout = std::chrono::milliseconds(500);
    options.killGrace = std::chrono::milliseconds(500);
    WorkerPool *pool = makePool(program, options);
    QSignalSpy started(pool, &WorkerPool::startFailed);
    QSignalSpy entered(pool, &WorkerPool::cooldownEntered);
    QSignalSpy left(pool, &WorkerPool::cooldownLeft);
    QSignalSpy crashed(pool, &WorkerPool::workerCrashed);

    QVERIFY(pool->assign(tickets(3)).isEmpty());
    QTRY_COMPARE(started.size(), 1);
    QVERIFY2(started.at(0).at(0).toString().startsWith(cause), qPrintable(started.at(0).at(0).toString()));
    QCOMPARE(started.at(0).at(1).toString(), stderrLine);
    QCOMPARE(settled(), (QStringList{u"requeue 1"_s, u"requeue 2"_s, u"requeue 3"_s}));
    QCOMPARE(crashed.size(), 0);
    QCOMPARE(entered.size(), 1);
    const QString reason = entered.at(0).at(1).toString();
    QVERIFY2(reason.startsWith(cause), qPrintable(reason));
    if (!stderrLine.isEmpty())
        QVERIFY2(reason.endsWith(u"; last stderr line: \""_s + stderrLine + u'"'), qPrintable(reason));
    const qint64 untilMs = QDateTime::currentDateTimeUtc().msecsTo(entered.at(0).at(0).toDateTime());
    QVERIFY2(untilMs > 500 && untilMs <= 1000, qPrintable(QString::number(untilMs)));
    QVERIFY(pool->inCooldown());
    QCOMPARE(pool->spareCapacity(), 0);
    QCOMPARE(pool->assign(tickets(1, 4)).size(), 1); // nothing starts while it cools down

    QTRY_COMPARE_WITH_TIMEOUT(left.size(), 1, 3000);
    QVERIFY(!pool->inCooldown());
    // Again: the cooldown grows, and still nothing fails.
    QVERIFY(pool->assign(tickets(1, 5)).isEmpty());
    QTRY_COMPARE(entered.size(), 2);
    const qint64 secondMs = QDateTime::currentDateTimeUtc().msecsTo(entered.at(1).at(0).toDateTime());
    QVERIFY2(secondMs > 1500, qPrintable(QString::number(secondMs)));
    QCOMPARE(settled().last(), u"requeue 5"_s);
    QCOMPARE(settled().filter(u"fail"_s), QStringList());
}

// A crash fails the head-of-line message, also while the worker is
// being stopped (its input closed), and the ids behind it go back.
void tst_WorkerPool::crashFailsTheHead_data()
{
    QTest::addColumn<bool>("stopping");
    QTest::newRow("running") << false;
    QTest::newRow("while stopping") << true;
}

void tst_WorkerPool::crashFailsTheHead()
{
    QFETCH(bool, stopping);
    // Answers the first, dies of SIGSEGV on the second.
    WorkerPool *pool = makePool(script(u"worker"_s, "read a; echo 0; read b; sleep 0.3; kill -SEGV $$"));
    QSignalSpy workerStarted(pool, &WorkerPool::workerStarted);
    QSignalSpy crashed(pool, &WorkerPool::workerCrashed);
    QSignalSpy drained(pool, &WorkerPool::drained);
    QVERIFY(pool->assign(tickets(3)).isEmpty());
    QTRY_COMPARE(workerStarted.size(), 1);
    const qint64 pid = workerStarted.at(0).at(0).toLongLong();
    QVERIFY(pid > 0);
    if (stopping)
        pool->shutdown();
    QTRY_COMPARE(crashed.size(), 1);
    QCOMPARE(crashed.at(0).at(0).toLongLong(), pid);
    QCOMPARE(crashed.at(0).at(1).toString(), u"crashed: signal 11"_s);
    QCOMPARE(crashed.at(0).at(2).toLongLong(), 2);
    QCOMPARE(crashed.at(0).at(3).toInt(), 1);
    QCOMPARE(settled(), (QStringList{u"fail 2 crashed: signal 11"_s, u"requeue 3"_s}));
    if (stopping)
        QTRY_COMPARE(drained.size(), 1);
}

// Reasons PostgreSQL could not store are cleaned; a long one
// keeps its first 1000 bytes, and the next line answers the next id.
void tst_WorkerPool::reasonsAreCleaned_data()
{
    QTest::addColumn<QByteArray>("answer");
    QTest::addColumn<QString>("reason");
    const QString replaced(QChar::ReplacementCharacter);
    QTest::newRow("NUL") << QByteArray("printf '3 bad\\000reason\\n'")
                         << QString(u"status 3: bad"_s + replaced + u"reason"_s);
    QTest::newRow("invalid UTF-8, escape")
        << QByteArray("printf '3 a\\377\\033[0m\\n'") << QString(u"status 3: a"_s + replaced + replaced + u"[0m"_s);
    QTest::newRow("1 MB reason") << QByteArray("printf '3 '; head -c 1048576 /dev/zero | tr '\\000' r; echo")
                                 << QString(u"status 3: "_s + QString(1000, u'r'));
    QTest::newRow("75, 100 KB reason") << QByteArray("printf '75 '; head -c 102400 /dev/zero | tr '\\000' w; echo")
                                       << QString(u"status 75: "_s + QString(1000, u'w'));
}

void tst_WorkerPool::reasonsAreCleaned()
{
    QFETCH(QByteArray, answer);
    QFETCH(QString, reason);
    WorkerPool *pool = makePool(script(u"worker"_s, "read a; " + answer + "; while read id; do echo 0; done"));
    QSignalSpy killed(pool, &WorkerPool::workerKilled);
    QSignalSpy runs(pool, &WorkerPool::runEnded);
    QVERIFY(pool->assign(tickets(3)).isEmpty());
    QTRY_COMPARE(runs.size(), 3);
    QCOMPARE(m_settlements.size(), 1);
    QCOMPARE(m_settlements.at(0).ticket.id, 1);
    QCOMPARE(m_settlements.at(0).reason, reason);
    QCOMPARE(killed.size(), 0);
    QCOMPARE(pool->workerCount(), 1); // the same worker answered the other two
    QCOMPARE(pool->inFlight(), 0);
}

// MAX_RUNTIME counts from when the worker has started reading, not
// from when its ids were written to a process still starting up.
void tst_WorkerPool::watchdogWaitsForTheStart()
{
    PoolOptions options;
    options.maxRuntime = std::chrono::milliseconds(1000);
    options.killGrace = std::chrono::milliseconds(500);
    // 1.5 s of start-up, then one quick answer and one that hangs.
    WorkerPool *pool = makePool(script(u"worker"_s, "sleep 1.5; read a; echo 0; read b; exec sleep 60"), options);
    QSignalSpy killed(pool, &WorkerPool::workerKilled);
    QSignalSpy runs(pool, &WorkerPool::runEnded);
    QElapsedTimer clock;
    clock.start();
    QVERIFY(pool->assign(tickets(2)).isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(runs.size(), 1, 5000);
    QCOMPARE(killed.size(), 0); // the first one was not timed while the worker started
    QTRY_COMPARE_WITH_TIMEOUT(killed.size(), 1, 5000);
    const qint64 killedAfter = clock.elapsed();
    qInfo("the hanging second message timed out %lld ms after its ids were handed over", killedAfter);
    QCOMPARE(killed.at(0).at(1).toString(), u"timeout"_s);
    QCOMPARE(killed.at(0).at(2).toLongLong(), 2);
    QCOMPARE(killed.at(0).at(3).toString(), u"timeout after 1 s"_s);
    QVERIFY2(killedAfter >= 2400, "timed from the hand-over, not from the start");
    QCOMPARE(settled(), QStringList{u"timeout 2 timeout after 1 s"_s});
}

void tst_WorkerPool::idleWorkerExits()
{
    PoolOptions options;
    options.idleTimeout = std::chrono::milliseconds(200);
    WorkerPool *pool = makePool(script(u"worker"_s, "while read id; do echo 0; done"), options);
    QSignalSpy started(pool, &WorkerPool::workerStarted);
    QSignalSpy exited(pool, &WorkerPool::workerExited);
    QVERIFY(pool->assign(tickets(2)).isEmpty());
    QTRY_COMPARE(exited.size(), 1);
    QCOMPARE(started.size(), 1);
    QCOMPARE(exited.at(0).at(0).toLongLong(), started.at(0).at(0).toLongLong());
    QCOMPARE(exited.at(0).at(1).toString(), u"idle"_s);
    QCOMPARE(exited.at(0).at(2).toLongLong(), 2);
    QCOMPARE(m_settlements.size(), 0);
}

// A worker the control socket lists before QProcess has said started()
// (that comes from the event loop) still names its real pid, not 0.
void tst_WorkerPool::startingWorkerHasItsPid()
{
    WorkerPool *pool = makePool(script(u"worker"_s, "while read id; do echo 0; done"));
    QSignalSpy runs(pool, &WorkerPool::runEnded);
    QVERIFY(pool->assign(tickets(1)).isEmpty());
    const QList<WorkerSnapshot> workers = pool->workerSnapshots();
    QCOMPARE(workers.size(), 1);
    QVERIFY2(workers.first().pid > 0, qPrintable(QString::number(workers.first().pid)));
    QCOMPARE(QFileInfo(u"/proc/%1"_s.arg(workers.first().pid)).isDir(), true);
    QTRY_COMPARE(runs.size(), 1);
}

// workerExited tells why a worker went: recycled after MAX_MESSAGES, retired
// by a reload, stopped by a shutdown, or clean when it left on its own.
void tst_WorkerPool::exitReasons_data()
{
    QTest::addColumn<QString>("reason");
    QTest::newRow("recycled") << u"recycled"_s;
    QTest::newRow("retired") << u"retired"_s;
    QTest::newRow("stopped") << u"stopped"_s;
    QTest::newRow("clean") << u"clean"_s;
}

void tst_WorkerPool::exitReasons()
{
    QFETCH(QString, reason);
    const QByteArray body =
        reason == u"clean"_s ? "read a; echo 0; read b; echo 0; exit 0" : "while read id; do echo 0; done";
    WorkerPool *pool = makePool(script(u"worker"_s, body), {}, 4, reason == u"recycled"_s ? 2 : 1000);
    QSignalSpy started(pool, &WorkerPool::workerStarted);
    QSignalSpy exited(pool, &WorkerPool::workerExited);
    QSignalSpy runs(pool, &WorkerPool::runEnded);
    QVERIFY(pool->assign(tickets(2)).isEmpty());
    QTRY_COMPARE(runs.size(), 2);
    if (reason == u"retired"_s)
        pool->reconfigure(pool->stage());
    else if (reason == u"stopped"_s)
        pool->shutdown();
    QTRY_COMPARE(exited.size(), 1);
    QCOMPARE(started.size(), 1);
    QCOMPARE(exited.at(0).at(0).toLongLong(), started.at(0).at(0).toLongLong());
    QCOMPARE(exited.at(0).at(1).toString(), reason);
    QCOMPARE(exited.at(0).at(2).toLongLong(), 2);
    QCOMPARE(m_settlements.size(), 0);
}

QTEST_GUILESS_MAIN(tst_WorkerPool)
#include "tst_workerpool.moc"
