// SPDX-License-Identifier: AGPL-3.0-or-later
// WorkerExit::classify: what each way a worker ends means for the ids it
// held (requeued, the head failed, the stage held off), and the cause logged.
#include "workers/workerexit.h"

#include <QTest>

using namespace pepsi;
using namespace std::chrono_literals;

Q_DECLARE_METATYPE(pepsi::WorkerExit::Kind)

class TestWorkerExit : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void classify_data();
    void classify();
    void keepsTheLastStderrLine();
};

void TestWorkerExit::classify_data()
{
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<bool>("crashed");
    QTest::addColumn<bool>("heldIds");
    QTest::addColumn<qint64>("answered");
    QTest::addColumn<bool>("startTimedOut");
    QTest::addColumn<bool>("condemned");
    QTest::addColumn<bool>("signalled");
    QTest::addColumn<bool>("inputClosed");
    QTest::addColumn<WorkerExit::Kind>("kind");
    QTest::addColumn<QString>("cause");

    using K = WorkerExit::Kind;
    // clang-format off
    //                                              code crash  held  answ  start  cond   sig    closed
    QTest::newRow("exit 0 holding nothing")      << 0 << false << false << qint64(5) << false << false << false << false << K::Clean << QString();
    QTest::newRow("exit 0 after input closed")   << 0 << false << false << qint64(5) << false << false << false << true  << K::Clean << QString();
    QTest::newRow("exit 0 holding, input closed") << 0 << false << true << qint64(5) << false << false << false << true << K::Stopped
                                                 << QStringLiteral("exited with status 0 without answering");
    QTest::newRow("exit 0 holding, on its own")  << 0 << false << true << qint64(5) << false << false << false << false << K::Died
                                                 << QStringLiteral("exited with status 0 without answering");
    QTest::newRow("exit 3 after answering")      << 3 << false << false << qint64(5) << false << false << false << false << K::Died
                                                 << QStringLiteral("exited with status 3 without answering");
    QTest::newRow("exit 3 before answering")     << 3 << false << true << qint64(0) << false << false << false << false << K::FailedToStart
                                                 << QStringLiteral("exited with status 3 before answering anything");
    QTest::newRow("exit 0 holding, never answered") << 0 << false << true << qint64(0) << false << false << false << false << K::FailedToStart
                                                 << QStringLiteral("exited with status 0 before answering anything");
    QTest::newRow("crash after answering")       << 11 << true << true << qint64(5) << false << false << false << false << K::Died
                                                 << QStringLiteral("crashed: signal 11");
    QTest::newRow("crash before answering")      << 11 << true << true << qint64(0) << false << false << false << false << K::Died
                                                 << QStringLiteral("crashed: signal 11");
    QTest::newRow("crash while input closed")    << 6 << true << true << qint64(5) << false << false << false << true << K::Died
                                                 << QStringLiteral("crashed: signal 6");
    QTest::newRow("killed by our SIGTERM")       << 15 << true << true << qint64(5) << false << false << true << false << K::Stopped
                                                 << QStringLiteral("crashed: signal 15");
    QTest::newRow("exit 0 after our SIGTERM")    << 0 << false << true << qint64(0) << false << false << true << false << K::Stopped
                                                 << QStringLiteral("exited with status 0 without answering");
    QTest::newRow("condemned (timeout)")         << 9 << true << true << qint64(2) << false << true << true << false << K::Stopped
                                                 << QStringLiteral("crashed: signal 9");
    QTest::newRow("start timed out")             << 15 << true << true << qint64(0) << true << false << true << false << K::FailedToStart
                                                 << QStringLiteral("did not read its input within 60000 ms of starting");
    QTest::newRow("start timed out, answered")   << 15 << true << true << qint64(1) << true << false << true << false << K::Stopped
                                                 << QStringLiteral("crashed: signal 15");
    // clang-format on
}

void TestWorkerExit::classify()
{
    QFETCH(int, exitCode);
    QFETCH(bool, crashed);
    QFETCH(bool, heldIds);
    QFETCH(qint64, answered);
    QFETCH(bool, startTimedOut);
    QFETCH(bool, condemned);
    QFETCH(bool, signalled);
    QFETCH(bool, inputClosed);
    QFETCH(WorkerExit::Kind, kind);
    QFETCH(QString, cause);

    WorkerExit::Facts facts;
    facts.exitCode = exitCode;
    facts.crashed = crashed;
    facts.heldIds = heldIds;
    facts.answered = answered;
    facts.startTimedOut = startTimedOut;
    facts.condemned = condemned;
    facts.signalled = signalled;
    facts.inputClosed = inputClosed;
    facts.startTimeout = 60s;
    const WorkerExit exit = WorkerExit::classify(facts);
    QCOMPARE(exit.kind, kind);
    QCOMPARE(exit.cause, cause);
}

void TestWorkerExit::keepsTheLastStderrLine()
{
    WorkerExit::Facts facts;
    facts.exitCode = 2;
    facts.heldIds = true;
    facts.lastStderrLine = QStringLiteral("cannot open config");
    QCOMPARE(WorkerExit::classify(facts).lastStderrLine, QStringLiteral("cannot open config"));
    QCOMPARE(WorkerExit::classify(facts).kind, WorkerExit::Kind::FailedToStart);
}

QTEST_APPLESS_MAIN(TestWorkerExit)
#include "tst_workerexit.moc"
