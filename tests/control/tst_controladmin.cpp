// SPDX-License-Identifier: AGPL-3.0-or-later
// The control socket's admin commands against a fake dispatcher, through a
// real QLocalSocket: refused to whoever is not admin before anything reaches
// the dispatcher, handed to it with the caller's uid otherwise, logged with
// the request cut; set's and requeue's arguments and requeue's bounds.
#include "control/controlserver.h"
#include "controltestclient.h"
#include "directserverfixture.h"
#include "requesttable.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QTest>
#include <memory>

#include <unistd.h>

using namespace pepsi;
using namespace Qt::StringLiterals;

class tst_ControlAdmin : public DirectServerTest
{
    Q_OBJECT

private Q_SLOTS:
    void requests_data();
    void requests();
    void adminRefused_data();
    void adminRefused();
    void adminCommandsReachTheDaemon();
    void adminRequestIsLoggedCut();
};

void tst_ControlAdmin::requests_data()
{
    addRequestColumns();

    // set: the value as config_overlay keeps it, or a refusal naming what is wrong
    QTest::newRow("set") << R"({"cmd":"set","stage":"score","option":"PARALLELISM","value":8})"_ba << true
                         << u"result"_s << R"({"stage":"score","option":"PARALLELISM","value":"8"})"_ba;
    QTest::newRow("set text value, option in any case")
        << R"({"cmd":"set","stage":"score","option":"queue_limit","value":" 16 "})"_ba << true << u"result"_s
        << R"({"stage":"score","option":"QUEUE_LIMIT","value":"16"})"_ba;
    QTest::newRow("set out of range") << R"({"cmd":"set","stage":"score","option":"PARALLELISM","value":0})"_ba << false
                                      << QString() << "config_overlay (stage-score, PARALLELISM)"_ba;
    QTest::newRow("set not a number") << R"({"cmd":"set","stage":"score","option":"MAX_MESSAGES","value":"many"})"_ba
                                      << false << QString() << R"("many" is not a whole number)"_ba;
    QTest::newRow("set a variable") << R"({"cmd":"set","stage":"score","option":"MAX_MESSAGES","value":"$MAX"})"_ba
                                    << false << QString() << "must be a plain number"_ba;
    QTest::newRow("set unknown option")
        << R"({"cmd":"set","stage":"score","option":"PROGRAM","value":"/bin/sh"})"_ba << false << QString()
        << R"("option" must be one of PARALLELISM, QUEUE_LIMIT, MAX_MESSAGES, not "PROGRAM")"_ba;
    QTest::newRow("set unknown stage") << R"({"cmd":"set","stage":"nope","option":"PARALLELISM","value":2})"_ba << false
                                       << QString() << R"('set': unknown stage "nope" (stages: enrich, score))"_ba;
    QTest::newRow("set value a list") << R"({"cmd":"set","stage":"score","option":"PARALLELISM","value":[2]})"_ba
                                      << false << QString() << R"("value" must be a string or integer)"_ba;
    // requeue: each argument refused by name
    QTest::newRow("requeue no status") << R"({"cmd":"requeue","stage":"enrich"})"_ba << false << QString()
                                       << R"(needs the argument "status")"_ba;
    QTest::newRow("requeue bad status") << R"({"cmd":"requeue","stage":"enrich","status":"done"})"_ba << false
                                        << QString() << R"(must be "failed" or "timeout")"_ba;
    QTest::newRow("requeue ids of text") << R"({"cmd":"requeue","stage":"enrich","status":"failed","ids":["1"]})"_ba
                                         << false << QString() << "must be an array of integers"_ba;
    QTest::newRow("requeue ids fraction") << R"({"cmd":"requeue","stage":"enrich","status":"failed","ids":[1.5]})"_ba
                                          << false << QString() << "must be an array of integers"_ba;
    QTest::newRow("requeue limit 0") << R"({"cmd":"requeue","stage":"enrich","status":"failed","limit":0})"_ba << false
                                     << QString() << R"("limit" must be 1 to 10000)"_ba;
    QTest::newRow("requeue limit text") << R"({"cmd":"requeue","stage":"enrich","status":"failed","limit":"9"})"_ba
                                        << false << QString() << R"("limit" must be an integer)"_ba;
    QTest::newRow("requeue negative age")
        << R"({"cmd":"requeue","stage":"enrich","status":"timeout","max_age_ms":-1})"_ba << false << QString()
        << "must not be negative"_ba;
    QTest::newRow("requeue since not a time")
        << R"({"cmd":"requeue","stage":"enrich","status":"failed","since":"lately"})"_ba << false << QString()
        << R"('requeue': "since": )"_ba;
    QTest::newRow("requeue since a number") << R"({"cmd":"requeue","stage":"enrich","status":"failed","since":600})"_ba
                                            << false << QString() << R"("since" must be a string)"_ba;
    QTest::newRow("requeue since and max_age_ms")
        << R"({"cmd":"requeue","stage":"enrich","status":"failed","since":"10m","max_age_ms":5})"_ba << false
        << QString() << R"(give "since" or "max_age_ms", not both)"_ba;
    QTest::newRow("requeue reason a number") << R"({"cmd":"requeue","stage":"enrich","status":"failed","reason":3})"_ba
                                             << false << QString() << R"("reason" must be a string)"_ba;
    // The bounds of doc/quality.rst, "Limits": 10000 ids, limit 1..10000.
    const auto requeueIds = [](int count) {
        return QByteArray(R"({"cmd":"requeue","stage":"enrich","status":"failed","ids":[)"_ba
                          + QByteArray("7,").repeated(count - 1) + "7]}");
    };
    QTest::newRow("requeue 10000 ids") << requeueIds(10000) << true << u"result.requeued"_s << "3"_ba;
    QTest::newRow("requeue 10001 ids") << requeueIds(10001) << false << QString()
                                       << "at most 10000 ids at once (10001 given)"_ba;
    QTest::newRow("requeue limit 10000") << R"({"cmd":"requeue","stage":"enrich","status":"failed","limit":10000})"_ba
                                         << true << u"result.requeued"_s << "3"_ba;
    QTest::newRow("requeue limit 10001") << R"({"cmd":"requeue","stage":"enrich","status":"failed","limit":10001})"_ba
                                         << false << QString() << R"("limit" must be 1 to 10000)"_ba;
}

