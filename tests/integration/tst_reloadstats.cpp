// SPDX-License-Identifier: AGPL-3.0-or-later
// Hot reload and statistics with a real daemon and the fake worker: an
// overlay change takes effect while messages flow and none runs twice; a
// graph that stops parsing ends the daemon cleanly; the statistics tables hold
// exactly the outcomes the workers produced, flushed when idle and at shutdown
// and never rewritten without a delta. (Stage fusion: tst_fusion.)
#include "controltestclient.h"
#include "daemonprocess.h"
#include "daemonstart.h"
#include "daemontest.h"
#include "sampler.h"

#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <functional>
#include <memory>

using namespace Qt::StringLiterals;

namespace {

// argv[0] of a process: the PROGRAM path the daemon started (a symlink stays
// a symlink here, unlike /proc/<pid>/exe).
QString programOf(qint64 pid)
{
    QFile file(u"/proc/%1/cmdline"_s.arg(pid));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromLocal8Bit(file.readAll().split('\0').constFirst());
}

// A process that is still there and not a zombie.
bool isAlive(qint64 pid)
{
    QFile file(u"/proc/%1/stat"_s.arg(pid));
    if (!file.open(QIODevice::ReadOnly))
        return false;
    const QByteArray text = file.readAll();
    const qsizetype close = text.lastIndexOf(')');
    return close > 0 && text.size() > close + 2 && text.at(close + 2) != 'Z' && text.at(close + 2) != 'X';
}

// Claim rounds the daemon ran since it started (status totals.rounds); -1 without a reply.
qint64 claimRounds(ControlTestClient &client)
{
    const QJsonObject reply = client.request(R"({"cmd":"status"})"_ba);
    if (!reply.value(u"ok"_s).toBool())
        return -1;
    return qint64(reply.value(u"result"_s)[u"totals"_s][u"rounds"_s].toDouble());
}

// Ids held by the running workers of `stage` (workers); -1 without a reply.
int idsHeldByRunningWorkers(ControlTestClient &client, const QString &stage)
{
    const QJsonObject reply = client.request(R"({"cmd":"workers"})"_ba);
    if (!reply.value(u"ok"_s).toBool())
        return -1;
    int held = 0;
    for (const QJsonValue &worker : reply.value(u"result"_s).toArray()) {
        if (worker[u"stage"_s].toString() == stage && worker[u"state"_s].toString() == u"running"_s)
            held += int(worker[u"ids"_s].toArray().size());
    }
    return held;
}

} // namespace

class tst_ReloadStats : public DaemonTest
{
    Q_OBJECT

private Q_SLOTS:
    void reloadTakesEffectWhileMessagesFlow();
    void unparsableReloadStopsTheDaemon();
    void dispatchOptionChangeIsIgnored();
    void statisticsCountEveryOutcome();

private:
    bool insertMessages(const QString &stage, int count, const QJsonObject &fake = {});
    bool setOverlay(const QString &section, const QString &option, const QString &value);
};

bool tst_ReloadStats::insertMessages(const QString &stage, int count, const QJsonObject &fake)
{
    return !m_queue->insert(stage, count, fake).isEmpty();
}

bool tst_ReloadStats::setOverlay(const QString &section, const QString &option, const QString &value)
{
    QSqlQuery q(m_db->db());
    q.prepare(u"INSERT INTO config_overlay (section, option, value) VALUES (:s, :o, :v) "
              "ON CONFLICT (section, option) DO UPDATE SET value = excluded.value"_s);
    q.bindValue(u":s"_s, section);
    q.bindValue(u":o"_s, option);
    q.bindValue(u":v"_s, value);
    if (!q.exec()) {
        qWarning("overlay insert failed: %s", qPrintable(q.lastError().text()));
        return false;
    }
    return true;
}

