// SPDX-License-Identifier: AGPL-3.0-or-later
// Events and admin commands that match what happens in a real pepsi-dispatch:
// a killed worker's crash, a drained stage that claims nothing until resumed,
// requeued rows that finish; a client that hears of a worker and asks at
// once sees it.
#include "controlchecks.h"
#include "controltestclient.h"
#include "daemonprocess.h"
#include "daemontest.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QSqlError>
#include <QSqlQuery>

#include <csignal>
#include <memory>

using namespace Qt::StringLiterals;

class tst_ControlEvents : public DaemonTest
{
    Q_OBJECT

private Q_SLOTS:
    void killedWorkerIsReported();
    void heardOfWorkersAreSeen();
    void drainedStageClaimsNothing();
    void requeuedRowsFinish();
};

// kill -9 a worker: its worker_crashed event names it and its message.
void tst_ControlEvents::killedWorkerIsReported()
{
    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"s"_s, DaemonProcess::fakeWorker(), {{u"PARALLELISM"_s, u"1"_s}});
    const auto client = startSubscribed(daemon, {u"worker_started"_s, u"worker_crashed"_s, u"cooldown_entered"_s});
    QVERIFY(client);
    QueueProbe probe(m_db->db());
    const QList<qint64> ids = probe.insertModes(u"s"_s, {u"hang"_s});
    QVERIFY(!ids.isEmpty());
    const auto started = client->takeEvent(u"worker_started"_s);
    QVERIFY(started);
    const qint64 pid = qint64(started->value(u"pid"_s).toDouble());
    QCOMPARE(daemon.workerPids(u"s"_s), QList<qint64>{pid});
    QTRY_COMPARE(probe.count(u"status = 'running'"_s), 1);
    // The worker holds it: workers shows it at the head of line.
    QTRY_COMPARE(qint64(client->request(R"({"cmd":"workers"})"_ba).value(u"result"_s)[0][u"head_id"_s].toDouble()),
                 ids.first());

    QCOMPARE(::kill(pid_t(pid), SIGKILL), 0);
    const auto crashed = client->takeEvent(u"worker_crashed"_s);
    QVERIFY(crashed);
    QCOMPARE(qint64(crashed->value(u"pid"_s).toDouble()), pid);
    QCOMPARE(crashed->value(u"stage"_s).toString(), u"s"_s);
    QCOMPARE(crashed->value(u"cause"_s).toString(), u"crashed: signal 9"_s);
    QCOMPARE(qint64(crashed->value(u"message_id"_s).toDouble()), ids.first());
    QCOMPARE(crashed->value(u"requeued"_s).toInt(), 0);
    QTRY_COMPARE(probe.count(u"status = 'failed' AND state->>'dispatch_error' = 'crashed: signal 9'"_s), 1);
    // A worker that dies before its first answer holds the stage off.
    const auto cooldown = client->takeEvent(u"cooldown_entered"_s);
    QVERIFY(cooldown);
    QCOMPARE(cooldown->value(u"reason"_s).toString(), u"crashed: signal 9"_s);
    QCOMPARE(daemon.terminate(), 0);
}

// The pools' events do not wait for a picture (a large pool's start would
// draw one per worker), yet a client that hears of a worker's start or end
// and asks at once, without retrying, sees it.
void tst_ControlEvents::heardOfWorkersAreSeen()
{
    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"s"_s, DaemonProcess::fakeWorker(), {{u"PARALLELISM"_s, u"3"_s}, {u"QUEUE_LIMIT"_s, u"1"_s}});
    const auto client = startSubscribed(daemon, {u"worker_started"_s, u"worker_crashed"_s});
    QVERIFY(client);
    const auto workerPids = [&client] {
        QList<qint64> pids;
        for (const QJsonValue worker : client->request(R"({"cmd":"workers"})"_ba).value(u"result"_s).toArray())
            pids.append(qint64(worker[u"pid"_s].toDouble()));
        return pids;
    };
    QueueProbe probe(m_db->db());
    QVERIFY(!probe.insertModes(u"s"_s, {u"hang"_s, u"hang"_s, u"hang"_s}).isEmpty());
    QList<qint64> started;
    for (int i = 0; i < 3; ++i) {
        const auto event = client->takeEvent(u"worker_started"_s);
        QVERIFY(event);
        started.append(qint64(event->value(u"pid"_s).toDouble()));
        const QList<qint64> listed = workerPids();
        QVERIFY2(listed.contains(started.last()),
                 qPrintable(u"worker %1 started, workers lists %2 worker(s)"_s.arg(started.last()).arg(listed.size())));
    }
    QCOMPARE(::kill(pid_t(started.first()), SIGKILL), 0);
    const auto crashed = client->takeEvent(u"worker_crashed"_s);
    QVERIFY(crashed);
    QCOMPARE(qint64(crashed->value(u"pid"_s).toDouble()), started.first());
    QVERIFY(!workerPids().contains(started.first()));
    QCOMPARE(daemon.terminate(), 0);
}

