// SPDX-License-Identifier: AGPL-3.0-or-later
// RoundScheduler: every wake of one loop pass is one round, whose statement
// runs for freed room only if a stage can claim; after a round,
// the retry is armed for the next paused row (at most POLL_INTERVAL away) or
// soon for a locked one; a failed statement is retried once, a second later.
#include "core/roundscheduler.h"

#include <QSignalSpy>
#include <QTest>

using namespace pepsi;
using namespace std::chrono_literals;
using std::chrono::milliseconds;

class TestRoundScheduler : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void retryDelay_data();
    void retryDelay();
    void wakesOfOnePassAreOneRound();
    void aPausedRowBringsARound();
    void roomAloneNeedsNoStatement();
    void aSkippedStatementComesSoon();
    void noPausedRowDisarmsTheRetry();
    void stopEndsHeartbeatAndRetries();
};

void TestRoundScheduler::retryDelay_data()
{
    QTest::addColumn<qint64>("nextPausedInMs"); // -1: none
    QTest::addColumn<bool>("skippedLocked");
    QTest::addColumn<qint64>("delayMs"); // -1: none, the heartbeat looks

    QTest::newRow("nothing paused") << qint64(-1) << false << qint64(-1);
    QTest::newRow("paused in 200 ms") << qint64(200) << false << qint64(200);
    QTest::newRow("paused, due already") << qint64(0) << false << qint64(0);
    QTest::newRow("paused past due") << qint64(-30) << false << qint64(0);
    QTest::newRow("paused beyond the poll interval") << qint64(60000) << false << qint64(5000);
    QTest::newRow("locked, nothing paused") << qint64(-1) << true << qint64(500);
    QTest::newRow("locked, paused sooner") << qint64(100) << true << qint64(100);
    QTest::newRow("locked, paused later") << qint64(3000) << true << qint64(500);
}

void TestRoundScheduler::retryDelay()
{
    QFETCH(qint64, nextPausedInMs);
    QFETCH(bool, skippedLocked);
    QFETCH(qint64, delayMs);
    // -30 stands for a row whose pause ended a moment ago; -1 for none.
    const std::optional<qint64> next = nextPausedInMs == -1 ? std::nullopt : std::optional<qint64>(nextPausedInMs);
    const auto delay = RoundScheduler::retryDelay(next, skippedLocked, 5s);
    QCOMPARE(delay ? delay->count() : qint64(-1), delayMs);
}

void TestRoundScheduler::wakesOfOnePassAreOneRound()
{
    RoundScheduler schedule;
    QSignalSpy rounds(&schedule, &RoundScheduler::roundDue);
    schedule.request();
    schedule.request();
    schedule.request();
    QCOMPARE(rounds.size(), 0); // not from inside the pass that asked
    QTRY_COMPARE(rounds.size(), 1);
    schedule.request();
    QTRY_COMPARE(rounds.size(), 2);
}

void TestRoundScheduler::aPausedRowBringsARound()
{
    RoundScheduler schedule;
    schedule.setPollInterval(5s);
    QSignalSpy rounds(&schedule, &RoundScheduler::roundDue);
    schedule.roundRan(50, false);
    QTRY_COMPARE(rounds.size(), 1);
    // Its statement resumes the row: it runs even with no stage to claim for.
    QVERIFY(schedule.takeStatementDue());
}

void TestRoundScheduler::roomAloneNeedsNoStatement()
{
    RoundScheduler schedule;
    QSignalSpy rounds(&schedule, &RoundScheduler::roundDue);
    schedule.requestForRoom();
    schedule.requestForRoom();
    QTRY_COMPARE(rounds.size(), 1);
    QVERIFY(!schedule.takeStatementDue());
    // Room and an announced row in one pass: one round, with its statement.
    schedule.requestForRoom();
    schedule.request();
    schedule.requestForRoom();
    QTRY_COMPARE(rounds.size(), 2);
    QVERIFY(schedule.takeStatementDue());
    QVERIFY(!schedule.takeStatementDue()); // taken by the round that ran it
}

// A stage may pause its own row and answer 0: only a statement learns when
// that pause ends, so a round that ran none has one run soon, unless one
// runs before.
void TestRoundScheduler::aSkippedStatementComesSoon()
{
    RoundScheduler schedule;
    schedule.setPollInterval(5s);
    QSignalSpy rounds(&schedule, &RoundScheduler::roundDue);
    schedule.statementSkipped();
    QVERIFY(schedule.isSkippedLookArmed());
    QTRY_COMPARE_WITH_TIMEOUT(rounds.size(), 1, 1000);
    QVERIFY(schedule.takeStatementDue());
    schedule.statementSkipped();
    schedule.roundRan(std::nullopt, false);
    QVERIFY(!schedule.isSkippedLookArmed());
}

void TestRoundScheduler::noPausedRowDisarmsTheRetry()
{
    RoundScheduler schedule;
    schedule.setPollInterval(5s);
    schedule.roundRan(3000, false);
    QVERIFY(schedule.isRetryArmed());
    schedule.roundRan(std::nullopt, false);
    QVERIFY(!schedule.isRetryArmed());
    schedule.roundRan(std::nullopt, true); // a locked row: looked at again soon
    QVERIFY(schedule.isRetryArmed());
}

void TestRoundScheduler::stopEndsHeartbeatAndRetries()
{
    RoundScheduler schedule;
    schedule.setPollInterval(50ms);
    QSignalSpy beats(&schedule, &RoundScheduler::heartbeat);
    QSignalSpy errors(&schedule, &RoundScheduler::errorRetryDue);
    schedule.startHeartbeat();
    QTRY_VERIFY(beats.size() >= 2);
    schedule.retryAfterError();
    schedule.retryAfterError(); // once, however often asked
    QTRY_COMPARE_WITH_TIMEOUT(errors.size(), 1, 3000);
    schedule.retryAfterError();
    schedule.roundRan(3000, false);
    schedule.statementSkipped();
    QVERIFY(schedule.isHeartbeatRunning() && schedule.isRetryArmed() && schedule.isErrorRetryArmed()
            && schedule.isSkippedLookArmed());
    schedule.stop();
    QVERIFY(!schedule.isSkippedLookArmed());
    QVERIFY(!schedule.isHeartbeatRunning());
    QVERIFY(!schedule.isRetryArmed());
    QVERIFY(!schedule.isErrorRetryArmed());
}

QTEST_GUILESS_MAIN(TestRoundScheduler)
#include "tst_roundscheduler.moc"
