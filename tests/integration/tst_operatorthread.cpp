// SPDX-License-Identifier: AGPL-3.0-or-later
// How the operator's queries run against a real PostgreSQL: on a table with
// a long history they read indexes only, and they run on a connection and
// thread of their own, so the caller's event loop (the dispatcher's) goes on
// while one waits (what they read and write: tst_operatorqueries).
#include "operatorjobs.h"
#include "storage/controlstore.h"
#include "storage/dispatcherconnection.h"
#include "storage/messagestore.h"
#include "storage/operatorthread.h"
#include "testdatabase.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTest>
#include <QTimer>
#include <algorithm>
#include <memory>

using namespace pepsi;
using namespace Qt::StringLiterals;

namespace {

// EXPLAIN (COSTS OFF) of `sql` on a dispatcher connection of its own: the plan's text.
QString planOf(const QString &uri, const QString &sql)
{
    const QString name = u"tst-explain"_s;
    QString plan;
    {
        auto db = openDispatcherConnection(name, uri, u"tst"_s, SessionLimits{});
        if (!db)
            return db.error();
        QSqlQuery explain(QSqlDatabase::database(name, false));
        if (!explain.exec(u"EXPLAIN (COSTS OFF) "_s + sql))
            plan = explain.lastError().text();
        while (explain.next())
            plan += explain.value(0).toString() + u'\n';
    }
    QSqlDatabase::removeDatabase(name);
    return plan;
}

} // namespace

class tst_OperatorThread : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void countsReadNoHistory();
    void answersWhileTheCallerRuns();
};