// drain: no claim for the stage until resume; the state shows, survives a
// reload, and the events come.
void tst_ControlEvents::drainedStageClaimsNothing()
{
    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"s"_s, DaemonProcess::fakeWorker());
    daemon.addStage(u"t"_s, DaemonProcess::fakeWorker());
    const auto client = startSubscribed(daemon, {u"stage_drained"_s, u"stage_resumed"_s});
    QVERIFY(client);

    QCOMPARE(client->request(R"({"cmd":"drain","stage":"s"})"_ba).value(u"result"_s)[u"drained"_s].toBool(), true);
    const auto drained = client->takeEvent(u"stage_drained"_s);
    QVERIFY(drained);
    QCOMPARE(drained->value(u"stage"_s).toString(), u"s"_s);
    QCOMPARE(drained->value(u"uid"_s).toInt(), int(::geteuid()));
    QueueProbe probe(m_db->db());
    QVERIFY(!probe.insert(u"s"_s, 20).isEmpty());
    QVERIFY(!probe.insert(u"t"_s, 20).isEmpty());
    // The other stage flows; this one is not claimed at all. One claim round
    // asks for every stage with room, so the rounds that took t's rows
    // (inserted after s's) would have taken s's too: no wait is needed after.
    QTRY_COMPARE_WITH_TIMEOUT(probe.count(u"stage = 't' AND status = 'done'"_s), 20, 10000);
    QCOMPARE(probe.count(u"stage = 's' AND status = 'pending' AND claims = 0"_s), 20);
    QJsonObject pool = client->request(R"({"cmd":"status"})"_ba).value(u"result"_s)[u"stages"_s][u"s"_s].toObject();
    QCOMPARE(pool.value(u"drained"_s).toBool(), true);
    QCOMPARE(pool.value(u"capacity"_s).toInt(), 0);
    QCOMPARE(pool.value(u"queue"_s)[u"pending"_s].toInt(), 20);

    // A reload keeps it drained.
    QVERIFY(client->request(R"({"cmd":"reload"})"_ba).value(u"ok"_s).toBool());
    // A witness row at t: the round that claims it comes after the reload
    // and would claim s's rows too, had the reload forgotten the drain.
    QVERIFY(!probe.insert(u"t"_s, 1).isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(probe.count(u"stage = 't' AND status = 'done'"_s), 21, 10000);
    QCOMPARE(probe.count(u"stage = 's' AND claims = 0"_s), 20);
    QCOMPARE(client->request(R"({"cmd":"stages"})"_ba).value(u"result"_s)[u"stages"_s][0][u"drained"_s].toBool(), true);
    // Draining twice is fine.
    QVERIFY(client->request(R"({"cmd":"drain","stage":"s"})"_ba).value(u"ok"_s).toBool());

    QCOMPARE(client->request(R"({"cmd":"resume","stage":"s"})"_ba).value(u"result"_s)[u"drained"_s].toBool(), false);
    QVERIFY(client->takeEvent(u"stage_resumed"_s));
    // A claim round right away, not at the next heartbeat (30 s).
    QTRY_COMPARE_WITH_TIMEOUT(probe.count(u"stage = 's' AND status = 'done'"_s), 20, 5000);
    QCOMPARE(daemon.terminate(), 0);
}

