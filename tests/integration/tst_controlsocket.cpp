// SPDX-License-Identifier: AGPL-3.0-or-later
// The control protocol of a real pepsi-dispatch with a flowing pipeline: every
// command and every documented field, the round trip of `status` while 5,000
// messages flow, `status` answered at once while a queue count waits, and
// `queues` and requeue's rows while the dispatch loop waits
// (messages, message and set against the tables: tst_controlrows; the
// documented scripts and promtool: tst_controlscripts).
#include "controlchecks.h"
#include "controltestclient.h"
#include "daemonprocess.h"
#include "daemontest.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QSqlQuery>

#include <algorithm>
#include <memory>

using namespace Qt::StringLiterals;

class tst_ControlSocket : public DaemonTest
{
    Q_OBJECT

private Q_SLOTS:
    void everyCommandAndField();
    void statusRoundTripWhileFlowing();
    void statusDoesNotWaitForACount();
    void operatorQueriesDoNotWaitForTheLoop();
};

// Every command, and every documented field of its reply, while messages flow.
void tst_ControlSocket::everyCommandAndField()
{
    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"a"_s, DaemonProcess::fakeWorker(), {{u"NEXT"_s, u"b"_s}});
    daemon.addStage(u"b"_s, DaemonProcess::fakeWorker(), {{u"PARALLELISM"_s, u"2"_s}});
    QVERIFY(startReady(daemon));
    ControlTestClient client;
    QVERIFY(client.connectTo(daemon.controlSocket()));
    QVERIFY(client.request(R"({"cmd":"subscribe"})"_ba).value(u"ok"_s).toBool());
    QueueProbe probe(m_db->db());
    QVERIFY(!probe.insert(u"a"_s, 2000, {{u"a"_s, u"slow:2"_s}}).isEmpty());

    // help
    const QJsonObject help = client.request(R"({"cmd":"help"})"_ba).value(u"result"_s).toObject();
    QCOMPARE(help.value(u"commands"_s).toArray().size(), 19);
    VERIFY_FIELDS(help.value(u"commands"_s)[0], u"cmd"_s, u"admin"_s, u"summary"_s, u"args"_s);
    QVERIFY(help.value(u"events"_s).toArray().contains(u"worker_crashed"_s));

    // version
    const QJsonObject version = client.request(R"({"id":1,"cmd":"version"})"_ba).value(u"result"_s).toObject();
    VERIFY_FIELDS(version, u"daemon"_s, u"protocol"_s, u"pid"_s, u"started"_s, u"uptime_ms"_s, u"host"_s, u"database"_s,
                  u"user"_s, u"role"_s, u"state"_s, u"standby"_s, u"peer"_s);
    QCOMPARE(version.value(u"protocol"_s).toInt(), 1);
    QCOMPARE(qint64(version.value(u"pid"_s).toDouble()), daemon.pid());
    QCOMPARE(version.value(u"database"_s).toString(), m_db->name());
    QCOMPARE(version.value(u"user"_s).toString(),
             DaemonProcess::runningAsRoot() ? DaemonProcess::serviceUser() : version.value(u"user"_s).toString());
    QCOMPARE(version.value(u"role"_s).toString(), u"active"_s);
    QCOMPARE(version.value(u"state"_s).toString(), u"running"_s);
    QCOMPARE(version.value(u"standby"_s).toBool(), false);
    QCOMPARE(version.value(u"peer"_s)[u"pid"_s].toInteger(), QCoreApplication::applicationPid());
    QCOMPARE(version.value(u"peer"_s)[u"admin"_s].toBool(), true);
    QVERIFY(version.value(u"uptime_ms"_s).toInt() >= 0);

    // workers: some are busy while the 2,000 flow
    QJsonArray workers;
    QTRY_VERIFY_WITH_TIMEOUT(
        (workers = client.request(R"({"cmd":"workers"})"_ba).value(u"result"_s).toArray(), !workers.isEmpty()), 10000);
    const QList<qint64> children = daemon.workerPids();
    for (const QJsonValue &worker : std::as_const(workers)) {
        VERIFY_FIELDS(worker, u"pid"_s, u"stage"_s, u"state"_s, u"retiring"_s, u"messages"_s, u"uptime_ms"_s, u"ids"_s,
                      u"head_id"_s, u"head_age_ms"_s, u"max_runtime_ms"_s);
        QVERIFY2(children.contains(qint64(worker[u"pid"_s].toDouble()))
                     || worker[u"state"_s].toString() == u"stopping"_s,
                 qPrintable(QString::number(worker[u"pid"_s].toDouble())));
        QVERIFY(QStringList({u"a"_s, u"b"_s}).contains(worker[u"stage"_s].toString()));
        const QJsonArray ids = worker[u"ids"_s].toArray();
        QVERIFY(ids.size() <= 4);
        if (!ids.isEmpty())
            QCOMPARE(worker[u"head_id"_s].toDouble(), ids.first().toDouble());
        else
            QVERIFY(worker[u"head_id"_s].isNull());
        QCOMPARE(worker[u"max_runtime_ms"_s].toInt(), 300000);
    }

    // status: one snapshot of pools, queues and statistics
    const QJsonObject status = client.request(R"({"cmd":"status"})"_ba).value(u"result"_s).toObject();
    VERIFY_FIELDS(status, u"time"_s, u"state"_s, u"totals"_s, u"queues_at"_s, u"stages"_s);
    VERIFY_FIELDS(status.value(u"totals"_s), u"workers"_s, u"busy"_s, u"in_flight"_s, u"capacity"_s, u"claimed"_s,
                  u"rounds"_s, u"stage_runs"_s, u"messages"_s, u"rate_10s"_s, u"rate_60s"_s);
    QCOMPARE(keysOf(status.value(u"stages"_s)), QStringList({u"a"_s, u"b"_s}));
    int workerSum = 0;
    for (const QString &stage : {u"a"_s, u"b"_s}) {
        const QJsonValue pool = status.value(u"stages"_s)[stage];
        VERIFY_FIELDS(pool, u"workers"_s, u"busy"_s, u"idle"_s, u"starting"_s, u"retiring"_s, u"parallelism"_s,
                      u"queue_limit"_s, u"in_flight"_s, u"capacity"_s, u"cooldown"_s, u"cooldown_until"_s,
                      u"cooldown_reason"_s, u"drained"_s, u"queue"_s, u"stats"_s);
        QCOMPARE(pool[u"workers"_s].toInt(),
                 pool[u"busy"_s].toInt() + pool[u"idle"_s].toInt() + pool[u"starting"_s].toInt()
                     + pool[u"retiring"_s].toInt());
        QVERIFY(pool[u"workers"_s].toInt() <= pool[u"parallelism"_s].toInt());
        QVERIFY(pool[u"in_flight"_s].toInt() <= pool[u"capacity"_s].toInt());
        QCOMPARE(pool[u"cooldown"_s].toBool(), false);
        QCOMPARE(pool[u"drained"_s].toBool(), false);
        VERIFY_FIELDS(pool[u"queue"_s], u"pending"_s, u"running"_s, u"paused"_s, u"failed"_s, u"timeout"_s,
                      u"oldest_pending_age_ms"_s, u"pending_ages"_s);
        VERIFY_FIELDS(pool[u"queue"_s][u"pending_ages"_s], u"1s"_s, u"10s"_s, u"1m"_s, u"10m"_s, u"1h"_s, u"older"_s);
        VERIFY_FIELDS(pool[u"stats"_s], u"runs"_s, u"failures"_s, u"timeouts"_s, u"crashes"_s, u"busy_usec"_s,
                      u"rate_10s"_s, u"rate_60s"_s);
        workerSum += pool[u"workers"_s].toInt();
    }
    QCOMPARE(status.value(u"stages"_s)[u"a"_s][u"capacity"_s].toInt(), 16);
    QCOMPARE(status.value(u"stages"_s)[u"b"_s][u"capacity"_s].toInt(), 8);
    QCOMPARE(status.value(u"totals"_s)[u"workers"_s].toInt(), workerSum);
    QVERIFY(status.value(u"totals"_s)[u"claimed"_s].toInt() > 0);

    // stages
    const QJsonObject stages = client.request(R"({"cmd":"stages"})"_ba).value(u"result"_s).toObject();
    const QJsonArray list = stages.value(u"stages"_s).toArray();
    QCOMPARE(list.size(), 2);
    VERIFY_FIELDS(list[0], u"name"_s, u"program"_s, u"parallelism"_s, u"queue_limit"_s, u"max_messages"_s, u"next"_s,
                  u"fuse"_s, u"predecessors"_s, u"drained"_s);
    QCOMPARE(list[0][u"name"_s].toString(), u"a"_s);
    QCOMPARE(list[0][u"next"_s].toArray(), QJsonArray({u"b"_s}));
    QCOMPARE(list[1][u"predecessors"_s].toArray(), QJsonArray({u"a"_s}));
    QCOMPARE(list[1][u"program"_s].toString(), DaemonProcess::fakeWorker());
    VERIFY_FIELDS(stages.value(u"settings"_s), u"max_runtime_ms"_s, u"worker_idle_timeout_ms"_s, u"poll_interval_ms"_s,
                  u"stats_interval_ms"_s, u"tempfail_delay_ms"_s, u"db_pool_size"_s, u"config_file"_s);
    QCOMPARE(stages.value(u"settings"_s)[u"config_file"_s].toString(), daemon.configPath());

    // queues: cached for at most a second
    const QJsonObject queues = client.request(R"({"cmd":"queues"})"_ba).value(u"result"_s).toObject();
    VERIFY_FIELDS(queues, u"at"_s, u"age_ms"_s, u"stages"_s);
    QVERIFY(queues.value(u"age_ms"_s).toInt() <= 1000);
    QVERIFY(queues.value(u"stages"_s).toObject().contains(u"a"_s));
    QVERIFY(queues.value(u"stages"_s).toObject().contains(u"b"_s));

    // reload, and its event
    const QJsonObject reload = client.request(R"({"cmd":"reload"})"_ba);
    QCOMPARE(reload.value(u"result"_s)[u"stages"_s].toArray(), QJsonArray({u"a"_s, u"b"_s}));
    const auto reloadEvent = client.takeEvent(u"reload"_s);
    QVERIFY(reloadEvent);
    QCOMPARE(reloadEvent->value(u"source"_s).toString(), u"socket"_s);

    // Everything finishes; the statistics and the events say so.
    QTRY_COMPARE_WITH_TIMEOUT(probe.count(u"status = 'done'"_s), 2000, 60000);
    // A worker's row is done before the daemon reads its answer, and the
    // socket sees what the dispatch loop published (within 50 ms of it).
    QJsonObject stats;
    QTRY_COMPARE(
        (stats = client.request(R"({"cmd":"stats"})"_ba).value(u"result"_s).toObject())[u"totals"_s][u"messages"_s]
            .toInt(),
        2000);
    VERIFY_FIELDS(stats, u"since"_s, u"totals"_s, u"stages"_s);
    QCOMPARE(stats.value(u"totals"_s)[u"stage_runs"_s].toInt(), 4000);
    QCOMPARE(stats.value(u"stages"_s)[u"a"_s][u"runs"_s].toInt(), 2000);
    QCOMPARE(stats.value(u"stages"_s)[u"b"_s][u"runs"_s].toInt(), 2000);
    QVERIFY(stats.value(u"totals"_s)[u"claimed"_s].toInt() >= 4000);
    QVERIFY(stats.value(u"totals"_s)[u"rate_60s"_s].toDouble() > 0);
    const auto tick = client.takeEvent(u"tick"_s, 3000);
    QVERIFY(tick);
    VERIFY_FIELDS(*tick, u"seq"_s, u"time"_s, u"claimed"_s, u"completed"_s, u"in_flight"_s, u"workers"_s, u"rate_10s"_s,
                  u"stages"_s);
    VERIFY_FIELDS(tick->value(u"stages"_s)[u"a"_s], u"rate_10s"_s, u"in_flight"_s, u"busy"_s, u"workers"_s);
    QSet<qint64> startedPids;
    for (const QJsonObject &event : std::as_const(client.events)) {
        if (event.value(u"event"_s).toString() == u"worker_started"_s) {
            VERIFY_FIELDS(event, u"pid"_s, u"stage"_s, u"seq"_s, u"time"_s);
            startedPids.insert(qint64(event.value(u"pid"_s).toDouble()));
        }
    }
    for (const QJsonValue &worker : std::as_const(workers))
        QVERIFY(startedPids.contains(qint64(worker[u"pid"_s].toDouble())));
    QVERIFY(client.request(R"({"cmd":"unsubscribe"})"_ba).value(u"result"_s)[u"subscribed"_s].isBool());
    QCOMPARE(daemon.terminate(), 0);
    QVERIFY(!QFile::exists(daemon.controlSocket()));
}

