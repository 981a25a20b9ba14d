// SPDX-License-Identifier: AGPL-3.0-or-later
// The control socket's protocol against a fake dispatcher, through a real
// QLocalSocket: every command and its reply, every bad input, the admin
// check (events and ticks: tst_controlsubscriptions).
#include "control/controlserver.h"
#include "controltestclient.h"
#include "directserverfixture.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTest>
#include <memory>

#include <unistd.h>

using namespace pepsi;
using namespace Qt::StringLiterals;

namespace {

// "result.stages.enrich.workers", "result.commands.0.cmd"
QJsonValue at(QJsonValue value, const QString &path)
{
    for (const QString &key : path.split(u'.', Qt::SkipEmptyParts)) {
        bool index = false;
        const int i = key.toInt(&index);
        value = index && value.isArray() ? value.toArray().at(i) : value.toObject().value(key);
    }
    return value;
}

QJsonValue parseValue(const QByteArray &text) { return QJsonDocument::fromJson("[" + text + "]").array().at(0); }

} // namespace

class tst_ControlServer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void requests_data();
    void requests();
    void everyCommandIsInHelp();
    void adminRefused_data();
    void adminRefused();
    void adminCommandsReachTheDaemon();
    void adminRequestIsLoggedCut();
    void queuesErrorInStatus();
    void messagesPageFitsTheLine();
    void messagesReasonsAndFilters();
    void metricsExposition();

private:
    std::unique_ptr<DirectServerFixture> m_daemon;
};

void tst_ControlServer::init()
{
    m_daemon = std::make_unique<DirectServerFixture>();
    QVERIFY(m_daemon->listen());
}

void tst_ControlServer::cleanup() { m_daemon.reset(); }

