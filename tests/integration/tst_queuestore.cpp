// SPDX-License-Identifier: AGPL-3.0-or-later
// QueueStore against a real PostgreSQL: the claim round (caps, order, token,
// paused rows, plan; the guarded writes after it: tst_queuesettle).
#include "queuestoretest.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTest>

using namespace pepsi;

namespace {

// The claim's plan on the named connection. EXPLAIN cannot be PREPAREd
// (which is how QPSQL binds), so prepare the claim by hand and explain its
// execution with the same literals Qt sends.
QString explainClaim(const QString &connectionName, const QList<StageDemand> &demands)
{
    const auto literal = [](const QByteArray &value) -> QString {
        return u'\'' + QString::fromUtf8(value).replace(u'\'', QStringLiteral("''")) + u'\'';
    };
    const QList<QByteArray> values = claimValues(demands);
    QString sql = ClaimRoundSql;
    sql.replace(QStringLiteral(":stages"), QStringLiteral("$1"))
        .replace(QStringLiteral(":caps"), QStringLiteral("$2"))
        .replace(QStringLiteral(":floors"), QStringLiteral("$3"));

    QSqlQuery query(QSqlDatabase::database(connectionName, false));
    QString plan;
    if (!query.exec(QStringLiteral("PREPARE pepsi_explain_claim (text[], integer[], bigint[]) AS ") + sql)
        || !query.exec(QStringLiteral("EXPLAIN (COSTS OFF) EXECUTE pepsi_explain_claim (%1, %2, %3)")
                           .arg(literal(values[0]), literal(values[1]), literal(values[2])))) {
        plan = query.lastError().text();
    } else {
        while (query.next())
            plan += query.value(0).toString() + u'\n';
    }
    query.exec(QStringLiteral("DEALLOCATE pepsi_explain_claim"));
    return plan;
}

} // namespace

class TestQueueStore : public QueueStoreTest
{
    Q_OBJECT

private Q_SLOTS:
    void claimTakesOldestPendingUpToEachCap();
    void claimResumesDuePausedRowsAndReportsTheNext();
    void claimPlanUsesThePartialIndex_data();
    void claimPlanUsesThePartialIndex();
    void claimIsPlannedOnce();
    void claimWalksFromEachStageFloor();
    void claimSaysWhereTheNextWalkStarts();
    void resumedRowsNameTheirStage();

private:
    static QList<qint64> ids(const ClaimRound &round, const QString &stage)
    {
        QList<qint64> result;
        for (const ClaimedMessage &m : round.claimed) {
            if (m.stage == stage)
                result << m.ticket.id;
        }
        return result;
    }
};

void TestQueueStore::claimTakesOldestPendingUpToEachCap()
{
    QVERIFY(m_db->exec(QStringLiteral("INSERT INTO workqueue (workqueue_id, stage, status) OVERRIDING SYSTEM VALUE "
                                      "VALUES (1,'a','pending'),(2,'b','pending'),(3,'a','done'),(4,'a','pending'),"
                                      "(5,'a','pending'),(6,'b','pending'),(7,'c','pending'),(8,'a','running')")));
    QVERIFY(openStore());

    // GIVEN caps a:2, b:5 and no demand for c
    const auto round = m_store->claimRound({{QStringLiteral("a"), 2}, {QStringLiteral("b"), 5}});
    QVERIFY2(round, qPrintable(m_store->lastError()));
    // THEN a gets its two oldest pending rows, b both of its, c nothing
    QCOMPARE(ids(*round, QStringLiteral("a")), (QList<qint64>{1, 4}));
    QCOMPARE(ids(*round, QStringLiteral("b")), (QList<qint64>{2, 6}));
    QCOMPARE(round->claimed.size(), 4);
    QCOMPARE(m_db->scalar(QStringLiteral("SELECT count(*) FROM workqueue WHERE status = 'running'")), 5);
    QCOMPARE(m_db->scalar(QStringLiteral("SELECT status = 'pending' FROM workqueue WHERE workqueue_id = 7")), 1);
    // AND every claim carries the new token
    for (const ClaimedMessage &m : round->claimed)
        QCOMPARE(m.ticket.claim, 1);

    // WHEN the next round asks for more of a, it gets what is left
    const auto next = m_store->claimRound({{QStringLiteral("a"), 10}});
    QVERIFY(next);
    QCOMPARE(ids(*next, QStringLiteral("a")), (QList<qint64>{5}));
    QVERIFY(!next->nextPausedInMs);
}

