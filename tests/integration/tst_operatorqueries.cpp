// SPDX-License-Identifier: AGPL-3.0-or-later
// The operator's queries (queue counts, requeue) against a real PostgreSQL:
// on a table with a long history they read indexes only, and they run on a
// connection and thread of their own, so the caller's event loop (the
// dispatcher's) goes on while one waits.
#include "storage/controlstore.h"
#include "storage/dispatcherconnection.h"
#include "storage/operatorthread.h"
#include "testdatabase.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTest>
#include <QTimer>
#include <memory>

using namespace pepsi;
using namespace Qt::StringLiterals;

class tst_OperatorQueries : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void countsReadNoHistory();
    void answersWhileTheCallerRuns();
    void requeueMovesTheRowsItNames();
};

// A million done rows (a week of history) beside the open ones: the counts
// are right and their plan touches no done row.
void tst_OperatorQueries::countsReadNoHistory()
{
    PEPSI_REQUIRE_DATABASE(tdb);
    QVERIFY(
        tdb.exec(u"INSERT INTO workqueue (stage, status) SELECT 'deliver', 'done' FROM generate_series(1, 1000000)"_s));
    QVERIFY(tdb.exec(u"INSERT INTO workqueue (stage, status, state) SELECT CASE WHEN g % 4 = 0 THEN 'a' ELSE 'b' END, "
                     "'failed', '{\"dispatch_error\": \"status 3: bad\"}' FROM generate_series(1, 20000) g"_s));
    QVERIFY(tdb.exec(u"INSERT INTO workqueue (stage, status) SELECT 'a', 'timeout' FROM generate_series(1, 300)"_s));
    QVERIFY(tdb.exec(u"INSERT INTO workqueue (stage, status) SELECT 'a', 'pending' FROM generate_series(1, 50)"_s));
    QVERIFY(tdb.exec(u"INSERT INTO workqueue (stage, status, timeout) "
                     "SELECT 'b', 'paused', now() + interval '1 h' FROM generate_series(1, 5)"_s));
    QVERIFY(tdb.exec(u"VACUUM ANALYZE workqueue"_s));

    // The plan: the partial indexes, never a scan of workqueue's heap.
    SessionLimits limits;
    const QString name = u"tst-explain"_s;
    QVERIFY(openDispatcherConnection(name, tdb.uri(), u"tst"_s, limits));
    QString plan;
    {
        QSqlQuery explain(QSqlDatabase::database(name, false));
        if (!explain.exec(u"EXPLAIN (COSTS OFF) "_s + QueueCountsSql))
            plan = explain.lastError().text();
        while (explain.next())
            plan += explain.value(0).toString() + u'\n';
    }
    QSqlDatabase::removeDatabase(name);
    QVERIFY2(!plan.contains(u"Seq Scan"_s), qPrintable(plan));
    QVERIFY2(plan.contains(u"workqueue_failed"_s), qPrintable(plan));
    QVERIFY2(plan.contains(u"workqueue_pending"_s), qPrintable(plan));

    OperatorThread operatorThread(tdb.uri(), u"tst"_s, limits);
    std::optional<Result<QueueCounts, QString>> counts;
    operatorThread.queueCounts(this, [&counts](Result<QueueCounts, QString> answer) { counts = std::move(answer); });
    QTRY_VERIFY_WITH_TIMEOUT(counts.has_value(), 20000);
    QVERIFY2(counts->ok(), qPrintable(counts->ok() ? QString() : counts->error()));
    const auto &stages = counts->value().stages;
    QCOMPARE(stages.value(u"a"_s).failed, 5000);
    QCOMPARE(stages.value(u"b"_s).failed, 15000);
    QCOMPARE(stages.value(u"a"_s).timeout, 300);
    QCOMPARE(stages.value(u"a"_s).pending, 50);
    QCOMPARE(stages.value(u"b"_s).paused, 5);
    QVERIFY(stages.value(u"a"_s).oldestPendingAgeMs.has_value());
    // Done rows are never counted: the stage that has only those does not appear.
    QVERIFY(!stages.contains(u"deliver"_s));
}

