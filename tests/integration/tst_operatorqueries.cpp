// SPDX-License-Identifier: AGPL-3.0-or-later
// The operator's queries against a real PostgreSQL: what requeue, message,
// messages by reason and set read and write (how they run, on indexes only
// and off the caller's loop: tst_operatorthread).
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

class tst_OperatorQueries : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void requeueMovesTheRowsItNames();
    void messageCutsItsState();
    void reasonsCountTheWholeStatus();
    void setReplacesTheOverlayRow();
};

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
    const auto outcome = await<RequeueOutcome>(
        this, [&](QObject *context, auto done) { operatorThread.requeue(request, context, done); });
    QVERIFY2(outcome.ok(), qPrintable(outcome.ok() ? QString() : outcome.error()));
    QCOMPARE(outcome->requeued, 1);
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