void TestQueueStore::claimResumesDuePausedRowsAndReportsTheNext()
{
    QVERIFY(m_db->exec(
        QStringLiteral("INSERT INTO workqueue (workqueue_id, stage, status, timeout) OVERRIDING SYSTEM VALUE VALUES "
                       "(1,'a','paused', now() - interval '1 s'), (2,'a','paused', NULL),"
                       "(3,'a','paused', now() + interval '5 s'), (4,'a','paused', now() + interval '1 h')")));
    QVERIFY(openStore());

    const auto round = m_store->claimRound({{QStringLiteral("a"), 10}});
    QVERIFY(round);
    // Resumed rows become claimable from the next round on.
    QCOMPARE(round->resumed, 2);
    QVERIFY(round->claimed.isEmpty());
    QVERIFY(round->nextPausedInMs);
    QVERIFY2(*round->nextPausedInMs > 4000 && *round->nextPausedInMs <= 5000,
             qPrintable(QString::number(*round->nextPausedInMs)));

    const auto next = m_store->claimRound({{QStringLiteral("a"), 10}});
    QVERIFY(next);
    QCOMPARE(ids(*next, QStringLiteral("a")), (QList<qint64>{1, 2}));
}

void TestQueueStore::claimPlanUsesThePartialIndex_data()
{
    QTest::addColumn<int>("pending");
    QTest::addColumn<int>("done");
    QTest::addColumn<bool>("staleStatistics"); // analyzed while the finished rows were still pending
    QTest::newRow("1,000 pending") << 1000 << 0 << false;
    QTest::newRow("200,000 pending") << 200000 << 0 << false;
    QTest::newRow("1,000 pending behind 200,000 done") << 1000 << 200000 << false;
    QTest::newRow("1,000 pending behind 200,000 done, stale statistics") << 1000 << 200000 << true;
}

void TestQueueStore::claimPlanUsesThePartialIndex()
{
    QFETCH(int, pending);
    QFETCH(int, done);
    QFETCH(bool, staleStatistics);
    QVERIFY(m_db->exec(QStringLiteral("INSERT INTO workqueue (stage, status) SELECT (ARRAY['a','b'])[1 + i % 2], '%2' "
                                      "FROM generate_series(1, %1) i")
                           .arg(done)
                           .arg(staleStatistics ? QStringLiteral("pending") : QStringLiteral("done"))));
    QVERIFY(m_db->exec(QStringLiteral("INSERT INTO workqueue (stage) SELECT (ARRAY['a','b'])[1 + i % 2] "
                                      "FROM generate_series(1, %1) i")
                           .arg(pending)));
    QVERIFY(m_db->exec(QStringLiteral("ANALYZE workqueue")));
    if (staleStatistics) // the burst finishes after the statistics were taken
        QVERIFY(m_db->exec(QStringLiteral("UPDATE workqueue SET status = 'done' WHERE workqueue_id <= %1").arg(done)));
    QVERIFY(openStore());
    const QList<StageDemand> demands{{QStringLiteral("a"), 16}, {QStringLiteral("b"), 16}};
    // On the store's own connection: its session settings shape the plan.
    const QString plan = explainClaim(ConnectionName, demands);
    // The outer update goes through the primary key, never a walk of the pending rows.
    QVERIFY2(plan.contains(QStringLiteral("Index Scan using workqueue_pkey on workqueue w")), qPrintable(plan));
    QVERIFY2(plan.contains(QStringLiteral("Limit")), qPrintable(plan));
    QVERIFY2(!plan.contains(QStringLiteral("Seq Scan")), qPrintable(plan));
    if (done > 0) // pending rows are rare: the per-stage pick must use the partial index
        QVERIFY2(plan.contains(QStringLiteral("using workqueue_pending on workqueue q")), qPrintable(plan));
    const auto round = m_store->claimRound(demands);
    QVERIFY(round);
    QCOMPARE(round->claimed.size(), 32);
}

// Left to choose, the server planned the claim afresh for many rounds (0.7 ms
// each, more than running it); the dispatcher's session asks for the generic
// plan, which claimPlanUsesThePartialIndex checks.
void TestQueueStore::claimIsPlannedOnce()
{
    QVERIFY(m_db->exec(QStringLiteral("INSERT INTO workqueue (stage) SELECT 'a' FROM generate_series(1, 100)")));
    QVERIFY(openStore());
    for (int round = 0; round < 10; ++round) {
        const auto claimed = m_store->claimRound({{QStringLiteral("a"), 2}, {QStringLiteral("b"), 2}});
        QVERIFY(claimed);
        QCOMPARE(claimed->claimed.size(), 2);
    }
    QSqlQuery plans(QSqlDatabase::database(ConnectionName, false));
    QVERIFY(plans.exec(QStringLiteral("SELECT generic_plans, custom_plans FROM pg_prepared_statements "
                                      "WHERE statement LIKE '%claims = w.claims + 1%'")));
    QVERIFY(plans.next());
    QCOMPARE(plans.value(0).toInt(), 10);
    QCOMPARE(plans.value(1).toInt(), 0);
}

