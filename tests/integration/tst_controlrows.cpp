// SPDX-License-Identifier: AGPL-3.0-or-later
// The control commands of a real pepsi-dispatch that reach into its tables,
// checked against them: messages pages a stage's failed rows to the end and
// message reads one whole or cut at 16 KiB, queues gives a drained stage's
// pending ages; set writes config_overlay, whose notification reloads the
// graph, and a refused set writes nothing.
#include "controlchecks.h"
#include "controltestclient.h"
#include "daemonprocess.h"
#include "daemontest.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <memory>

using namespace Qt::StringLiterals;

class tst_ControlRows : public DaemonTest
{
    Q_OBJECT

private Q_SLOTS:
    void messagesAndMessage();
    void setReloadsTheGraph();
};

// pending_ages of a drained stage, and the failed rows of another paged to
// the end, one of them read whole and one cut at 16 KiB; every refusal.
void tst_ControlRows::messagesAndMessage()
{
    DaemonProcess daemon(m_db->uri());
    ControlTestClient client;
    QVERIFY(startTwoStages(daemon, client));
    QVERIFY(client.request(R"({"cmd":"drain","stage":"b"})"_ba).value(u"ok"_s).toBool());
    QVERIFY(m_db->exec(u"INSERT INTO workqueue (stage, status, created, updated) SELECT 'b', 'pending', "
                       "now() - interval '3 h', now() - CASE WHEN g <= 7 THEN interval '30 s' ELSE interval '2 h' END "
                       "FROM generate_series(1, 10) g"_s));
    QVERIFY(m_db->exec(
        u"INSERT INTO workqueue (stage, status, claims, state) SELECT 'a', 'failed', 1, "
        "jsonb_build_object('dispatch_error', 'status 3: bad input ' || g) FROM generate_series(1, 1200) g"_s));
    QVERIFY(m_db->exec(u"INSERT INTO workqueue (stage, status, state) VALUES "
                       "('a', 'timeout', jsonb_build_object('blob', repeat('x', 40000)))"_s));

    // queues: b's pending rows by how long they waited at b
    QJsonObject queueB;
    QTRY_VERIFY_WITH_TIMEOUT(
        (queueB = client.request(R"({"cmd":"queues"})"_ba)[u"result"_s][u"stages"_s][u"b"_s].toObject(),
         queueB.value(u"pending"_s).toInt() == 10),
        10000);
    QCOMPARE(queueB.value(u"pending_ages"_s).toObject(),
             QJsonObject({{u"1s"_s, 0}, {u"10s"_s, 0}, {u"1m"_s, 7}, {u"10m"_s, 0}, {u"1h"_s, 0}, {u"older"_s, 3}}));
    QVERIFY(queueB.value(u"oldest_pending_age_ms"_s).toInteger() >= 7'200'000);
    QVERIFY(queueB.value(u"oldest_pending_age_ms"_s).toInteger() < 3 * 3'600'000);
    const QJsonObject statusB =
        client.request(R"({"cmd":"status","stage":"b"})"_ba)[u"result"_s][u"stages"_s][u"b"_s][u"queue"_s].toObject();
    QCOMPARE(statusB.value(u"pending_ages"_s), queueB.value(u"pending_ages"_s));

    // messages: 1,200 failed rows in pages of 500, each row once, in id order
    QList<qint64> ids;
    QList<int> sizes;
    QJsonValue after;
    for (int page = 0; page < 5; ++page) {
        QJsonObject request{
            {u"cmd"_s, u"messages"_s}, {u"stage"_s, u"a"_s}, {u"status"_s, u"failed"_s}, {u"limit"_s, 500}};
        if (!after.isUndefined())
            request.insert(u"after_id"_s, after);
        const QJsonObject reply = client.request(request);
        QVERIFY2(reply.value(u"ok"_s).toBool(), qPrintable(reply.value(u"error"_s).toString()));
        const QJsonArray rows = reply[u"result"_s][u"messages"_s].toArray();
        sizes << int(rows.size());
        for (const QJsonValue &row : rows) {
            VERIFY_FIELDS(row, u"id"_s, u"stage"_s, u"status"_s, u"claims"_s, u"updated"_s, u"reason"_s);
            QVERIFY(row[u"reason"_s].toString().startsWith(u"status 3: bad input "_s));
            QCOMPARE(row[u"claims"_s].toInt(), 1);
            ids << row[u"id"_s].toInteger();
        }
        after = reply[u"result"_s][u"next_after_id"_s];
        if (after.isNull())
            break;
        QCOMPARE(after.toInteger(), ids.last());
    }
    QCOMPARE(sizes, QList<int>({500, 500, 200}));
    QVERIFY(std::is_sorted(ids.begin(), ids.end()));
    QCOMPARE(m_db->scalar(u"SELECT count(*) FROM workqueue WHERE stage = 'a' AND status = 'failed' AND workqueue_id "
                          "BETWEEN %1 AND %2"_s.arg(ids.first())
                              .arg(ids.last())),
             1200);
    QCOMPARE(QSet<qint64>(ids.begin(), ids.end()).size(), 1200);

    // message: whole, and cut at 16 KiB
    const QJsonObject whole = client.request(QJsonObject{{u"cmd"_s, u"message"_s}, {u"message_id"_s, double(ids[0])}});
    VERIFY_FIELDS(whole[u"result"_s], u"id"_s, u"stage"_s, u"status"_s, u"claims"_s, u"updated"_s, u"reason"_s,
                  u"created"_s, u"state"_s, u"truncated"_s);
    QCOMPARE(whole[u"result"_s][u"state"_s][u"dispatch_error"_s].toString(), u"status 3: bad input 1"_s);
    QCOMPARE(whole[u"result"_s][u"truncated"_s].toBool(), false);
    const qint64 big = m_db->scalar(u"SELECT workqueue_id FROM workqueue WHERE status = 'timeout'"_s);
    const QJsonObject cut = client.request(QJsonObject{{u"cmd"_s, u"message"_s}, {u"message_id"_s, double(big)}});
    QCOMPARE(cut[u"result"_s][u"truncated"_s].toBool(), true);
    QCOMPARE(cut[u"result"_s][u"status"_s].toString(), u"timeout"_s);
    QCOMPARE(cut[u"result"_s][u"state"_s].toString().toUtf8().size(), 16384);

    // refusals, each naming what is wrong
    const QList<std::pair<QByteArray, QString>> refusals{
        {R"({"cmd":"messages","stage":"c","status":"failed"})"_ba, u"unknown stage \"c\" (stages: a, b)"_s},
        {R"({"cmd":"messages","stage":"a","status":"done"})"_ba, u"done rows are not listed"_s},
        {R"({"cmd":"messages","stage":"a","status":"lost"})"_ba, u"\"status\" must be one of"_s},
        {R"({"cmd":"messages","stage":"a","status":"failed","limit":501})"_ba, u"\"limit\" must be 1 to 500"_s},
        {R"({"cmd":"message","message_id":999999999})"_ba, u"'message': no message with id 999999999"_s},
    };
    for (const auto &[line, expected] : refusals) {
        const QJsonObject reply = client.request(line);
        QCOMPARE(reply.value(u"ok"_s).toBool(), false);
        QVERIFY2(reply.value(u"error"_s).toString().contains(expected), qPrintable(reply.value(u"error"_s).toString()));
    }
    QCOMPARE(daemon.terminate(), 0);
}

