// SPDX-License-Identifier: AGPL-3.0-or-later
// The control socket's messages and message against a fake dispatcher,
// through a real QLocalSocket: a stage's rows paged by id, one row's state,
// the reasons with their counts (and the `reasons` command), the reason and
// age filters, a page that holds as many rows as fit in the line, and every
// bad argument.
#include "control/controlserver.h"
#include "controltestclient.h"
#include "directserverfixture.h"
#include "requesttable.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>
#include <memory>

using namespace pepsi;
using namespace Qt::StringLiterals;

class tst_ControlMessages : public DirectServerTest
{
    Q_OBJECT

private Q_SLOTS:
    void requests_data();
    void requests();
    void messagesPageFitsTheLine();
    void messagesReasonsAndFilters();
    void reasonsCommand();

private:
    // The fake's rows replaced by five failed ones at score, 1 to 5 s before
    // `now`: three of reason "a", the newest, and two of "b".
    void setFailedScoreRows(const QDateTime &now);
};

void tst_ControlMessages::setFailedScoreRows(const QDateTime &now)
{
    m_daemon->dispatch().m_messages.clear();
    for (qint64 id = 1; id <= 5; ++id)
        m_daemon->dispatch().m_messages.append(
            MessageRow{id, u"score"_s, u"failed"_s, 1, now.addSecs(-id), id <= 3 ? u"a"_s : u"b"_s});
}

void tst_ControlMessages::requests_data()
{
    addRequestColumns();

    // a stage's rows of one status, paged by id
    QTest::newRow("messages first page") << R"({"cmd":"messages","stage":"enrich","status":"failed","limit":2})"_ba
                                         << true << u"result.messages.1.id"_s << "102"_ba;
    QTest::newRow("messages next_after_id") << R"({"cmd":"messages","stage":"enrich","status":"failed","limit":2})"_ba
                                            << true << u"result.next_after_id"_s << "102"_ba;
    QTest::newRow("messages last page") << R"({"cmd":"messages","stage":"enrich","status":"failed","after_id":104})"_ba
                                        << true << u"result.next_after_id"_s << "null"_ba;
    QTest::newRow("messages reason") << R"({"cmd":"messages","stage":"enrich","status":"failed","after_id":104})"_ba
                                     << true << u"result.messages.0.reason"_s << R"("status 3: bad input 105")"_ba;
    QTest::newRow("messages fields")
        << R"({"cmd":"messages","stage":"enrich","status":"timeout"})"_ba << true << u"result.messages.0"_s
        << R"({"id":106,"stage":"enrich","status":"timeout","claims":1,"updated":"2026-12-02T19:51:47.123Z","reason":null})"_ba;
    QTest::newRow("messages none") << R"({"cmd":"messages","stage":"score","status":"pending"})"_ba << true
                                   << u"result"_s << R"({"messages":[],"next_after_id":null})"_ba;
    QTest::newRow("messages done") << R"({"cmd":"messages","stage":"enrich","status":"done"})"_ba << false << QString()
                                   << "done rows are not listed"_ba;
    QTest::newRow("messages bad status") << R"({"cmd":"messages","stage":"enrich","status":"lost"})"_ba << false
                                         << QString() << R"("status" must be one of pending, running, paused)"_ba;
    QTest::newRow("messages unknown stage")
        << R"({"cmd":"messages","stage":"nope","status":"failed"})"_ba << false << QString()
        << R"('messages': unknown stage "nope" (stages: enrich, score))"_ba;
    QTest::newRow("messages limit 0") << R"({"cmd":"messages","stage":"enrich","status":"failed","limit":0})"_ba
                                      << false << QString() << R"("limit" must be 1 to 500)"_ba;
    QTest::newRow("messages limit 501") << R"({"cmd":"messages","stage":"enrich","status":"failed","limit":501})"_ba
                                        << false << QString() << R"("limit" must be 1 to 500)"_ba;
    QTest::newRow("messages negative after")
        << R"({"cmd":"messages","stage":"enrich","status":"failed","after_id":-1})"_ba << false << QString()
        << R"("after_id" must not be negative)"_ba;
    QTest::newRow("messages no status") << R"({"cmd":"messages","stage":"enrich"})"_ba << false << QString()
                                        << R"(needs the argument "status")"_ba;
    // one row, with its state
    QTest::newRow("message state") << R"({"cmd":"message","message_id":101})"_ba << true << u"result.state.url"_s
                                   << R"("https://example.org/")"_ba;
    QTest::newRow("message truncated") << R"({"cmd":"message","message_id":101})"_ba << true << u"result.truncated"_s
                                       << "false"_ba;
    QTest::newRow("message created") << R"({"cmd":"message","message_id":101})"_ba << true << u"result.created"_s
                                     << R"("2026-12-02T19:50:47.123Z")"_ba;
    QTest::newRow("message unknown id") << R"({"cmd":"message","message_id":999})"_ba << false << QString()
                                        << "'message': no message with id 999"_ba;
    QTest::newRow("message id text") << R"({"cmd":"message","message_id":"101"})"_ba << false << QString()
                                     << R"("message_id" must be an integer)"_ba;
}