void tst_ControlAdmin::requests()
{
    QFETCH(QByteArray, line);
    QFETCH(bool, ok);
    QFETCH(QString, path);
    QFETCH(QByteArray, expected);
    verifyRequest(*m_daemon, line, ok, path, expected);
}

void tst_ControlAdmin::adminRefused_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::newRow("reload") << R"({"cmd":"reload"})"_ba;
    QTest::newRow("drain") << R"({"cmd":"drain","stage":"enrich"})"_ba;
    QTest::newRow("resume") << R"({"cmd":"resume","stage":"enrich"})"_ba;
    QTest::newRow("requeue") << R"({"cmd":"requeue","stage":"enrich","status":"failed"})"_ba;
    QTest::newRow("set") << R"({"cmd":"set","stage":"enrich","option":"PARALLELISM","value":2})"_ba;
    QTest::newRow("unset") << R"({"cmd":"unset","stage":"enrich","option":"PARALLELISM"})"_ba;
}

void tst_ControlAdmin::adminRefused()
{
    QFETCH(QByteArray, line);
    // Nobody who can connect here is admin.
    m_daemon->server().setAdminUids({4000000000u});
    ControlTestClient client;
    QVERIFY(client.connectTo(m_daemon->path()));
    const QJsonObject reply = client.request(line);
    QCOMPARE(reply.value(u"ok"_s).toBool(), false);
    const QString error = reply.value(u"error"_s).toString();
    QVERIFY2(error.startsWith(u"permission denied: '"_s), qPrintable(error));
    QVERIFY2(error.contains(u"needs root or the service account pepsi (you are uid %1)"_s.arg(::geteuid())),
             qPrintable(error));
    QVERIFY(m_daemon->dispatch().m_calls.isEmpty());
    QCOMPARE(client.request(R"({"cmd":"version"})"_ba).value(u"result"_s)[u"peer"_s][u"admin"_s].toBool(), false);
}

