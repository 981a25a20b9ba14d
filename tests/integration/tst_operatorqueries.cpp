// SPDX-License-Identifier: AGPL-3.0-or-later
// The operator's queries (queue counts, requeue) against a real PostgreSQL:
// on a table with a long history they read indexes only, and they run on a
// connection and thread of their own, so the caller's event loop (the
// dispatcher's) goes on while one waits.
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

// Runs one operator job and waits for its answer.
template<typename T, typename Submit>
Result<T, QString> await(QObject *context, Submit submit)
{
    std::optional<Result<T, QString>> answer;
    submit(context, [&answer](Result<T, QString> result) { answer = std::move(result); });
    if (!QTest::qWaitFor([&answer] { return answer.has_value(); }, 20000))
        return QStringLiteral("no answer within 20 s");
    return *answer;
}

// The first page of a stage's rows in a status.
MessagesRequest pageOf(const QString &stage, const QString &status, int limit = 100)
{
    MessagesRequest request;
    request.stage = stage;
    request.status = status;
    request.limit = limit;
    return request;
}

} // namespace

class tst_OperatorQueries : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void countsReadNoHistory();
    void answersWhileTheCallerRuns();
    void requeueMovesTheRowsItNames();
    void messageCutsItsState();
    void reasonsCountTheWholeStatus();
    void setReplacesTheOverlayRow();
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

// `message`: the row, its state whole when it fits in 16 KiB, cut on a
// character boundary with `truncated` when it does not; an unknown id named.
void tst_OperatorQueries::messageCutsItsState()
{
    PEPSI_REQUIRE_DATABASE(tdb);
    // 20,000 three-byte characters: 60 KB of JSON text.
    QVERIFY(tdb.exec(u"INSERT INTO workqueue (workqueue_id, stage, status, claims, state) OVERRIDING SYSTEM VALUE "
                     "VALUES (7, 'a', 'failed', 2, '{\"dispatch_error\": \"status 3: bad\", \"n\": 1}'), "
                     "(8, 'a', 'done', 1, jsonb_build_object('text', repeat('€', 20000)))"_s));
    OperatorThread operatorThread(tdb.uri(), u"tst"_s, SessionLimits{});
    const auto whole =
        await<MessageDetail>(this, [&](QObject *context, auto done) { operatorThread.message(7, context, done); });
    QVERIFY2(whole.ok(), qPrintable(whole.ok() ? QString() : whole.error()));
    QCOMPARE(whole->row.id, 7);
    QCOMPARE(whole->row.status, u"failed"_s);
    QCOMPARE(whole->row.claims, 2);
    QCOMPARE(whole->row.reason, u"status 3: bad"_s);
    QCOMPARE(whole->truncated, false);
    QCOMPARE(QJsonDocument::fromJson(whole->state).object().value(u"n"_s).toInt(), 1);

    const auto cut =
        await<MessageDetail>(this, [&](QObject *context, auto done) { operatorThread.message(8, context, done); });
    QVERIFY(cut.ok());
    QCOMPARE(cut->row.status, u"done"_s);
    QCOMPARE(cut->truncated, true);
    QVERIFY(cut->state.size() <= 16384 && cut->state.size() > 16380);
    QVERIFY(cut->state.startsWith("{\"text\": \""));
    // Whole characters only: it decodes as UTF-8 without a replacement character.
    QVERIFY(!QString::fromUtf8(cut->state).contains(QChar::ReplacementCharacter));

    const auto none =
        await<MessageDetail>(this, [&](QObject *context, auto done) { operatorThread.message(99, context, done); });
    QVERIFY(!none.ok());
    QCOMPARE(none.error(), u"no message with id 99"_s);
}