void tst_ControlMessages::requests()
{
    QFETCH(QByteArray, line);
    QFETCH(bool, ok);
    QFETCH(QString, path);
    QFETCH(QByteArray, expected);
    verifyRequest(*m_daemon, line, ok, path, expected);
}

// A page of 500 rows with long reasons would pass the line limit: the reply
// holds as many as fit with the cursor right after the last, whatever the
// request's id, and paging along it returns every row exactly once.
void tst_ControlMessages::messagesPageFitsTheLine()
{
    QList<qint64> expected;
    for (qint64 id = 1000; id < 1700; ++id) {
        m_daemon->dispatch().m_messages.append(MessageRow{id, u"score"_s, u"failed"_s, 1,
                                                          QDateTime::currentDateTimeUtc(),
                                                          u"status 3: %1 "_s.arg(id) + QString(300, u'r')});
        expected.append(id);
    }
    ControlTestClient client;
    QVERIFY(client.connectTo(m_daemon->path()));
    const QByteArray longId = '"' + QByteArray(20000, 'i') + '"';
    QList<qint64> seen;
    qint64 after = 0;
    for (int page = 0; page < 100; ++page) {
        // Every other request with an id of 20 KB: the envelope counts too.
        const QByteArray line = R"({"cmd":"messages","stage":"score","status":"failed","limit":500,"after_id":)"_ba
            + QByteArray::number(after) + (page % 2 ? ",\"id\":" + longId : QByteArray()) + '}';
        client.sendRaw(line + '\n');
        QVERIFY(QTest::qWaitFor([&client] { return client.socket().canReadLine(); }, 10000));
        const QByteArray reply = client.socket().readLine();
        QVERIFY2(reply.size() <= 64 * 1024, qPrintable(QString::number(reply.size())));
        const QJsonObject object = QJsonDocument::fromJson(reply).object();
        QVERIFY2(object.value(u"ok"_s).toBool(), reply.left(300).constData());
        const QJsonArray rows = object.value(u"result"_s)[u"messages"_s].toArray();
        QVERIFY(!rows.isEmpty());
        QVERIFY(rows.size() < 500);
        for (const QJsonValue row : rows)
            seen.append(row[u"id"_s].toInteger());
        const QJsonValue next = object.value(u"result"_s)[u"next_after_id"_s];
        if (next.isNull())
            break;
        QCOMPARE(next.toInteger(), seen.last()); // exactly after the last row of this page
        after = next.toInteger();
    }
    QCOMPARE(seen, expected);
    m_daemon->dispatch().m_messages.clear();
}