// An overlay change of PARALLELISM and then of PROGRAM takes effect without a
// restart, while 600 messages pass a -> b, each exactly once per stage.
void tst_ReloadStats::reloadTakesEffectWhileMessagesFlow()
{
    // The same fake worker under another name: new workers of `a` show it as argv[0].
    QTemporaryDir links;
    QVERIFY(links.isValid());
    QVERIFY(QFile::setPermissions(links.path(),
                                  QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup
                                      | QFile::ExeGroup | QFile::ReadOther | QFile::ExeOther));
    const QString renamed = links.filePath(u"pepsi-fakeworker-renamed"_s);
    QVERIFY(QFile::link(DaemonProcess::fakeWorker(), renamed));

    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"a"_s, DaemonProcess::fakeWorker(), {{u"NEXT"_s, u"b"_s}});
    daemon.addStage(u"b"_s, DaemonProcess::fakeWorker(), {{u"PARALLELISM"_s, u"1"_s}});
    QVERIFY(startReady(daemon));

    qsizetype mostOfB = 0;
    QHash<qint64, QString> programOfA; // every worker of `a` seen, by pid
    Sampler sampler([&] {
        mostOfB = std::max(mostOfB, daemon.workerPids(u"b"_s).size());
        for (const qint64 pid : daemon.workerPids(u"a"_s)) {
            if (!programOfA.contains(pid))
                programOfA.insert(pid, programOf(pid));
        }
    });

    const QJsonObject slowAtB{{u"b"_s, u"slow:5"_s}};
    QVERIFY(insertMessages(u"a"_s, 300, slowAtB));
    QTRY_VERIFY_WITH_TIMEOUT(m_queue->count(u"status = 'done'"_s) >= 20, 15000);
    QCOMPARE(mostOfB, 1);

    QVERIFY(setOverlay(u"stage-b"_s, u"PARALLELISM"_s, u"3"_s));
    QVERIFY2(daemon.waitForLog(QRegularExpression(u"pipeline reloaded"_s)), qPrintable(daemon.log()));
    QTRY_VERIFY_WITH_TIMEOUT(mostOfB > 1, 10000);
    QVERIFY2(mostOfB <= 3, qPrintable(u"%1 workers of b with PARALLELISM = 3"_s.arg(mostOfB)));

    QVERIFY(setOverlay(u"stage-a"_s, u"PROGRAM"_s, renamed));
    QTRY_COMPARE_WITH_TIMEOUT(daemon.countLog(QRegularExpression(u"pipeline reloaded"_s)), 2, 10000);
    const qint64 lastOfFirstBatch = m_db->scalar(u"SELECT max(workqueue_id) FROM workqueue"_s);
    QVERIFY(insertMessages(u"a"_s, 300, slowAtB));

    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status = 'done'"_s), 600, 30000);
    sampler.take();
    QCOMPARE(m_queue->count(u"stage = 'b'"_s), 600);
    QCOMPARE(m_queue->count(u"(state->'runs'->>'a')::int = 1 AND (state->'runs'->>'b')::int = 1"_s), 600);
    QCOMPARE(m_queue->count(u"state ? 'dispatch_error'"_s), 0);

    // Every message of the second batch ran at `a` in a worker started as `renamed`.
    QSqlQuery q(m_db->db());
    QVERIFY(q.exec(u"SELECT DISTINCT (state->'pids'->>'a')::bigint FROM workqueue WHERE workqueue_id > %1"_s.arg(
        lastOfFirstBatch)));
    int renamedWorkers = 0;
    while (q.next()) {
        const qint64 pid = q.value(0).toLongLong();
        QVERIFY2(programOfA.contains(pid), qPrintable(u"worker %1 of a was never seen"_s.arg(pid)));
        QCOMPARE(programOfA.value(pid), renamed);
        ++renamedWorkers;
    }
    qInfo("%d samples; at most %lld workers of b; %lld workers of a, %d of them ran the second batch",
          sampler.samples(), qint64(mostOfB), qint64(programOfA.size()), renamedWorkers);
    QVERIFY(renamedWorkers > 0);
    QVERIFY2(programOfA.values().contains(DaemonProcess::fakeWorker()), "no worker of a ran the old PROGRAM");
    QCOMPARE(daemon.countLog(QRegularExpression(u"^(CRITICAL|FATAL)"_s)), 0);
    QCOMPARE(daemon.terminate(), 0);
}