// The figure the issue asks for: `status` answered while 5,000 messages flow.
void tst_ControlSocket::statusRoundTripWhileFlowing()
{
    constexpr int StatusSpacingMs = 20;
    DaemonProcess daemon(m_db->uri());
    ControlTestClient client;
    QVERIFY(startTwoStages(daemon, client));
    QueueProbe probe(m_db->db());
    QElapsedTimer flow;
    flow.start();
    QVERIFY(!probe.insert(u"a"_s, 5000).isEmpty());

    QList<double> rtts;
    int done = 0;
    QElapsedTimer checkDone;
    checkDone.start();
    while (done < 5000 && flow.elapsed() < 120000) {
        QElapsedTimer rtt;
        rtt.start();
        const QJsonObject reply = client.requestBlocking(R"({"cmd":"status"})"_ba);
        rtts.append(double(rtt.nsecsElapsed()) / 1e6);
        QVERIFY(reply.value(u"ok"_s).toBool());
        // The pace of a busy poller, not a wait for anything; it also runs
        // the event loop, which reads the daemon's log (or it would block).
        QTest::qWait(StatusSpacingMs);
        if (checkDone.elapsed() > 250) {
            done = probe.count(u"status = 'done'"_s);
            checkDone.restart();
        }
    }
    QCOMPARE(probe.count(u"status = 'done'"_s), 5000);
    std::sort(rtts.begin(), rtts.end());
    const auto pct = [&rtts](double p) {
        return rtts.at(std::min<qsizetype>(rtts.size() - 1, qsizetype(p * rtts.size())));
    };
    qInfo("status round trip while 5,000 messages flowed through 2 stages (%.1f s): %lld requests, "
          "median %.2f ms, p95 %.2f ms, max %.2f ms",
          double(flow.elapsed()) / 1000, qint64(rtts.size()), pct(0.5), pct(0.95), rtts.last());
    QVERIFY(rtts.size() >= 10);
    QCOMPARE(daemon.terminate(), 0);
}

