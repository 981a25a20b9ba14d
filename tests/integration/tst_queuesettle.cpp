// SPDX-License-Identifier: AGPL-3.0-or-later
// QueueStore against a real PostgreSQL: the guard on every dispatcher write
// (settlements of each outcome, a refused batch split) and the reset of
// orphaned rows at start-up (the claim round: tst_queuestore).
#include "queuestoretest.h"

#include <QSqlQuery>
#include <QTest>

using namespace pepsi;

class TestQueueSettle : public QueueStoreTest
{
    Q_OBJECT

private Q_SLOTS:
    void settleIsGuarded_data();
    void settleIsGuarded();
    void settleWritesEveryOutcome();
    void settleSplitsARefusedBatch();
    void resetOrphans();
    void resetOrphansKeepsWhatWorkersHold();
};

void TestQueueSettle::settleIsGuarded_data()
{
    QTest::addColumn<QString>("stageWrite"); // what the stage (or a later claim) did after our claim
    QTest::addColumn<QString>("expectedStatus");
    QTest::addColumn<QString>("expectedStage");

    QTest::newRow("still running: written") << QString() << QStringLiteral("failed") << QStringLiteral("a");
    QTest::newRow("advanced to pending at b")
        << QStringLiteral("UPDATE workqueue SET stage = 'b', status = 'pending' WHERE workqueue_id = 1")
        << QStringLiteral("pending") << QStringLiteral("b");
    QTest::newRow("advanced and already claimed at b") << QStringLiteral(
        "UPDATE workqueue SET stage = 'b', status = 'running', claims = claims + 1 WHERE workqueue_id = 1")
                                                       << QStringLiteral("running") << QStringLiteral("b");
    QTest::newRow("done") << QStringLiteral("UPDATE workqueue SET status = 'done' WHERE workqueue_id = 1")
                          << QStringLiteral("done") << QStringLiteral("a");
    QTest::newRow("fused: running at b under the same claim")
        << QStringLiteral("UPDATE workqueue SET stage = 'b' WHERE workqueue_id = 1") << QStringLiteral("failed")
        << QStringLiteral("b");
}

void TestQueueSettle::settleIsGuarded()
{
    QFETCH(QString, stageWrite);
    QFETCH(QString, expectedStatus);
    QFETCH(QString, expectedStage);
    QVERIFY(m_db->exec(
        QStringLiteral("INSERT INTO workqueue (workqueue_id, stage) OVERRIDING SYSTEM VALUE VALUES (1,'a')")));
    QVERIFY(openStore());
    const auto round = m_store->claimRound({{QStringLiteral("a"), 1}});
    QVERIFY(round && round->claimed.size() == 1);
    if (!stageWrite.isEmpty())
        QVERIFY(m_db->exec(stageWrite));

    const Ticket ticket = round->claimed.first().ticket;
    const auto changed =
        m_store->settle({Settlement{ticket, Settlement::Outcome::Fail, QStringLiteral("crashed: signal 9"), 0}});
    QVERIFY2(changed, qPrintable(m_store->lastError()));
    QCOMPARE(*changed, expectedStatus == u"failed" ? 1 : 0);
    QSqlQuery row(m_db->db());
    QVERIFY(row.exec(QStringLiteral("SELECT status::text, stage, state->>'dispatch_error' FROM workqueue")));
    QVERIFY(row.next());
    QCOMPARE(row.value(0).toString(), expectedStatus);
    QCOMPARE(row.value(1).toString(), expectedStage);
    QCOMPARE(row.value(2).toString(), expectedStatus == u"failed" ? QStringLiteral("crashed: signal 9") : QString());
}

void TestQueueSettle::settleWritesEveryOutcome()
{
    QVERIFY(
        m_db->exec(QStringLiteral("INSERT INTO workqueue (workqueue_id, stage, state) OVERRIDING SYSTEM VALUE VALUES "
                                  "(1,'a','{}'),(2,'a','{}'),(3,'a','{\"keep\": 1}'),(4,'a','{}')")));
    QVERIFY(openStore());
    const auto round = m_store->claimRound({{QStringLiteral("a"), 4}});
    QVERIFY(round && round->claimed.size() == 4);
    const auto t = [&](int i) { return round->claimed.at(i).ticket; };
    const QString quote = QStringLiteral("status 3: \"quoted\", back\\slash, {braces}, ünïcode");
    const auto changed = m_store->settle({
        {t(0), Settlement::Outcome::Requeue, {}, 0},
        {t(1), Settlement::Outcome::Fail, quote, 0},
        {t(2), Settlement::Outcome::Timeout, QStringLiteral("timeout after 300 s"), 0},
        {t(3), Settlement::Outcome::Pause, QStringLiteral("status 75: later"), 30000},
    });
    QVERIFY2(changed, qPrintable(m_store->lastError()));
    QCOMPARE(*changed, 4);
    QSqlQuery rows(m_db->db());
    QVERIFY(rows.exec(QStringLiteral("SELECT status::text, state->>'dispatch_error', state->>'keep', "
                                     "extract(epoch FROM timeout - now())::int FROM workqueue ORDER BY 1")));
    QVERIFY(rows.next());
    QCOMPARE(rows.value(0).toString(), QStringLiteral("failed"));
    QCOMPARE(rows.value(1).toString(), quote);
    QVERIFY(rows.next());
    QCOMPARE(rows.value(0).toString(), QStringLiteral("paused"));
    QCOMPARE(rows.value(1).toString(), QStringLiteral("status 75: later"));
    QVERIFY(qAbs(rows.value(3).toInt() - 30) <= 1);
    QVERIFY(rows.next());
    QCOMPARE(rows.value(0).toString(), QStringLiteral("pending"));
    QVERIFY(rows.isNull(1));
    QVERIFY(rows.next());
    QCOMPARE(rows.value(0).toString(), QStringLiteral("timeout"));
    QCOMPARE(rows.value(1).toString(), QStringLiteral("timeout after 300 s"));
    QCOMPARE(rows.value(2).toString(), QStringLiteral("1")); // the stage's own state is kept
}