// A reloaded graph with a cycle stops the daemon like SIGTERM, with exit 1:
// nothing left running, no worker left behind.
void tst_ReloadStats::unparsableReloadStopsTheDaemon()
{
    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"a"_s, DaemonProcess::fakeWorker(), {{u"NEXT"_s, u"b"_s}});
    daemon.addStage(u"b"_s, DaemonProcess::fakeWorker());
    QVERIFY(startReady(daemon));

    QSet<qint64> workers;
    Sampler sampler([&] {
        for (const qint64 pid : daemon.workerPids())
            workers.insert(pid);
    });
    QVERIFY(insertMessages(u"a"_s, 200, {{u"b"_s, u"slow:20"_s}}));
    QTRY_VERIFY_WITH_TIMEOUT(m_queue->count(u"status = 'done'"_s) >= 10, 15000);
    QVERIFY(m_queue->count(u"status = 'running'"_s) > 0);
    sampler.take();

    QVERIFY(setOverlay(u"stage-b"_s, u"NEXT"_s, u"a"_s));
    QCOMPARE(daemon.waitForExit(20000), 1);
    const QString log = daemon.log();
    QVERIFY2(log.contains(QRegularExpression(u"does not parse: .*cycle"_s)), qPrintable(log));
    QVERIFY2(log.contains(u"stopping"_s), qPrintable(log));

    QCOMPARE(m_queue->count(u"status = 'running'"_s), 0);
    QCOMPARE(m_queue->count(u"status IN ('done', 'pending')"_s), 200);
    QCOMPARE(m_queue->count(u"state ? 'dispatch_error'"_s), 0);
    QVERIFY(!workers.isEmpty());
    for (const qint64 pid : std::as_const(workers))
        QVERIFY2(!isAlive(pid), qPrintable(u"worker %1 outlived the daemon"_s.arg(pid)));
}

// [pepsi-dispatch] options are read once: a change at run time is logged and
// has no effect (MAX_RUNTIME stays 1 s).
void tst_ReloadStats::dispatchOptionChangeIsIgnored()
{
    DaemonProcess daemon(m_db->uri());
    daemon.setOption(u"MAX_RUNTIME"_s, u"1 s"_s);
    daemon.addStage(u"s"_s, DaemonProcess::fakeWorker());
    QVERIFY(startReady(daemon));

    QVERIFY(setOverlay(u"pepsi-dispatch"_s, u"MAX_RUNTIME"_s, u"10 min"_s));
    QVERIFY2(
        daemon.waitForLog(QRegularExpression(
            u"WARNING .*config_overlay \\(pepsi-dispatch, MAX_RUNTIME\\): \\[pepsi-dispatch\\] MAX_RUNTIME is read "
            "only at start; "
            "ignored until a restart"_s)),
        qPrintable(daemon.log()));
    QVERIFY(daemon.isRunning());

    QVERIFY(insertMessages(u"s"_s, 1, {{u"s"_s, u"hang"_s}}));
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status = 'timeout'"_s), 1, 10000);
    QCOMPARE(m_queue->text(u"SELECT state->>'dispatch_error' FROM workqueue"_s), u"timeout after 1 s"_s);
    QCOMPARE(daemon.terminate(), 0);
}