// While a queue count waits (here on a lock, in production on a long
// history), `status` answers at once with the last counts and says how old
// they are; `queues` waits for a fresh count; both see it once it arrives.
void tst_ControlSocket::statusDoesNotWaitForACount()
{
    DaemonProcess daemon(m_db->uri());
    daemon.setOption(u"DB_LOCK_TIMEOUT"_s, u"60 s"_s);
    daemon.setOption(u"DB_STATEMENT_TIMEOUT"_s, u"60 s"_s);
    daemon.setOption(u"POLL_INTERVAL"_s, u"1 h"_s); // nothing else reads workqueue meanwhile
    daemon.addStage(u"a"_s, DaemonProcess::fakeWorker());
    QVERIFY(startReady(daemon));
    ControlTestClient client;
    QVERIFY(client.connectTo(daemon.controlSocket()));
    const QJsonObject first = client.request(R"({"cmd":"status"})"_ba);
    QVERIFY(first.value(u"ok"_s).toBool());
    const QString countedAt = first[u"result"_s][u"queues_at"_s].toString();
    QVERIFY(!countedAt.isEmpty());

    QSqlDatabase holder = m_db->newConnection(u"holder"_s);
    QSqlQuery hold(holder);
    QVERIFY(hold.exec(u"BEGIN"_s));
    QVERIFY(hold.exec(u"LOCK TABLE workqueue IN ACCESS EXCLUSIVE MODE"_s));
    // Once the counts are older than a second, a status starts a count, which
    // waits for the lock; every status meanwhile answers with the old counts.
    const QString waiting = u"SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation "
                            "WHERE c.relname = 'workqueue' AND NOT l.granted"_s;
    int answered = 0;
    const auto statusThenWaiting = [&] {
        const QJsonObject reply = client.requestBlocking(R"({"cmd":"status"})"_ba, 2000);
        if (reply.value(u"ok"_s).toBool() && reply[u"result"_s][u"queues_at"_s].toString() == countedAt)
            ++answered;
        return m_db->scalar(waiting);
    };
    QTRY_COMPARE_WITH_TIMEOUT(statusThenWaiting(), 1, 10000);
    const QJsonObject stale = client.requestBlocking(R"({"cmd":"status"})"_ba, 2000);
    QVERIFY(stale.value(u"ok"_s).toBool());
    QCOMPARE(stale[u"result"_s][u"queues_at"_s].toString(), countedAt);
    QVERIFY(stale[u"result"_s][u"stages"_s][u"a"_s][u"queue"_s].isObject());

    // `queues` asks for fresh counts: its reply comes once the lock is gone.
    client.sendRaw(R"({"id":"q","cmd":"queues"})"_ba + '\n');
    QVERIFY(hold.exec(u"ROLLBACK"_s));
    const std::optional<QJsonObject> fresh = client.nextLine(10000);
    QVERIFY(fresh.has_value());
    QCOMPARE(fresh->value(u"id"_s).toString(), u"q"_s);
    QVERIFY(fresh->value(u"ok"_s).toBool());
    QVERIFY((*fresh)[u"result"_s][u"at"_s].toString() > countedAt);
    const QJsonObject after = client.request(R"({"cmd":"status"})"_ba);
    QVERIFY(after[u"result"_s][u"queues_at"_s].toString() > countedAt);
    QVERIFY(answered >= 1);
    QCOMPARE(daemon.terminate(), 0);
}