void tst_ControlServer::requests_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QString>("path");        // in the reply; for errors unused
    QTest::addColumn<QByteArray>("expected"); // JSON value at path, or a piece of the error

    // read commands and their fields
    QTest::newRow("help") << R"({"id":1,"cmd":"help"})"_ba << true << u"result.commands.0.cmd"_s << R"("drain")"_ba;
    QTest::newRow("help args") << R"({"cmd":"help"})"_ba << true << u"result.commands.0.args.0.name"_s
                               << R"("stage")"_ba;
    QTest::newRow("id echoed") << R"({"id":{"a":[1]},"cmd":"help"})"_ba << true << u"id.a.0"_s << "1"_ba;
    QTest::newRow("id absent") << R"({"cmd":"help"})"_ba << true << u"id"_s << "null"_ba;
    QTest::newRow("version protocol") << R"({"cmd":"version"})"_ba << true << u"result.protocol"_s << "1"_ba;
    QTest::newRow("version pid") << R"({"cmd":"version"})"_ba << true << u"result.pid"_s << "4242"_ba;
    QTest::newRow("version state") << R"({"cmd":"version"})"_ba << true << u"result.state"_s << R"("running")"_ba;
    QTest::newRow("version role") << R"({"cmd":"version"})"_ba << true << u"result.role"_s << R"("active")"_ba;
    QTest::newRow("version peer uid") << R"({"cmd":"version"})"_ba << true << u"result.peer.uid"_s
                                      << QByteArray::number(::geteuid());
    QTest::newRow("version peer pid") << R"({"cmd":"version"})"_ba << true << u"result.peer.pid"_s
                                      << QByteArray::number(::getpid());
    QTest::newRow("version peer admin") << R"({"cmd":"version"})"_ba << true << u"result.peer.admin"_s << "true"_ba;
    QTest::newRow("status workers") << R"({"cmd":"status"})"_ba << true << u"result.stages.enrich.workers"_s << "3"_ba;
    QTest::newRow("status busy") << R"({"cmd":"status"})"_ba << true << u"result.stages.enrich.busy"_s << "2"_ba;
    QTest::newRow("status in_flight") << R"({"cmd":"status"})"_ba << true << u"result.stages.enrich.in_flight"_s
                                      << "5"_ba;
    QTest::newRow("status capacity") << R"({"cmd":"status"})"_ba << true << u"result.stages.enrich.capacity"_s
                                     << "16"_ba;
    QTest::newRow("status cooldown") << R"({"cmd":"status"})"_ba << true << u"result.stages.score.cooldown"_s
                                     << "true"_ba;
    QTest::newRow("status cooldown reason")
        << R"({"cmd":"status"})"_ba << true << u"result.stages.score.cooldown_reason"_s
        << R"("PROGRAM \"/usr/lib/pepsi/score\" does not exist")"_ba;
    QTest::newRow("status no cooldown") << R"({"cmd":"status"})"_ba << true << u"result.stages.enrich.cooldown_until"_s
                                        << "null"_ba;
    QTest::newRow("status drained") << R"({"cmd":"status"})"_ba << true << u"result.stages.enrich.drained"_s
                                    << "false"_ba;
    QTest::newRow("status queue") << R"({"cmd":"status"})"_ba << true << u"result.stages.enrich.queue.pending"_s
                                  << "1200"_ba;
    QTest::newRow("status stats") << R"({"cmd":"status"})"_ba << true << u"result.stages.enrich.stats.crashes"_s
                                  << "1"_ba;
    QTest::newRow("status totals") << R"({"cmd":"status"})"_ba << true << u"result.totals.capacity"_s << "16"_ba;
    QTest::newRow("status totals claimed")
        << R"({"cmd":"status"})"_ba << true << u"result.totals.claimed"_s << "120"_ba;
    QTest::newRow("stages name") << R"({"cmd":"stages"})"_ba << true << u"result.stages.0.name"_s << R"("enrich")"_ba;
    QTest::newRow("stages next") << R"({"cmd":"stages"})"_ba << true << u"result.stages.0.next.0"_s << R"("score")"_ba;
    QTest::newRow("stages predecessors") << R"({"cmd":"stages"})"_ba << true << u"result.stages.1.predecessors.0"_s
                                         << R"("enrich")"_ba;
    QTest::newRow("stages parallelism") << R"({"cmd":"stages"})"_ba << true << u"result.stages.1.parallelism"_s
                                        << "2"_ba;
    QTest::newRow("stages settings") << R"({"cmd":"stages"})"_ba << true << u"result.settings.max_runtime_ms"_s
                                     << "300000"_ba;
    QTest::newRow("workers pid") << R"({"cmd":"workers"})"_ba << true << u"result.0.pid"_s << "5001"_ba;
    QTest::newRow("workers head") << R"({"cmd":"workers"})"_ba << true << u"result.0.head_id"_s << "88"_ba;
    QTest::newRow("workers ids") << R"({"cmd":"workers"})"_ba << true << u"result.0.ids.2"_s << "90"_ba;
    QTest::newRow("workers state") << R"({"cmd":"workers"})"_ba << true << u"result.0.state"_s << R"("running")"_ba;
    QTest::newRow("queues pending") << R"({"cmd":"queues"})"_ba << true << u"result.stages.enrich.pending"_s
                                    << "1200"_ba;
    QTest::newRow("queues oldest") << R"({"cmd":"queues"})"_ba << true
                                   << u"result.stages.enrich.oldest_pending_age_ms"_s << "5400"_ba;
    QTest::newRow("queues none pending") << R"({"cmd":"queues"})"_ba << true
                                         << u"result.stages.score.oldest_pending_age_ms"_s << "null"_ba;
    QTest::newRow("queues pending_ages") << R"({"cmd":"queues"})"_ba << true
                                         << u"result.stages.enrich.pending_ages.1s"_s << "1000"_ba;
    QTest::newRow("queues pending_ages older")
        << R"({"cmd":"queues"})"_ba << true << u"result.stages.score.pending_ages.older"_s << "0"_ba;
    QTest::newRow("status pending_ages") << R"({"cmd":"status"})"_ba << true
                                         << u"result.stages.enrich.queue.pending_ages.10s"_s << "150"_ba;
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
    QTest::newRow("stats totals") << R"({"cmd":"stats"})"_ba << true << u"result.totals.stage_runs"_s << "360"_ba;
    QTest::newRow("stats stage") << R"({"cmd":"stats"})"_ba << true << u"result.stages.enrich.busy_usec"_s
                                 << "8123456"_ba;
    QTest::newRow("subscribe") << R"({"cmd":"subscribe"})"_ba << true << u"result.subscribed"_s << "true"_ba;
    QTest::newRow("subscribe filtered") << R"({"cmd":"subscribe","events":["tick"]})"_ba << true << u"result.seq"_s
                                        << "0"_ba;
    QTest::newRow("unsubscribe") << R"({"cmd":"unsubscribe"})"_ba << true << u"result.subscribed"_s << "false"_ba;
    QTest::newRow("extra argument ignored")
        << R"({"cmd":"version","verbose":true})"_ba << true << u"result.protocol"_s << "1"_ba;

    // every bad input: an error reply naming what is wrong
    QTest::newRow("bad JSON") << R"({"cmd":)"_ba << false << QString() << "bad JSON"_ba;
    QTest::newRow("not an object") << R"(["help"])"_ba << false << QString() << "must be a JSON object"_ba;
    QTest::newRow("a number") << "42"_ba << false << QString() << "bad JSON"_ba;
    QTest::newRow("missing cmd") << R"({"id":7})"_ba << false << QString() << R"(missing "cmd")"_ba;
    QTest::newRow("cmd not a string") << R"({"cmd":3})"_ba << false << QString() << R"("cmd" must be a string)"_ba;
    QTest::newRow("unknown command") << R"({"cmd":"shutdown"})"_ba << false << QString()
                                     << R"(unknown command "shutdown")"_ba;
    QTest::newRow("missing stage") << R"({"cmd":"drain"})"_ba << false << QString()
                                   << R"(needs the argument "stage")"_ba;
    QTest::newRow("null stage") << R"({"cmd":"drain","stage":null})"_ba << false << QString()
                                << R"(needs the argument "stage")"_ba;
    QTest::newRow("stage a number") << R"({"cmd":"drain","stage":5})"_ba << false << QString()
                                    << R"("stage" must be a string)"_ba;
    QTest::newRow("unknown stage") << R"({"cmd":"resume","stage":"nope"})"_ba << false << QString()
                                   << R"(unknown stage "nope")"_ba;
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
    // A command name goes into the reply (and no further) cut to 64 characters.
    QTest::newRow("unknown command of 1000 characters")
        << QByteArray(R"({"cmd":")" + QByteArray(1000, 'x') + R"("})") << false << QString()
        << QByteArray(R"(unknown command ")" + QByteArray(64, 'x') + R"(" ("help")");
    QTest::newRow("subscribe unknown event") << R"({"cmd":"subscribe","events":["worker_born"]})"_ba << false
                                             << QString() << R"(unknown event "worker_born")"_ba;
    QTest::newRow("subscribe events not a list")
        << R"({"cmd":"subscribe","events":"tick"})"_ba << false << QString() << "must be an array of strings"_ba;
}