// One entry the server refuses (a NUL byte reached a reason) must
// not keep the others, nor any later batch, from being written.
void TestQueueSettle::settleSplitsARefusedBatch()
{
    QVERIFY(m_db->exec(QStringLiteral("INSERT INTO workqueue (workqueue_id, stage) OVERRIDING SYSTEM VALUE VALUES "
                                      "(1,'a'),(2,'a'),(3,'a'),(4,'a'),(5,'a'),(6,'a'),(7,'a')")));
    QVERIFY(openStore());
    const auto round = m_store->claimRound({{QStringLiteral("a"), 7}});
    QVERIFY(round && round->claimed.size() == 7);
    const auto t = [&](int i) { return round->claimed.at(i).ticket; };
    const QString refused = QStringLiteral("status 3: bad") + QChar(0) + QStringLiteral("reason");
    const auto changed = m_store->settle({
        {t(0), Settlement::Outcome::Fail, QStringLiteral("status 3: one"), 0},
        {t(1), Settlement::Outcome::Requeue, {}, 0},
        {t(2), Settlement::Outcome::Fail, refused, 0},
        {t(3), Settlement::Outcome::Timeout, QStringLiteral("timeout after 1 s"), 0},
        {t(4), Settlement::Outcome::Fail, QStringLiteral("status 4: five"), 0},
    });
    QVERIFY2(changed, qPrintable(m_store->lastError()));
    QCOMPARE(*changed, 5);
    const auto statusOf = [&](int id) {
        QSqlQuery query(m_db->db());
        if (!query.exec(QStringLiteral("SELECT status::text || ' ' || coalesce(state->>'dispatch_error', '-') "
                                       "FROM workqueue WHERE workqueue_id = %1")
                            .arg(id))
            || !query.next())
            return QString();
        return query.value(0).toString();
    };
    QCOMPARE(statusOf(1), QStringLiteral("failed status 3: one"));
    QCOMPARE(statusOf(2), QStringLiteral("pending -"));
    QCOMPARE(statusOf(3), QStringLiteral("failed the dispatcher could not store the reason of this outcome"));
    QCOMPARE(statusOf(4), QStringLiteral("timeout timeout after 1 s"));
    QCOMPARE(statusOf(5), QStringLiteral("failed status 4: five"));

    // The next batch goes through as one statement again.
    const auto next = m_store->settle({{t(5), Settlement::Outcome::Fail, QStringLiteral("status 2: six"), 0},
                                       {t(6), Settlement::Outcome::Requeue, {}, 0}});
    QVERIFY2(next, qPrintable(m_store->lastError()));
    QCOMPARE(*next, 2);
    QCOMPARE(statusOf(6), QStringLiteral("failed status 2: six"));
    QCOMPARE(statusOf(7), QStringLiteral("pending -"));
}

void TestQueueSettle::resetOrphans()
{
    QVERIFY(m_db->exec(QStringLiteral("INSERT INTO workqueue (stage, status) VALUES ('a','running'),('b','running'),"
                                      "('a','done'),('a','paused')")));
    QVERIFY(openStore());
    // At start nothing is held: every running row goes back.
    const auto reset = m_store->resetOrphansExcept({});
    QVERIFY(reset);
    QCOMPARE(*reset, 2);
    QCOMPARE(m_db->scalar(QStringLiteral("SELECT count(*) FROM workqueue WHERE status = 'pending'")), 2);
}

void TestQueueSettle::resetOrphansKeepsWhatWorkersHold()
{
    QVERIFY(m_db->exec(QStringLiteral("INSERT INTO workqueue (workqueue_id, stage, status) OVERRIDING SYSTEM VALUE "
                                      "VALUES (1,'a','running'),(2,'b','running'),(3,'a','running'),(4,'a','done')")));
    QVERIFY(openStore());
    // GIVEN workers hold 1 and 3 WHEN the session comes back THEN only 2 is an orphan
    const auto reset = m_store->resetOrphansExcept({1, 3});
    QVERIFY2(reset, qPrintable(m_store->lastError()));
    QCOMPARE(*reset, 1);
    QCOMPARE(m_db->scalar(
                 QStringLiteral("SELECT count(*) FROM workqueue WHERE status = 'running' AND workqueue_id IN (1, 3)")),
             2);
    QCOMPARE(
        m_db->scalar(QStringLiteral("SELECT count(*) FROM workqueue WHERE status = 'pending' AND workqueue_id = 2")),
        1);
    QCOMPARE(m_db->scalar(QStringLiteral("SELECT count(*) FROM workqueue WHERE status = 'done'")), 1);
    // Holding nothing resets every running row.
    const auto all = m_store->resetOrphansExcept({});
    QVERIFY(all);
    QCOMPARE(*all, 2);
}

QTEST_GUILESS_MAIN(TestQueueSettle)
#include "tst_queuesettle.moc"