// The dispatch loop held inside a statement (the watchdog's write to a
// running row the test holds locked, lock_timeout 60 s): `queues` is counted
// and answered meanwhile, and a requeue moves its rows; the loop hears of
// the requeue, and the client of it, once the loop runs again.
void tst_ControlSocket::operatorQueriesDoNotWaitForTheLoop()
{
    DaemonProcess daemon(m_db->uri());
    daemon.setOption(u"DB_LOCK_TIMEOUT"_s, u"60 s"_s);
    daemon.setOption(u"DB_STATEMENT_TIMEOUT"_s, u"60 s"_s);
    daemon.setOption(u"MAX_RUNTIME"_s, u"2 s"_s);
    daemon.addStage(u"s"_s, DaemonProcess::fakeWorker());
    QVERIFY(startReady(daemon));
    QueueProbe probe(m_db->db());
    const QList<qint64> ids = probe.insertModes(u"s"_s, {u"fail:4"_s, u"hang"_s});
    QCOMPARE(ids.size(), 2);
    QTRY_COMPARE_WITH_TIMEOUT(probe.row(ids[0])->status, u"failed"_s, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(probe.row(ids[1])->status, u"running"_s, 5000);
    QSqlDatabase locker = m_db->newConnection(u"locker"_s);
    QVERIFY(locker.transaction());
    QSqlQuery lock(locker);
    QVERIFY(lock.exec(u"SELECT 1 FROM workqueue WHERE workqueue_id = %1 FOR UPDATE"_s.arg(ids[1])));
    const QString loopWaits = u"SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                              "AND application_name LIKE 'pepsi-dispatch % pid %1 %'"_s.arg(daemon.pid());
    QTRY_COMPARE_WITH_TIMEOUT(probe.scalar(loopWaits), qint64(1), 5000);

    ControlTestClient client;
    QVERIFY(client.connectTo(daemon.controlSocket()));
    client.sendRaw(R"({"id":"q","cmd":"queues"})"_ba + '\n');
    const std::optional<QJsonObject> counts = client.nextLine(5000);
    QVERIFY2(counts.has_value(), "no `queues` reply while the loop waits");
    QVERIFY(counts->value(u"ok"_s).toBool());
    QCOMPARE((*counts)[u"result"_s][u"stages"_s][u"s"_s][u"failed"_s].toInt(), 1);

    client.sendRaw(R"({"id":"r","cmd":"requeue","stage":"s","status":"failed"})"_ba + '\n');
    QTRY_COMPARE_WITH_TIMEOUT(probe.row(ids[0])->status, u"pending"_s, 5000);
    QCOMPARE(probe.scalar(loopWaits), qint64(1)); // all that while
    QVERIFY(locker.rollback());
    const std::optional<QJsonObject> requeued = client.nextLine(10000);
    QVERIFY(requeued.has_value());
    QCOMPARE(requeued->value(u"id"_s).toString(), u"r"_s);
    QCOMPARE((*requeued)[u"result"_s][u"requeued"_s].toInt(), 1);
    QVERIFY(daemon.waitForLog(QRegularExpression(u"stage s requeued 1 failed rows on the control socket"_s)));
    QCOMPARE(daemon.terminate(), 0);
}

QTEST_GUILESS_MAIN(tst_ControlSocket)
#include "tst_controlsocket.moc"