void tst_ControlServer::requests()
{
    QFETCH(QByteArray, line);
    QFETCH(bool, ok);
    QFETCH(QString, path);
    QFETCH(QByteArray, expected);

    ControlTestClient client;
    QVERIFY(client.connectTo(m_daemon->path()));
    const QJsonObject reply = client.request(line);
    QVERIFY2(!reply.isEmpty(), "no reply");
    QCOMPARE(reply.value(u"ok"_s).toBool(), ok);
    if (ok) {
        QVERIFY(!reply.contains(u"error"_s));
        QCOMPARE(at(reply, path), parseValue(expected));
    } else {
        QVERIFY(!reply.contains(u"result"_s));
        const QString error = reply.value(u"error"_s).toString();
        QVERIFY2(error.contains(QString::fromUtf8(expected)), qPrintable(error));
    }
    // The id comes back even with an error, and the connection stays usable.
    if (const QJsonDocument sent = QJsonDocument::fromJson(line); sent.isObject() && sent.object().contains(u"id"_s))
        QCOMPARE(reply.value(u"id"_s), sent.object().value(u"id"_s));
    const QJsonObject again = client.request(R"({"id":"next","cmd":"version"})"_ba);
    QCOMPARE(again.value(u"id"_s).toString(), u"next"_s);
    QCOMPARE(again.value(u"ok"_s).toBool(), true);
    QCOMPARE(m_daemon->server().clientCount(), 1);
}