// set writes the overlay row; its config_changed reloads the graph, and
// `stages` shows the new value. A bad value or option writes nothing.
void tst_ControlRows::setReloadsTheGraph()
{
    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"a"_s, DaemonProcess::fakeWorker());
    const auto client = startSubscribed(daemon, {u"reload"_s});
    QVERIFY(client);

    const QJsonObject set = client->request(R"({"cmd":"set","stage":"a","option":"PARALLELISM","value":3})"_ba);
    QVERIFY2(set.value(u"ok"_s).toBool(), qPrintable(set.value(u"error"_s).toString()));
    QCOMPARE(set[u"result"_s].toObject(),
             QJsonObject({{u"stage"_s, u"a"_s}, {u"option"_s, u"PARALLELISM"_s}, {u"value"_s, u"3"_s}}));
    QCOMPARE(
        m_db->scalar(u"SELECT value::int FROM config_overlay WHERE section = 'stage-a' AND option = 'PARALLELISM'"_s),
        3);
    const auto reload = client->takeEvent(u"reload"_s, 10000);
    QVERIFY(reload);
    // The reload names the operator's action, not the notification that carried it.
    QCOMPARE(reload->value(u"source"_s).toString(), u"set"_s);
    QTRY_COMPARE(client->request(R"({"cmd":"stages"})"_ba)[u"result"_s][u"stages"_s][0][u"parallelism"_s].toInt(), 3);
    QTRY_COMPARE(client->request(R"({"cmd":"status"})"_ba)[u"result"_s][u"stages"_s][u"a"_s][u"parallelism"_s].toInt(),
                 3);
    QVERIFY(daemon.waitForLog(
        QRegularExpression(uR"(config_overlay \(stage-a, PARALLELISM\) set to 3 on the control socket by uid \d+)"_s)));

    const QList<std::pair<QByteArray, QString>> refusals{
        {R"({"cmd":"set","stage":"a","option":"PARALLELISM","value":2000})"_ba,
         u"config_overlay (stage-a, PARALLELISM)"_s},
        {R"({"cmd":"set","stage":"a","option":"QUEUE_LIMIT","value":"x"})"_ba, u"\"x\" is not a whole number"_s},
        {R"({"cmd":"set","stage":"a","option":"NEXT","value":"a"})"_ba, u"\"option\" must be one of"_s},
        {R"({"cmd":"set","stage":"z","option":"PARALLELISM","value":2})"_ba, u"unknown stage \"z\" (stages: a)"_s},
    };
    for (const auto &[line, expected] : refusals) {
        const QJsonObject reply = client->request(line);
        QCOMPARE(reply.value(u"ok"_s).toBool(), false);
        QVERIFY2(reply.value(u"error"_s).toString().contains(expected), qPrintable(reply.value(u"error"_s).toString()));
    }
    QCOMPARE(m_db->scalar(u"SELECT count(*) FROM config_overlay"_s), 1);
    QCOMPARE(client->request(R"({"cmd":"stages"})"_ba)[u"result"_s][u"stages"_s][0][u"parallelism"_s].toInt(), 3);
    // Refused sets wrote nothing, and the set was heard once: a write of
    // someone else's after them is the overlay's notification again.
    QVERIFY(m_db->exec(u"UPDATE config_overlay SET value = '3'"_s));
    const auto foreign = client->takeEvent(u"reload"_s, 10000);
    QVERIFY(foreign);
    QCOMPARE(foreign->value(u"source"_s).toString(), u"notify"_s);
    QCOMPARE(daemon.terminate(), 0);
}

QTEST_GUILESS_MAIN(tst_ControlRows)
#include "tst_controlrows.moc"