// A million done rows (a week of history) beside the open ones: the counts
// are right and their plan touches no done row.
void tst_OperatorThread::countsReadNoHistory()
{
    PEPSI_REQUIRE_DATABASE(tdb);
    QVERIFY(
        tdb.exec(u"INSERT INTO workqueue (stage, status) SELECT 'deliver', 'done' FROM generate_series(1, 1000000)"_s));
    QVERIFY(tdb.exec(u"INSERT INTO workqueue (stage, status, state) SELECT CASE WHEN g % 4 = 0 THEN 'a' ELSE 'b' END, "
                     "'failed', '{\"dispatch_error\": \"status 3: bad\"}' FROM generate_series(1, 20000) g"_s));
    QVERIFY(tdb.exec(u"INSERT INTO workqueue (stage, status) SELECT 'a', 'timeout' FROM generate_series(1, 300)"_s));
    QVERIFY(tdb.exec(u"INSERT INTO workqueue (stage, status) SELECT 'a', 'pending' FROM generate_series(1, 50)"_s));
    QVERIFY(tdb.exec(u"INSERT INTO workqueue (stage, status, created) "
                     "SELECT 'b', 'pending', now() - interval '2 h' FROM generate_series(1, 4)"_s));
    QVERIFY(tdb.exec(
        u"INSERT INTO workqueue (stage, status, claims) SELECT 'a', 'running', 1 FROM generate_series(1, 30)"_s));
    QVERIFY(tdb.exec(u"INSERT INTO workqueue (stage, status, timeout) "
                     "SELECT 'b', 'paused', now() + interval '1 h' FROM generate_series(1, 5)"_s));
    QVERIFY(tdb.exec(u"VACUUM ANALYZE workqueue"_s));

    // Pending rows by how long they have waited at their stage (`updated`):
    // 5 written by a host whose clock is ahead (the youngest bucket), then
    // 10 of 5 s, 15 of 30 s, 10 of 5 min, 5 of 30 min, 5 of 2 h. Stage b's
    // rows were created 2 h ago but became pending there 30 s ago.
    const QString someOfA = u"UPDATE workqueue SET updated = now() - interval '%1' WHERE workqueue_id IN "
                            "(SELECT workqueue_id FROM workqueue WHERE stage = 'a' AND status = 'pending' "
                            "ORDER BY workqueue_id LIMIT %2 OFFSET %3)"_s;
    QVERIFY(tdb.exec(someOfA.arg(u"-1 hour"_s).arg(5).arg(0)));
    QVERIFY(tdb.exec(someOfA.arg(u"5 s"_s).arg(10).arg(5)));
    QVERIFY(tdb.exec(someOfA.arg(u"30 s"_s).arg(15).arg(15)));
    QVERIFY(tdb.exec(someOfA.arg(u"5 min"_s).arg(10).arg(30)));
    QVERIFY(tdb.exec(someOfA.arg(u"30 min"_s).arg(5).arg(40)));
    QVERIFY(tdb.exec(someOfA.arg(u"2 h"_s).arg(5).arg(45)));
    QVERIFY(
        tdb.exec(u"UPDATE workqueue SET updated = now() - interval '30 s' WHERE stage = 'b' AND status = 'pending'"_s));

    // The plan: the partial indexes, never a scan of workqueue's heap.
    SessionLimits limits;
    const QString plan = planOf(tdb.uri(), QueueCountsSql);
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
    QCOMPARE(stages.value(u"a"_s).pendingAges, (std::array<qint64, 6>{5, 10, 15, 10, 5, 5}));
    QCOMPARE(stages.value(u"b"_s).pendingAges, (std::array<qint64, 6>{0, 0, 4, 0, 0, 0}));
    const qint64 oldestA = stages.value(u"a"_s).oldestPendingAgeMs.value_or(-1);
    QVERIFY2(oldestA >= 7'200'000 && oldestA < 7'260'000, qPrintable(QString::number(oldestA)));
    const qint64 oldestB = stages.value(u"b"_s).oldestPendingAgeMs.value_or(-1);
    QVERIFY2(oldestB >= 30'000 && oldestB < 90'000, qPrintable(QString::number(oldestB)));
    // Done rows are never counted: the stage that has only those does not appear.
    QVERIFY(!stages.contains(u"deliver"_s));

    // Each status of `messages` pages through an index of its own, never the history.
    const QMap<QString, QString> indexOf{{u"pending"_s, u"workqueue_pending"_s},
                                         {u"running"_s, u"workqueue_running"_s},
                                         {u"paused"_s, u"workqueue_paused"_s},
                                         {u"failed"_s, u"workqueue_failed"_s},
                                         {u"timeout"_s, u"workqueue_failed"_s}};
    QCOMPARE(indexOf.keys(), [] {
        auto s = MessageStore::listableStatuses();
        s.sort();
        return s;
    }());
    // So do the reason counts and the pages of one reason or of the last
    // minutes (`messages` with "reasons", "reason", "max_age_ms").
    using Filters = MessageStore::Filters;
    const QList<Filters> allFilters{Filters(), Filters(MessageStore::ByReason), Filters(MessageStore::ByAge),
                                    MessageStore::ByReason | MessageStore::ByAge};
    for (auto it = indexOf.cbegin(); it != indexOf.cend(); ++it) {
        for (const Filters filters : allFilters) {
            for (const bool reasons : {false, true}) {
                const QString sql = (reasons ? MessageStore::reasonsSql(it.key(), filters)
                                             : MessageStore::messagesSql(it.key(), filters))
                                        .replace(u":stage"_s, u"'a'"_s)
                                        .replace(u":after"_s, u"0"_s)
                                        .replace(u":limit"_s, u"101"_s)
                                        .replace(u":reason"_s, u"'status 3: bad'"_s)
                                        .replace(u":maxage"_s, u"60000"_s);
                const QString what = u"%1 (filters %2, reasons %3):\n"_s.arg(it.key()).arg(int(filters)).arg(reasons);
                const QString messagesPlan = planOf(tdb.uri(), sql);
                QVERIFY2(!messagesPlan.contains(u"Seq Scan"_s), qPrintable(what + messagesPlan));
                QVERIFY2(messagesPlan.contains(it.value()), qPrintable(what + messagesPlan));
                QVERIFY2(!messagesPlan.contains(u"workqueue_pkey"_s), qPrintable(what + messagesPlan));
            }
        }
    }

    // Paging a's 300 timeout rows by 128: every row once, in id order, and the end said.
    QList<qint64> seen;
    MessagesRequest request = pageOf(u"a"_s, u"timeout"_s, 128);
    QList<int> pageSizes;
    for (int page = 0; page < 10; ++page) {
        const auto answer = await<MessagePage>(
            this, [&](QObject *context, auto done) { operatorThread.messages(request, context, done); });
        QVERIFY2(answer.ok(), qPrintable(answer.ok() ? QString() : answer.error()));
        pageSizes << int(answer->rows.size());
        for (const MessageRow &row : answer->rows) {
            QCOMPARE(row.stage, u"a"_s);
            QCOMPARE(row.status, u"timeout"_s);
            seen << row.id;
        }
        if (!answer->nextAfterId)
            break;
        QCOMPARE(*answer->nextAfterId, seen.last());
        request.afterId = *answer->nextAfterId;
    }
    QCOMPARE(pageSizes, QList<int>({128, 128, 44}));
    QCOMPARE(tdb.scalar(u"SELECT min(workqueue_id) FROM workqueue WHERE status = 'timeout'"_s), seen.first());
    QVERIFY(std::is_sorted(seen.begin(), seen.end()));
    QCOMPARE(QSet<qint64>(seen.begin(), seen.end()).size(), 300);
    // The reason is state.dispatch_error.
    const auto failed = await<MessagePage>(this, [&](QObject *context, auto done) {
        operatorThread.messages(pageOf(u"b"_s, u"failed"_s, 3), context, done);
    });
    QVERIFY(failed.ok());
    QCOMPARE(failed->rows.size(), 3);
    QCOMPARE(failed->rows.first().reason, u"status 3: bad"_s);
}

// A count that waits for a lock keeps the operator thread busy, not the
// caller; an asker that is gone by the time the answer comes gets nothing.
void tst_OperatorThread::answersWhileTheCallerRuns()
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

QTEST_GUILESS_MAIN(tst_OperatorThread)
#include "tst_operatorthread.moc"