// `messages` with "reasons": every row of the stage and status counted, the
// most frequent reason first, rows without one as ""; "reason" pages the rows
// of one of them, "max_age_ms" keeps the recent ones, as requeue's does.
void tst_OperatorQueries::reasonsCountTheWholeStatus()
{
    PEPSI_REQUIRE_DATABASE(tdb);
    QVERIFY(tdb.exec(u"INSERT INTO workqueue (stage, status, state, updated) SELECT 'a', 'failed', "
                     "jsonb_build_object('dispatch_error', CASE WHEN g % 3 = 0 THEN 'status 3: bad input' "
                     "ELSE 'status 75: busy' END), now() - g * interval '1 minute' FROM generate_series(1, 900) g"_s));
    QVERIFY(tdb.exec(u"INSERT INTO workqueue (stage, status, updated) "
                     "SELECT 'a', 'failed', now() - interval '2 days' FROM generate_series(1, 7)"_s));
    QVERIFY(tdb.exec(u"INSERT INTO workqueue (stage, status, state) "
                     "SELECT 'b', 'failed', '{\"dispatch_error\": \"other\"}' FROM generate_series(1, 50)"_s));
    OperatorThread operatorThread(tdb.uri(), u"tst"_s, SessionLimits{});
    const auto ask = [&](const MessagesRequest &request) {
        return await<MessagePage>(
            this, [&](QObject *context, auto done) { operatorThread.messages(request, context, done); });
    };
    MessagesRequest request = pageOf(u"a"_s, u"failed"_s);
    request.reasons = true;
    const auto counts = ask(request);
    QVERIFY2(counts.ok(), qPrintable(counts.ok() ? QString() : counts.error()));
    QVERIFY(counts->byReason);
    QVERIFY(counts->rows.isEmpty());
    QCOMPARE(counts->moreReasons, false);
    QCOMPARE(counts->reasons.size(), 3);
    QCOMPARE(counts->reasons.at(0).reason, u"status 75: busy"_s);
    QCOMPARE(counts->reasons.at(0).count, 600);
    QCOMPARE(counts->reasons.at(1).reason, u"status 3: bad input"_s);
    QCOMPARE(counts->reasons.at(1).count, 300);
    QCOMPARE(counts->reasons.at(2).reason, QString());
    QCOMPARE(counts->reasons.at(2).count, 7);
    QCOMPARE(counts->reasonsTotal, 907);
    const qint64 span = counts->reasons.at(1).oldest.secsTo(counts->reasons.at(1).newest);
    QVERIFY2(span >= 897 * 60 - 5 && span <= 897 * 60 + 5, qPrintable(QString::number(span)));

    // The last hour only: 60 rows, 20 of them bad input.
    request.maxAgeMs = 3'600'000 + 30'000;
    const auto recent = ask(request);
    QVERIFY(recent.ok());
    QCOMPARE(recent->reasons.size(), 2);
    QCOMPARE(recent->reasons.at(1).count, 20);
    QCOMPARE(recent->reasonsTotal, 60);

    // Past the cap of reasons (one per row, as a program that names the
    // message in its error gives): the total still counts every row.
    QVERIFY(tdb.exec(u"INSERT INTO workqueue (stage, status, state) SELECT 'c', 'failed', "
                     "jsonb_build_object('dispatch_error', 'no customer for ' || g) FROM generate_series(1, 250) g"_s));
    MessagesRequest unique = pageOf(u"c"_s, u"failed"_s);
    unique.reasons = true;
    const auto many = ask(unique);
    QVERIFY(many.ok());
    QCOMPARE(many->moreReasons, true);
    QCOMPARE(many->reasons.size(), int(protocol::MaxMessageReasons));
    QCOMPARE(many->reasonsTotal, 250);

    // The rows of one reason, paged by id: all 300, each once.
    MessagesRequest one = pageOf(u"a"_s, u"failed"_s, 128);
    one.reason = u"status 3: bad input"_s;
    QSet<qint64> seen;
    for (int page = 0; page < 5; ++page) {
        const auto rows = ask(one);
        QVERIFY(rows.ok());
        for (const MessageRow &row : rows->rows) {
            QCOMPARE(row.reason, u"status 3: bad input"_s);
            seen.insert(row.id);
        }
        if (!rows->nextAfterId)
            break;
        one.afterId = *rows->nextAfterId;
    }
    QCOMPARE(seen.size(), 300);
    // "": the rows without a reason.
    MessagesRequest none = pageOf(u"a"_s, u"failed"_s);
    none.reason = QString();
    const auto bare = ask(none);
    QVERIFY(bare.ok());
    QCOMPARE(bare->rows.size(), 7);
}

// `set`: the one row for the option, whatever case or blanks an older row used.
void tst_OperatorQueries::setReplacesTheOverlayRow()
{
    PEPSI_REQUIRE_DATABASE(tdb);
    QVERIFY(tdb.exec(u"INSERT INTO config_overlay VALUES (' Stage-A ', 'parallelism', '2'), "
                     "('stage-a', 'QUEUE_LIMIT', '3'), ('stage-b', 'PARALLELISM', '5')"_s));
    OperatorThread operatorThread(tdb.uri(), u"tst"_s, SessionLimits{});
    for (const QString &value : {u"8"_s, u"9"_s}) {
        const auto written = await<bool>(this, [&](QObject *context, auto done) {
            operatorThread.setOverlay(OverlaySetting{u"stage-a"_s, u"PARALLELISM"_s, value}, context, done);
        });
        QVERIFY2(written.ok(), qPrintable(written.ok() ? QString() : written.error()));
    }
    QCOMPARE(tdb.scalar(u"SELECT (string_agg(section || '/' || option || '=' || value, ' ' ORDER BY section, option) "
                        "= 'stage-a/PARALLELISM=9 stage-a/QUEUE_LIMIT=3 stage-b/PARALLELISM=5')::int "
                        "FROM config_overlay"_s),
             1);
}

QTEST_GUILESS_MAIN(tst_OperatorQueries)
#include "tst_operatorqueries.moc"