// A count that waits for a lock keeps the operator thread busy, not the
// caller; an asker that is gone by the time the answer comes gets nothing.
void tst_OperatorQueries::answersWhileTheCallerRuns()
{
    PEPSI_REQUIRE_DATABASE(tdb);
    QVERIFY(tdb.exec(u"INSERT INTO workqueue (stage, status) VALUES ('a', 'failed'), ('a', 'pending')"_s));
    QSqlDatabase holder = tdb.newConnection(u"holder"_s);
    QSqlQuery hold(holder);
    QVERIFY(hold.exec(u"BEGIN"_s));
    QVERIFY(hold.exec(u"LOCK TABLE workqueue IN ACCESS EXCLUSIVE MODE"_s));

    SessionLimits limits;
    limits.lockTimeout = std::chrono::seconds(60);
    limits.statementTimeout = std::chrono::seconds(60);
    OperatorThread operatorThread(tdb.uri(), u"tst"_s, limits);
    std::optional<Result<QueueCounts, QString>> counts;
    operatorThread.queueCounts(this, [&counts](Result<QueueCounts, QString> answer) { counts = std::move(answer); });
    auto goneAsker = std::make_unique<QObject>();
    bool goneAnswered = false;
    operatorThread.queueCounts(goneAsker.get(),
                               [&goneAnswered](const Result<QueueCounts, QString> &) { goneAnswered = true; });

    // The operator's session waits for the lock ...
    const QString waiting = u"SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation "
                            "WHERE c.relname = 'workqueue' AND NOT l.granted"_s;
    QTRY_COMPARE_WITH_TIMEOUT(tdb.scalar(waiting), 1, 10000);
    // ... while this thread's event loop runs timers.
    int ticks = 0;
    QTimer ticker;
    connect(&ticker, &QTimer::timeout, this, [&ticks] { ++ticks; });
    ticker.start(10);
    QTRY_VERIFY(ticks >= 5);
    QVERIFY(!counts.has_value());

    goneAsker.reset();
    QVERIFY(hold.exec(u"ROLLBACK"_s));
    QTRY_VERIFY_WITH_TIMEOUT(counts.has_value(), 10000);
    QVERIFY2(counts->ok(), qPrintable(counts->ok() ? QString() : counts->error()));
    QCOMPARE(counts->value().stages.value(u"a"_s).failed, 1);
    // The second count has run too (jobs run in order): its answer was dropped.
    std::optional<Result<QueueCounts, QString>> fence;
    operatorThread.queueCounts(this, [&fence](Result<QueueCounts, QString> answer) { fence = std::move(answer); });
    QTRY_VERIFY(fence.has_value());
    QVERIFY(!goneAnswered);
}

void tst_OperatorQueries::requeueMovesTheRowsItNames()
{
    PEPSI_REQUIRE_DATABASE(tdb);
    QVERIFY(tdb.exec(u"INSERT INTO workqueue (workqueue_id, stage, status, state) OVERRIDING SYSTEM VALUE VALUES "
                     "(1, 'a', 'failed', '{\"dispatch_error\": \"x\"}'), (2, 'a', 'failed', '{}'), "
                     "(3, 'a', 'timeout', '{}'), (4, 'b', 'failed', '{}')"_s));
    OperatorThread operatorThread(tdb.uri(), u"tst"_s, SessionLimits{});
    RequeueRequest request;
    request.stage = u"a"_s;
    request.status = u"failed"_s;
    request.ids = {1, 3, 4};
    std::optional<Result<RequeueOutcome, QString>> outcome;
    operatorThread.requeue(request, this, [&outcome](Result<RequeueOutcome, QString> answer) { outcome = answer; });
    QTRY_VERIFY(outcome.has_value());
    QVERIFY2(outcome->ok(), qPrintable(outcome->ok() ? QString() : outcome->error()));
    QCOMPARE(outcome->value().requeued, 1);
    QCOMPARE(tdb.scalar(u"SELECT (string_agg(workqueue_id || ':' || status, ' ' ORDER BY workqueue_id)::text = "
                        "'1:pending 2:failed 3:timeout 4:failed')::int FROM workqueue"_s),
             1);
    QCOMPARE(tdb.scalar(u"SELECT count(*) FROM workqueue WHERE state ? 'dispatch_error'"_s), 0);
}

QTEST_GUILESS_MAIN(tst_OperatorQueries)
#include "tst_operatorqueries.moc"