void tst_ControlAdmin::adminCommandsReachTheDaemon()
{
    ControlTestClient client;
    QVERIFY(client.connectTo(m_daemon->path()));
    const QString uid = QString::number(::geteuid());
    QCOMPARE(client.request(R"({"cmd":"drain","stage":"enrich"})"_ba).value(u"result"_s)[u"drained"_s].toBool(), true);
    QCOMPARE(
        client.request(R"({"cmd":"status"})"_ba).value(u"result"_s)[u"stages"_s][u"enrich"_s][u"drained"_s].toBool(),
        true);
    QCOMPARE(client.request(R"({"cmd":"stages"})"_ba).value(u"result"_s)[u"stages"_s][0][u"drained"_s].toBool(), true);
    QCOMPARE(client.request(R"({"cmd":"resume","stage":"enrich"})"_ba).value(u"result"_s)[u"drained"_s].toBool(),
             false);
    QCOMPARE(client.request(R"({"cmd":"reload"})"_ba).value(u"result"_s)[u"stages"_s].toArray().size(), 2);
    const QJsonObject requeued = client.request(
        R"({"cmd":"requeue","stage":"enrich","status":"failed","ids":[4,5],"max_age_ms":60000,"limit":7})"_ba);
    QCOMPARE(requeued.value(u"result"_s)[u"requeued"_s].toInt(), 3);
    QCOMPARE(requeued.value(u"result"_s)[u"more"_s].toBool(), false);
    // "since" as pepsi.conf spells a time, onto max_age_ms; "reason" as given.
    QVERIFY(
        client
            .request(R"({"cmd":"requeue","stage":"enrich","status":"failed","reason":"status 3: x","since":"10m"})"_ba)
            .value(u"ok"_s)
            .toBool());
    QCOMPARE(client.request(R"({"cmd":"set","stage":"score","option":"MAX_MESSAGES","value":"50"})"_ba)
                 .value(u"ok"_s)
                 .toBool(),
             true);
    QCOMPARE(client.request(R"({"cmd":"unset","stage":"score","option":"max_messages"})"_ba).value(u"result"_s),
             QJsonObject({{u"stage"_s, u"score"_s}, {u"option"_s, u"MAX_MESSAGES"_s}}));
    QCOMPARE(
        m_daemon->dispatch().m_calls,
        QStringList({u"drain enrich "_s + uid, u"resume enrich "_s + uid, u"reload "_s + uid,
                     u"requeue enrich failed "_s + uid + u" ids=4,5 age=60000 limit=7"_s,
                     u"requeue enrich failed "_s + uid + u" ids= age=600000 limit=1000 reason=status 3: x"_s,
                     u"set stage-score MAX_MESSAGES 50 "_s + uid, u"set stage-score MAX_MESSAGES (unset) "_s + uid}));
}

void tst_ControlAdmin::adminRequestIsLoggedCut()
{
    // The log names every admin request, but no peer chooses how long a log line is:
    // the request's text stops at 300 characters (24 of them before the stage name).
    ControlTestClient client;
    QVERIFY(client.connectTo(m_daemon->path()));
    const QByteArray stage(5000, 'x');
    QTest::ignoreMessage(
        QtInfoMsg, QRegularExpression(uR"(^admin command \{"cmd":"drain","stage":"x{276} from uid \d+ pid \d+$)"_s));
    const QJsonObject reply = client.request(R"({"cmd":"drain","stage":")"_ba + stage + R"("})"_ba);
    QCOMPARE(reply.value(u"ok"_s).toBool(), false); // no such stage
}

QTEST_GUILESS_MAIN(tst_ControlAdmin)
#include "tst_controladmin.moc"