// Known outcomes at `a` (20 ok, 3 fail:4, 2 crash, 1 hang; MAX_RUNTIME 3 s, as
// the watchdog also times a worker's start-up, which takes a while on a loaded
// machine), the 20 going on to
// `b`: the tables hold exactly those counts, written when the pipeline went
// idle (STATS_INTERVAL is an hour), not rewritten while idle, and the runs of a
// shutdown written at shutdown.
void tst_ReloadStats::statisticsCountEveryOutcome()
{
    DaemonProcess daemon(m_db->uri());
    daemon.setOption(u"MAX_RUNTIME"_s, u"3 s"_s);
    daemon.setOption(u"STATS_INTERVAL"_s, u"1 h"_s);
    daemon.setOption(u"POLL_INTERVAL"_s, u"1 s"_s); // idle rounds while we watch the tables
    daemon.addStage(u"a"_s, DaemonProcess::fakeWorker(), {{u"NEXT"_s, u"b"_s}});
    daemon.addStage(u"b"_s, DaemonProcess::fakeWorker());
    QVERIFY(startReady(daemon));

    QVERIFY(insertMessages(u"a"_s, 20));
    QVERIFY(insertMessages(u"a"_s, 3, {{u"a"_s, u"fail:4"_s}}));
    QVERIFY(insertMessages(u"a"_s, 2, {{u"a"_s, u"crash"_s}}));
    QVERIFY(insertMessages(u"a"_s, 1, {{u"a"_s, u"hang"_s}}));
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status = 'done'"_s) + m_queue->count(u"status = 'failed'"_s)
                                  + m_queue->count(u"status = 'timeout'"_s),
                              26, 30000);
    const QString outcomes =
        m_queue->text(u"SELECT string_agg(format('%s at %s (%s): %s', status, stage, "
                      "coalesce(e, '-'), n), '; ') FROM (SELECT status, stage, "
                      "state->>'dispatch_error' AS e, count(*) AS n FROM workqueue GROUP BY 1, 2, 3) AS o"_s);
    qInfo("%s", qPrintable(outcomes));
    QCOMPARE(m_queue->count(u"status = 'done' AND stage = 'b'"_s), 20);
    QCOMPARE(m_queue->count(u"status = 'failed' AND state->>'dispatch_error' = 'status 4: fake failure'"_s), 3);
    QCOMPARE(m_queue->count(u"status = 'failed' AND state->>'dispatch_error' = 'crashed: signal 6'"_s), 2);
    QCOMPARE(m_queue->count(u"status = 'timeout'"_s), 1);

    // Idle flush: runs failures timeouts crashes
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->stageStats(u"a"_s), u"26 3 1 2"_s, 3000);
    QCOMPARE(m_queue->stageStats(u"b"_s), u"20 0 0 0"_s);
    QCOMPARE(m_queue->dispatchStats(), u"46 26"_s);
    QVERIFY(m_db->scalar(u"SELECT busy_usec FROM stage_stats WHERE stage = 'a'"_s) >= 3000000); // the timeout
    QVERIFY(m_db->scalar(u"SELECT busy_usec FROM stage_stats WHERE stage = 'b'"_s) > 0);

    // Idle without a delta: no row version changes.
    const QString versions = u"SELECT (SELECT string_agg(stage || ':' || xmin::text || '@' || updated::text, ' ' "
                             "ORDER BY stage) FROM stage_stats) || ' ' || "
                             "(SELECT xmin::text || '@' || updated::text FROM dispatch_stats)"_s;
    const QString before = m_queue->text(versions);
    QVERIFY(!before.isEmpty());
    // A write that does not come can only be watched for: a window long
    // enough for idle rounds (the 1 s heartbeat), each of which would write a
    // delta or start the 1 s idle-flush timer, and for that timer to run out.
    // The rounds are counted, so the window is known to have held them.
    constexpr int IdleWindowMs = 3000;
    ControlTestClient client;
    QVERIFY(client.connectTo(daemon.controlSocket()));
    const qint64 rounds = claimRounds(client);
    QVERIFY(rounds >= 0);
    QTest::qWait(IdleWindowMs);
    QVERIFY2(claimRounds(client) >= rounds + 2, "no idle claim rounds while we watched");
    QCOMPARE(m_queue->text(versions), before);
    QVERIFY(daemon.isRunning());

    // Shutdown flush: two messages still running at `b` when SIGTERM comes are
    // finished by their worker, and only the final flush can count them.
    QVERIFY(insertMessages(u"b"_s, 2, {{u"b"_s, u"slow:700"_s}}));
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status = 'running'"_s), 2, 5000);
    // Both in the hands of a running worker when SIGTERM comes.
    QTRY_COMPARE_WITH_TIMEOUT(idsHeldByRunningWorkers(client, u"b"_s), 2, 5000);
    QCOMPARE(m_queue->stageStats(u"b"_s), u"20 0 0 0"_s);
    QCOMPARE(daemon.terminate(), 0);
    QCOMPARE(m_queue->count(u"status = 'done'"_s), 22);
    QCOMPARE(m_queue->stageStats(u"a"_s), u"26 3 1 2"_s);
    QCOMPARE(m_queue->stageStats(u"b"_s), u"22 0 0 0"_s);
    QCOMPARE(m_queue->dispatchStats(), u"48 28"_s);
}

QTEST_GUILESS_MAIN(tst_ReloadStats)
#include "tst_reloadstats.moc"