void tst_ControlServer::everyCommandIsInHelp()
{
    ControlTestClient client;
    QVERIFY(client.connectTo(m_daemon->path()));
    const QJsonArray commands = client.request(R"({"cmd":"help"})"_ba).value(u"result"_s)[u"commands"_s].toArray();
    QStringList names, admin;
    for (const QJsonValue &command : commands) {
        names << command[u"cmd"_s].toString();
        if (command[u"admin"_s].toBool())
            admin << command[u"cmd"_s].toString();
        QVERIFY(!command[u"summary"_s].toString().isEmpty());
    }
    QCOMPARE(names,
             QStringList({u"drain"_s, u"help"_s, u"message"_s, u"messages"_s, u"metrics"_s, u"queues"_s, u"reload"_s,
                          u"requeue"_s, u"resume"_s, u"set"_s, u"stages"_s, u"stats"_s, u"status"_s, u"subscribe"_s,
                          u"unsubscribe"_s, u"version"_s, u"workers"_s}));
    QCOMPARE(admin, QStringList({u"drain"_s, u"reload"_s, u"requeue"_s, u"resume"_s, u"set"_s}));
    // Every command answers something other than "unknown command".
    for (const QString &name : std::as_const(names)) {
        const QJsonObject reply = client.request(QJsonObject{{u"cmd"_s, name}});
        QVERIFY2(!reply.value(u"error"_s).toString().contains(u"unknown command"_s), qPrintable(name));
    }
}

void tst_ControlServer::adminRefused_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::newRow("reload") << R"({"cmd":"reload"})"_ba;
    QTest::newRow("drain") << R"({"cmd":"drain","stage":"enrich"})"_ba;
    QTest::newRow("resume") << R"({"cmd":"resume","stage":"enrich"})"_ba;
    QTest::newRow("requeue") << R"({"cmd":"requeue","stage":"enrich","status":"failed"})"_ba;
    QTest::newRow("set") << R"({"cmd":"set","stage":"enrich","option":"PARALLELISM","value":2})"_ba;
}

void tst_ControlServer::adminRefused()
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

void tst_ControlServer::adminCommandsReachTheDaemon()
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
    QCOMPARE(client.request(R"({"cmd":"set","stage":"score","option":"MAX_MESSAGES","value":"50"})"_ba)
                 .value(u"ok"_s)
                 .toBool(),
             true);
    QCOMPARE(m_daemon->dispatch().m_calls,
             QStringList({u"drain enrich "_s + uid, u"resume enrich "_s + uid, u"reload "_s + uid,
                          u"requeue enrich failed "_s + uid + u" ids=4,5 age=60000 limit=7"_s,
                          u"set stage-score MAX_MESSAGES 50 "_s + uid}));
}

// A page of 500 rows with long reasons passes the line limit: refused, naming "limit"; fewer rows fit.
void tst_ControlServer::messagesPageFitsTheLine()
{
    for (qint64 id = 1000; id < 1500; ++id)
        m_daemon->dispatch().m_messages.append(
            MessageRow{id, u"score"_s, u"failed"_s, 1, QDateTime::currentDateTimeUtc(), QString(1000, u'r')});
    ControlTestClient client;
    QVERIFY(client.connectTo(m_daemon->path()));
    const QJsonObject refused =
        client.request(R"({"cmd":"messages","stage":"score","status":"failed","limit":500})"_ba);
    QCOMPARE(refused.value(u"ok"_s).toBool(), false);
    QVERIFY2(refused.value(u"error"_s).toString().contains(u"ask for fewer rows (a \"limit\" below 500)"_s),
             qPrintable(refused.value(u"error"_s).toString()));
    const QJsonObject page = client.request(R"({"cmd":"messages","stage":"score","status":"failed","limit":50})"_ba);
    QCOMPARE(page.value(u"result"_s)[u"messages"_s].toArray().size(), 50);
    QCOMPARE(page.value(u"result"_s)[u"next_after_id"_s].toInteger(), 1049);
}

