// SPDX-License-Identifier: AGPL-3.0-or-later
// The control socket's read commands against a fake dispatcher, through a
// real QLocalSocket: each one's reply, every bad input, the metrics text
// (messages and message: tst_controlmessages; the admin commands:
// tst_controladmin; events and ticks: tst_controlsubscriptions).
#include "control/controlserver.h"
#include "controltestclient.h"
#include "directserverfixture.h"
#include "requesttable.h"

#include <QJsonArray>
#include <QTest>
#include <memory>

#include <unistd.h>

using namespace pepsi;
using namespace Qt::StringLiterals;

class tst_ControlServer : public DirectServerTest
{
    Q_OBJECT

private Q_SLOTS:
    void requests_data();
    void requests();
    void everyCommandIsInHelp();
    void queuesErrorInStatus();
    void metricsExposition();
};

void tst_ControlServer::requests_data()
{
    addRequestColumns();

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
    verifyRequest(*m_daemon, line, ok, path, expected);
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
             QStringList({u"drain"_s, u"help"_s, u"message"_s, u"messages"_s, u"metrics"_s, u"queues"_s, u"reasons"_s,
                          u"reload"_s, u"requeue"_s, u"resume"_s, u"set"_s, u"stages"_s, u"stats"_s, u"status"_s,
                          u"subscribe"_s, u"unset"_s, u"unsubscribe"_s, u"version"_s, u"workers"_s}));
    QCOMPARE(admin, QStringList({u"drain"_s, u"reload"_s, u"requeue"_s, u"resume"_s, u"set"_s, u"unset"_s}));
    // Every command answers something other than "unknown command".
    for (const QString &name : std::as_const(names)) {
        const QJsonObject reply = client.request(QJsonObject{{u"cmd"_s, name}});
        QVERIFY2(!reply.value(u"error"_s).toString().contains(u"unknown command"_s), qPrintable(name));
    }
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