// `reasons`: the grouping of `messages` with "reasons": true as a command of
// its own, failed unless another status is asked; a list that would pass the
// line keeps the most frequent reasons and says "more".
void tst_ControlMessages::reasonsCommand()
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    setFailedScoreRows(now);
    m_daemon->dispatch().m_messages.append(MessageRow{6, u"score"_s, u"timeout"_s, 1, now, u"timeout after 5 s"_s});
    ControlTestClient client;
    QVERIFY(client.connectTo(m_daemon->path()));
    const QJsonObject failed = client.request(R"({"cmd":"reasons","stage":"score"})"_ba);
    const QJsonObject viaMessages =
        client.request(R"({"cmd":"messages","stage":"score","status":"failed","reasons":true})"_ba);
    QCOMPARE(failed.value(u"result"_s), viaMessages.value(u"result"_s));
    const QJsonArray reasons = failed.value(u"result"_s)[u"reasons"_s].toArray();
    QCOMPARE(reasons.size(), 2);
    QCOMPARE(reasons.at(0).toObject().keys(), QStringList({u"count"_s, u"newest"_s, u"oldest"_s, u"reason"_s}));
    QCOMPARE(reasons.at(0)[u"count"_s].toInteger(), 3);
    const QJsonObject timeout = client.request(R"({"cmd":"reasons","stage":"score","status":"timeout"})"_ba);
    QCOMPARE(timeout.value(u"result"_s)[u"reasons"_s][0][u"reason"_s].toString(), u"timeout after 5 s"_s);
    QCOMPARE(client.request(R"({"cmd":"reasons","stage":"nope"})"_ba).value(u"error"_s).toString(),
             u"'reasons': unknown stage \"nope\" (stages: enrich, score)"_s);
    QVERIFY(client.request(R"({"cmd":"reasons","stage":"score","status":"done"})"_ba)
                .value(u"error"_s)
                .toString()
                .startsWith(u"'reasons': done rows are not listed"_s));

    // 100 reasons of 1000 characters: about 100 KB, more than a line.
    m_daemon->dispatch().m_messages.clear();
    for (qint64 id = 1; id <= 100; ++id)
        m_daemon->dispatch().m_messages.append(
            MessageRow{id, u"score"_s, u"failed"_s, 1, now, QString::number(id).rightJustified(1000, u'x')});
    const QJsonObject cut = client.request(R"({"cmd":"reasons","stage":"score"})"_ba);
    QVERIFY2(cut.value(u"ok"_s).toBool(), qPrintable(cut.value(u"error"_s).toString()));
    QVERIFY(cut.value(u"result"_s)[u"reasons"_s].toArray().size() < 100);
    QCOMPARE(cut.value(u"result"_s)[u"more"_s].toBool(), true);
    QCOMPARE(cut.value(u"result"_s)[u"total"_s].toInteger(), 100);
    m_daemon->dispatch().m_messages.clear();
}

// `messages` with "reasons": the reasons with counts and times instead of
// rows; "reason" and "max_age_ms" reach the dispatcher; bad ones are named.
void tst_ControlMessages::messagesReasonsAndFilters()
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    setFailedScoreRows(now);
    m_daemon->dispatch().m_messages.append(MessageRow{6, u"score"_s, u"failed"_s, 1, now.addDays(-2), {}});
    ControlTestClient client;
    QVERIFY(client.connectTo(m_daemon->path()));
    const QJsonObject counts =
        client.request(R"({"cmd":"messages","stage":"score","status":"failed","reasons":true})"_ba)
            .value(u"result"_s)
            .toObject();
    QCOMPARE(counts.value(u"more"_s).toBool(), false);
    QVERIFY(!counts.contains(u"messages"_s));
    const QJsonArray reasons = counts.value(u"reasons"_s).toArray();
    QCOMPARE(reasons.size(), 3);
    QCOMPARE(reasons.at(0)[u"reason"_s].toString(), u"a"_s);
    QCOMPARE(reasons.at(0)[u"count"_s].toInteger(), 3);
    QVERIFY(reasons.at(0)[u"oldest"_s].toString() < reasons.at(0)[u"newest"_s].toString());
    QVERIFY(reasons.at(2)[u"reason"_s].isNull()); // the row without one
    // The last day only, by reason.
    const QJsonObject recent = client.request(
        R"({"cmd":"messages","stage":"score","status":"failed","reasons":true,"max_age_ms":86400000})"_ba);
    QCOMPARE(recent.value(u"result"_s)[u"reasons"_s].toArray().size(), 2);
    const QJsonObject ofB = client.request(R"({"cmd":"messages","stage":"score","status":"failed","reason":"b"})"_ba);
    QCOMPARE(ofB.value(u"result"_s)[u"messages"_s].toArray().size(), 2);
    const QJsonObject none = client.request(R"({"cmd":"messages","stage":"score","status":"failed","reason":""})"_ba);
    QCOMPARE(none.value(u"result"_s)[u"messages"_s].toArray().size(), 1);

    const QJsonObject negative =
        client.request(R"({"cmd":"messages","stage":"score","status":"failed","max_age_ms":-1})"_ba);
    QCOMPARE(negative.value(u"error"_s).toString(), u"'messages': \"max_age_ms\" must not be negative"_s);
    const QJsonObject typed = client.request(R"({"cmd":"messages","stage":"score","status":"failed","reasons":1})"_ba);
    QCOMPARE(typed.value(u"ok"_s).toBool(), false);
    QVERIFY2(typed.value(u"error"_s).toString().contains(u"reasons"_s), qPrintable(typed.value(u"error"_s).toString()));
}

QTEST_GUILESS_MAIN(tst_ControlMessages)
#include "tst_controlmessages.moc"