// `messages` with "reasons": the reasons with counts and times instead of
// rows; "reason" and "max_age_ms" reach the dispatcher; bad ones are named.
void tst_ControlServer::messagesReasonsAndFilters()
{
    m_daemon->dispatch().m_messages.clear();
    const QDateTime now = QDateTime::currentDateTimeUtc();
    for (qint64 id = 1; id <= 5; ++id)
        m_daemon->dispatch().m_messages.append(
            MessageRow{id, u"score"_s, u"failed"_s, 1, now.addSecs(-id), id <= 3 ? u"a"_s : u"b"_s});
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

// The Prometheus text: HELP and TYPE per family, every stage labelled, label values escaped.
void tst_ControlServer::metricsExposition()
{
    PoolSnapshot odd;
    odd.stage = u"we\"ird\\stage\n"_s;
    m_daemon->dispatch().m_pools.append(odd);
    m_daemon->dispatch().m_drained.insert(odd.stage);
    ControlTestClient client;
    QVERIFY(client.connectTo(m_daemon->path()));
    const QString text = client.request(R"({"cmd":"metrics"})"_ba).value(u"result"_s)[u"text"_s].toString();
    const QStringList lines = text.split(u'\n', Qt::SkipEmptyParts);
    for (const QString &line : {u"# TYPE pepsi_dispatch_up gauge"_s,
                                u"pepsi_dispatch_up 1"_s,
                                u"pepsi_dispatch_running 1"_s,
                                u"pepsi_dispatch_workers{stage=\"enrich\"} 3"_s,
                                u"pepsi_dispatch_busy_workers{stage=\"enrich\"} 2"_s,
                                u"pepsi_dispatch_in_flight{stage=\"enrich\"} 5"_s,
                                u"pepsi_dispatch_capacity{stage=\"enrich\"} 16"_s,
                                u"pepsi_dispatch_cooldown{stage=\"score\"} 1"_s,
                                u"pepsi_dispatch_cooldown{stage=\"enrich\"} 0"_s,
                                u"pepsi_dispatch_drained{stage=\"we\\\"ird\\\\stage\\n\"} 1"_s,
                                u"pepsi_dispatch_queue_messages{stage=\"enrich\",status=\"pending\"} 1200"_s,
                                u"pepsi_dispatch_queue_messages{stage=\"score\",status=\"timeout\"} 2"_s,
                                u"pepsi_dispatch_oldest_pending_age_seconds{stage=\"enrich\"} 5.400"_s,
                                u"pepsi_dispatch_pending_messages_by_age{stage=\"enrich\",age=\"1s\"} 1000"_s,
                                u"# TYPE pepsi_dispatch_runs_total counter"_s,
                                u"pepsi_dispatch_runs_total{stage=\"enrich\"} 52"_s,
                                u"pepsi_dispatch_failures_total{stage=\"enrich\"} 12"_s,
                                u"pepsi_dispatch_failures_total{stage=\"score\"} 0"_s,
                                u"pepsi_dispatch_crashes_total{stage=\"enrich\"} 1"_s,
                                u"pepsi_dispatch_claimed_total 120"_s})
        QVERIFY2(lines.contains(line), qPrintable(line + u"\n--- not in ---\n"_s + text));
    // Every sample's family has its HELP and TYPE before it.
    QSet<QString> typed;
    for (const QString &line : lines) {
        if (line.startsWith(u"# TYPE "_s))
            typed.insert(line.section(u' ', 2, 2));
        else if (!line.startsWith(u'#'))
            QVERIFY2(typed.contains(line.section(u'{', 0, 0).section(u' ', 0, 0)), qPrintable(line));
    }
    // Without queue counts (the database down) the rest is still there.
    m_daemon->dispatch().m_queuesError = u"the database is unreachable"_s;
    const QString down = client.request(R"({"cmd":"metrics"})"_ba).value(u"result"_s)[u"text"_s].toString();
    QVERIFY(down.contains(u"pepsi_dispatch_up 1\n"_s));
    QVERIFY(!down.contains(u"pepsi_dispatch_queue_messages"_s));
}

void tst_ControlServer::adminRequestIsLoggedCut()
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

void tst_ControlServer::queuesErrorInStatus()
{
    m_daemon->dispatch().m_queuesError = u"the database is unreachable"_s;
    ControlTestClient client;
    QVERIFY(client.connectTo(m_daemon->path()));
    const QJsonObject status = client.request(R"({"cmd":"status"})"_ba).value(u"result"_s).toObject();
    QCOMPARE(status.value(u"queues_error"_s).toString(), u"the database is unreachable"_s);
    QVERIFY(status.value(u"stages"_s)[u"enrich"_s][u"queue"_s].isNull());
    QCOMPARE(status.value(u"stages"_s)[u"enrich"_s][u"workers"_s].toInt(), 3);
    const QJsonObject queues = client.request(R"({"cmd":"queues"})"_ba);
    QCOMPARE(queues.value(u"ok"_s).toBool(), false);
    QVERIFY(queues.value(u"error"_s).toString().contains(u"unreachable"_s));
}

QTEST_GUILESS_MAIN(tst_ControlServer)
#include "tst_controlserver.moc"