// A stage is walked from its floor: rows below it are not looked at (the
// dispatcher keeps the floor below every row it knows to be pending).
void TestQueueStore::claimWalksFromEachStageFloor()
{
    QVERIFY(m_db->exec(QStringLiteral("INSERT INTO workqueue (stage) SELECT (ARRAY['a','b'])[1 + i % 2] "
                                      "FROM generate_series(1, 12) i")));
    QVERIFY(openStore());
    // GIVEN a's floor at 6 and b's at 0 (a's ids are the even ones, b's the odd)
    const auto round = m_store->claimRound({{QStringLiteral("a"), 10, 6}, {QStringLiteral("b"), 2, 0}});
    QVERIFY2(round, qPrintable(m_store->lastError()));
    QCOMPARE(ids(*round, QStringLiteral("a")), (QList<qint64>{6, 8, 10, 12}));
    QCOMPARE(ids(*round, QStringLiteral("b")), (QList<qint64>{1, 3}));
    // WHEN a is walked from the start THEN it gets what lay below its floor
    const auto next = m_store->claimRound({{QStringLiteral("a"), 10, 0}});
    QVERIFY(next);
    QCOMPARE(ids(*next, QStringLiteral("a")), (QList<qint64>{2, 4}));
}

// Per stage asked for: the lowest pending id from the floor the round left,
// past its cap or locked by another session, so the floor never passes it.
void TestQueueStore::claimSaysWhereTheNextWalkStarts()
{
    QVERIFY(m_db->exec(QStringLiteral("INSERT INTO workqueue (stage) SELECT 'a' FROM generate_series(1, 5)")));
    QVERIFY(m_db->exec(QStringLiteral("INSERT INTO workqueue (stage) SELECT 'b' FROM generate_series(1, 2)")));
    QVERIFY(openStore());
    QSqlDatabase locker = m_db->newConnection(QStringLiteral("locker"));
    QVERIFY(locker.transaction());
    QSqlQuery lock(locker);
    QVERIFY(lock.exec(QStringLiteral("SELECT 1 FROM workqueue WHERE workqueue_id = 2 FOR UPDATE")) && lock.next());

    // GIVEN 2 locked, a capped at 2 WHEN claimed THEN 1 and 3, and 2 is where a's walk starts next
    const auto round =
        m_store->claimRound({{QStringLiteral("a"), 2}, {QStringLiteral("b"), 5}, {QStringLiteral("c"), 1}});
    QVERIFY2(round, qPrintable(m_store->lastError()));
    QCOMPARE(ids(*round, QStringLiteral("a")), (QList<qint64>{1, 3}));
    QCOMPARE(round->unclaimedFrom.value(QStringLiteral("a"), -1), 2);
    // b got everything, c had nothing: neither has a row left
    QCOMPARE(ids(*round, QStringLiteral("b")), (QList<qint64>{6, 7}));
    QVERIFY(!round->unclaimedFrom.contains(QStringLiteral("b")));
    QVERIFY(!round->unclaimedFrom.contains(QStringLiteral("c")));
    // a got its cap: nothing counts as skipped
    QCOMPARE(round->skippedLocked, 0);

    // WHEN a asks for more than is left THEN 4 and 5; 2 is still left, and counted as skipped
    const auto next = m_store->claimRound({{QStringLiteral("a"), 10, 2}});
    QVERIFY(next);
    QCOMPARE(ids(*next, QStringLiteral("a")), (QList<qint64>{4, 5}));
    QCOMPARE(next->unclaimedFrom.value(QStringLiteral("a"), -1), 2);
    QCOMPARE(next->skippedLocked, 1);

    // Once the lock goes, the walk from 2 takes it.
    QVERIFY(locker.rollback());
    const auto last = m_store->claimRound({{QStringLiteral("a"), 10, 2}});
    QVERIFY(last);
    QCOMPARE(ids(*last, QStringLiteral("a")), (QList<qint64>{2}));
    QVERIFY(last->unclaimedFrom.isEmpty());
    QCOMPARE(last->skippedLocked, 0);
}

// Paused rows resumed by a round: the lowest id per stage, so that the
// floors go below them before the next round claims them.
void TestQueueStore::resumedRowsNameTheirStage()
{
    QVERIFY(m_db->exec(
        QStringLiteral("INSERT INTO workqueue (workqueue_id, stage, status, timeout) OVERRIDING SYSTEM VALUE VALUES "
                       "(3,'a','paused', now() - interval '1 s'), (9,'a','paused', NULL),"
                       "(5,'b','paused', now() - interval '1 s'), (7,'b','paused', now() + interval '1 h')")));
    QVERIFY(openStore());
    const auto round = m_store->claimRound({{QStringLiteral("a"), 10, 100}});
    QVERIFY(round);
    QCOMPARE(round->resumed, 3);
    QCOMPARE(round->resumedFrom.value(QStringLiteral("a")), 3);
    QCOMPARE(round->resumedFrom.value(QStringLiteral("b")), 5);
    QCOMPARE(round->resumedFrom.size(), 2);
}

QTEST_GUILESS_MAIN(TestQueueStore)
#include "tst_queuestore.moc"