// requeue: failed rows go back to pending without dispatch_error and finish;
// bounded by limit with `more`; a row locked by another session is skipped.
void tst_ControlEvents::requeuedRowsFinish()
{
    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"s"_s, DaemonProcess::fakeWorker());
    const auto client = startSubscribed(daemon, {u"requeued"_s});
    QVERIFY(client);
    QueueProbe probe(m_db->db());
    const QList<qint64> ids = probe.insert(u"s"_s, 30, {{u"s"_s, u"fail:3"_s}});
    QCOMPARE(ids.size(), 30);
    QTRY_COMPARE_WITH_TIMEOUT(probe.count(u"status = 'failed'"_s), 30, 10000);
    QTRY_COMPARE(client->request(R"({"cmd":"queues"})"_ba).value(u"result"_s)[u"stages"_s][u"s"_s][u"failed"_s].toInt(),
                 30);
    // From now on they succeed.
    QVERIFY(m_db->exec(u"UPDATE workqueue SET state = state - 'fake'"_s));

    const QJsonObject byId =
        client->request(QJsonObject{{u"cmd"_s, u"requeue"_s},
                                    {u"stage"_s, u"s"_s},
                                    {u"status"_s, u"failed"_s},
                                    {u"ids"_s, QJsonArray{double(ids[0]), double(ids[1]), double(ids[2])}}});
    QCOMPARE(byId.value(u"result"_s)[u"requeued"_s].toInt(), 3);
    QCOMPARE(byId.value(u"result"_s)[u"more"_s].toBool(), false);
    const auto event = client->takeEvent(u"requeued"_s);
    QVERIFY(event);
    QCOMPARE(event->value(u"count"_s).toInt(), 3);
    QCOMPARE(event->value(u"status"_s).toString(), u"failed"_s);
    QTRY_COMPARE_WITH_TIMEOUT(probe.count(u"status = 'done'"_s), 3, 5000);

    // Bounded: 20 of the 27 left, and it says more match.
    const QJsonObject limited = client->request(R"({"cmd":"requeue","stage":"s","status":"failed","limit":20})"_ba);
    QCOMPARE(limited.value(u"result"_s)[u"requeued"_s].toInt(), 20);
    QCOMPARE(limited.value(u"result"_s)[u"more"_s].toBool(), true);
    QTRY_COMPARE_WITH_TIMEOUT(probe.count(u"status = 'done'"_s), 23, 5000);

    // Another session holds one of the last 7 locked: skipped, not waited for.
    QSqlDatabase other = m_db->newConnection(u"locker"_s);
    QVERIFY(other.transaction());
    QSqlQuery lock(other);
    QVERIFY2(
        lock.exec(
            u"SELECT workqueue_id FROM workqueue WHERE status = 'failed' ORDER BY workqueue_id LIMIT 1 FOR UPDATE"_s)
            && lock.next(),
        qPrintable(lock.lastError().text()));
    const qint64 locked = lock.value(0).toLongLong();
    QElapsedTimer took;
    took.start();
    const QJsonObject skipping = client->request(R"({"cmd":"requeue","stage":"s","status":"failed"})"_ba);
    QCOMPARE(skipping.value(u"result"_s)[u"requeued"_s].toInt(), 6);
    QCOMPARE(skipping.value(u"result"_s)[u"more"_s].toBool(), false);
    QVERIFY(took.elapsed() < 5000);
    QVERIFY(other.commit());
    QTRY_COMPARE_WITH_TIMEOUT(probe.count(u"status = 'done'"_s), 29, 5000);
    QCOMPARE(probe.count(u"status = 'failed' AND workqueue_id = %1"_s.arg(locked)), 1);

    // Nothing of another status or stage moves.
    QCOMPARE(client->request(R"({"cmd":"requeue","stage":"s","status":"timeout"})"_ba)
                 .value(u"result"_s)[u"requeued"_s]
                 .toInt(),
             0);
    QCOMPARE(client->request(R"({"cmd":"requeue","stage":"x","status":"failed"})"_ba)
                 .value(u"result"_s)[u"requeued"_s]
                 .toInt(),
             0);
    const QJsonObject last =
        client->request(R"({"cmd":"requeue","stage":"s","status":"failed","max_age_ms":600000})"_ba);
    QCOMPARE(last.value(u"result"_s)[u"requeued"_s].toInt(), 1);
    QTRY_COMPARE_WITH_TIMEOUT(probe.count(u"status = 'done'"_s), 30, 5000);
    QCOMPARE(probe.count(u"state ? 'dispatch_error'"_s), 0);
    QCOMPARE(daemon.terminate(), 0);
}

QTEST_GUILESS_MAIN(tst_ControlEvents)
#include "tst_controlevents.moc"
