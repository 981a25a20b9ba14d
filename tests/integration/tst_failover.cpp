// SPDX-License-Identifier: AGPL-3.0-or-later
// Nothing lost, part 2: the daemon or its database goes away mid-run. A
// SIGKILLed daemon and a fresh one on the same database, a clean SIGTERM stop,
// a PostgreSQL restart under load, and a standby that takes over. Every test
// checks the final status and state.dispatch_error of every message and its
// runs per stage (the fake worker counts its own writes in state.runs).
#include "daemonprocess.h"
#include "daemonstart.h"
#include "daemontest.h"
#include "testcluster.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QSet>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTest>
#include <QTimer>

#include <memory>

using namespace Qt::StringLiterals;

class tst_Failover : public DaemonTest
{
    Q_OBJECT

private Q_SLOTS:
    void daemonKilled();
    void daemonTerminated();
    void databaseRestart();
    void connectionEndedMidStatement();
    void standbyTakesOver();

private:
    // A daemon running a -> b -> c with the given [pepsi-dispatch] options.
    std::unique_ptr<DaemonProcess> threeStages(const DaemonProcess::Options &options = {});
    // threeStages() with 300 messages that take 20 ms at each stage, once 50
    // of them are done; null, with a warning, otherwise.
    std::unique_ptr<DaemonProcess> midRun(const DaemonProcess::Options &options = {});
    // Every row is done at c, without dispatch_error (or, with allowTryLater,
    // one from a 75 answer), and ran each stage between minRuns and maxRuns
    // times; ids in `exactlyOnce` ran each stage exactly once.
    void verifyAllDone(int expected, int minRuns, int maxRuns, const QSet<qint64> &exactlyOnce = {},
                       bool allowTryLater = false);
};

namespace {

const QStringList Stages{u"a"_s, u"b"_s, u"c"_s};

QList<qint64> alive(const QList<qint64> &pids)
{
    QList<qint64> left;
    for (const qint64 pid : pids) {
        if (!DaemonProcess::isGone(pid))
            left.append(pid);
    }
    return left;
}

} // namespace

std::unique_ptr<DaemonProcess> tst_Failover::threeStages(const DaemonProcess::Options &options)
{
    auto daemon = std::make_unique<DaemonProcess>(m_db->uri());
    for (const auto &[option, value] : options)
        daemon->setOption(option, value);
    daemon->addStage(u"a"_s, DaemonProcess::fakeWorker(), {{u"NEXT"_s, u"b"_s}});
    daemon->addStage(u"b"_s, DaemonProcess::fakeWorker(), {{u"NEXT"_s, u"c"_s}});
    daemon->addStage(u"c"_s, DaemonProcess::fakeWorker());
    if (!startReady(*daemon))
        return nullptr;
    return daemon;
}

std::unique_ptr<DaemonProcess> tst_Failover::midRun(const DaemonProcess::Options &options)
{
    auto daemon = threeStages(options);
    if (!daemon)
        return nullptr;
    const QJsonObject slow{{u"a"_s, u"slow:20"_s}, {u"b"_s, u"slow:20"_s}, {u"c"_s, u"slow:20"_s}};
    if (m_queue->insert(u"a"_s, 300, slow).size() != 300
        || !QTest::qWaitFor([this] { return m_queue->count(u"status = 'done'"_s) >= 50; }, 15000)) {
        qWarning("300 messages were not inserted, or 50 of them not done: %s", qPrintable(daemon->log()));
        return nullptr;
    }
    return daemon;
}

void tst_Failover::verifyAllDone(int expected, int minRuns, int maxRuns, const QSet<qint64> &exactlyOnce,
                                 bool allowTryLater)
{
    const QList<QueueRow> rows = m_queue->rows();
    QCOMPARE(rows.size(), expected);
    for (const QueueRow &row : rows) {
        const bool errorOk = !row.dispatchError || (allowTryLater && row.dispatchError->startsWith(u"status 75: "_s));
        QVERIFY2(row.status == u"done"_s && row.stage == u"c"_s && errorOk, qPrintable(row.describe()));
        const int least = exactlyOnce.contains(row.id) ? 1 : minRuns;
        const int most = exactlyOnce.contains(row.id) ? 1 : maxRuns;
        for (const QString &stage : Stages)
            QVERIFY2(row.runs(stage) >= least && row.runs(stage) <= most, qPrintable(row.describe()));
    }
}

// 8. SIGKILL mid-run: the workers go with the daemon (PR_SET_PDEATHSIG), and a
// fresh daemon resets what was running and finishes everything. A message in
// flight at the kill may run a stage twice; one that was done before it, never.
void tst_Failover::daemonKilled()
{
    auto first = midRun();
    QVERIFY(first);
    const QList<qint64> workers = first->workerPids();
    const qint64 firstPid = first->pid();
    first->kill();
    QVERIFY(!workers.isEmpty());
    // A statement the daemon sent just before the kill still commits: its
    // server session ends only when it next reads from the dead socket. Count
    // the orphans once the sessions are gone, or one may still move.
    const QString sessions = u"SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE "
                             "'pepsi-dispatch %% pid %1 %%'"_s.arg(firstPid)
                                 .replace(u"%%"_s, u"%"_s);
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->scalar(sessions), 0, 10000);

    QSet<qint64> doneBefore;
    for (const QueueRow &row : m_queue->rows(u"status = 'done'"_s))
        doneBefore.insert(row.id);
    const int orphans = m_queue->count(u"status = 'running'"_s);
    qInfo("killed with %lld done, %d running, %lld workers", qint64(doneBefore.size()), orphans,
          qint64(workers.size()));
    QVERIFY2(orphans > 0, "nothing was in flight at the kill");
    QTRY_COMPARE_WITH_TIMEOUT(alive(workers), QList<qint64>(), 3000);

    auto second = threeStages();
    QVERIFY(second);
    QVERIFY2(second->countLog(QRegularExpression(u"reset %1 running rows left by a previous dispatcher"_s.arg(orphans)))
                 == 1,
             qPrintable(second->log()));
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status = 'done'"_s), 300, 20000);
    QCOMPARE(m_queue->count(u"status = 'running'"_s), 0);
    verifyAllDone(300, 1, 2, doneBefore);
    QCOMPARE(second->terminate(), 0);
}

// 9. SIGTERM mid-run: exit 0, nothing left running, no worker left, and the
// statistics agree with what the workers did. A clean stop runs nothing twice.
void tst_Failover::daemonTerminated()
{
    auto first = midRun({{u"STATS_INTERVAL"_s, u"1 h"_s}});
    QVERIFY(first);
    const QList<qint64> workers = first->workerPids();
    QVERIFY(!workers.isEmpty());
    QCOMPARE(first->terminate(), 0);

    QCOMPARE(m_queue->count(u"status = 'running'"_s), 0);
    QCOMPARE(alive(workers), QList<qint64>());
    const qint64 runs = m_queue->scalar(u"SELECT coalesce(sum(value::bigint), 0) FROM workqueue, "
                                        "jsonb_each_text(state->'runs')"_s);
    const int done = m_queue->count(u"status = 'done'"_s);
    qInfo("stopped with %d done, %lld stage runs", done, runs);
    QVERIFY(done < 300);
    QCOMPARE(m_queue->scalar(u"SELECT coalesce(sum(runs), 0) FROM stage_stats"_s), runs);
    QCOMPARE(m_queue->scalar(u"SELECT stage_runs FROM dispatch_stats"_s), runs);
    QCOMPARE(m_queue->scalar(u"SELECT messages FROM dispatch_stats"_s), qint64(done));

    auto second = threeStages();
    QVERIFY(second);
    QCOMPARE(second->countLog(QRegularExpression(u"running rows left by a previous dispatcher"_s)), 0);
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status = 'done'"_s), 300, 20000);
    verifyAllDone(300, 1, 1);
    QCOMPARE(second->terminate(), 0);
}

// 10. PostgreSQL restarts while 500 messages flow: one outage in the log, one
// recovery, and every message done with each stage run once. Workers that
// lost their connection answer 75, so those messages carry that reason.
void tst_Failover::databaseRestart()
{
    TestCluster cluster;
    if (!cluster.probe())
        QSKIP(qPrintable(u"cannot restart the test server: "_s + cluster.whyNot()));
    auto daemon = threeStages({{u"TEMPFAIL_DELAY"_s, u"300 ms"_s}});
    QVERIFY(daemon);
    QCOMPARE(m_queue->insert(u"a"_s, 500, {{u"a"_s, u"slow:5"_s}, {u"b"_s, u"slow:5"_s}, {u"c"_s, u"slow:5"_s}}).size(),
             500);
    QTRY_VERIFY_WITH_TIMEOUT(m_queue->count(u"status = 'done'"_s) >= 50, 15000);

    QElapsedTimer clock;
    clock.start();
    QString error;
    const bool restarted = cluster.restart(&error);
    // Every connection of this process died with the server, the admin one
    // (which drops the test database) included.
    for (const QString &name : QSqlDatabase::connectionNames()) {
        QSqlDatabase db = QSqlDatabase::database(name, false);
        db.close();
        db.open();
    }
    QVERIFY2(restarted, qPrintable(error));
    qInfo("PostgreSQL restarted in %lld ms", clock.elapsed());
    QVERIFY2(m_queue->count(u"status = 'done'"_s) < 500, "the flow was over before the restart");

    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status = 'done'"_s), 500, 20000);
    QCOMPARE(m_queue->count(u"status = 'running'"_s), 0);
    verifyAllDone(500, 1, 1, {}, true);
    qInfo("%d messages got a 75 during the outage", m_queue->count(u"state ? 'dispatch_error'"_s));
    // The daemon's own lines (its workers log theirs through it too).
    QTRY_COMPARE(daemon->countLog(QRegularExpression(u"^WARNING pepsi.dispatch.store: database connection lost"_s)), 1);
    QTRY_COMPARE(daemon->countLog(QRegularExpression(u"^INFO pepsi.dispatch.store: database connection restored"_s)),
                 1);
    QVERIFY(daemon->isRunning());
    QCOMPARE(daemon->terminate(), 0);
}

// The server ends the daemon's queue connection while a statement waits on a
// row lock; nothing else wakes the daemon afterwards. It must notice the
// outage then and there, not at the next heartbeat (POLL_INTERVAL, 30 s
// here). Claims skip locked rows now, so the statement that waits is the
// watchdog's write to a running row the test holds locked (at most
// lock_timeout per try).
void tst_Failover::connectionEndedMidStatement()
{
    auto daemon = std::make_unique<DaemonProcess>(m_db->uri());
    daemon->setOption(u"POLL_INTERVAL"_s, u"30 s"_s);
    daemon->setOption(u"MAX_RUNTIME"_s, u"1 s"_s);
    daemon->addStage(u"s"_s, DaemonProcess::fakeWorker());
    QVERIFY(daemon->start());
    QVERIFY2(daemon->waitForReady(), qPrintable(daemon->log()));

    const QList<qint64> ids = m_queue->insertModes(u"s"_s, {u"hang"_s});
    QCOMPARE(ids.size(), 1);
    const qint64 id = ids[0];
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->row(id)->status, u"running"_s, 5000);
    QSqlDatabase locker = m_db->newConnection(u"locker"_s);
    QVERIFY(locker.transaction());
    QSqlQuery lock(locker);
    QVERIFY(lock.exec(u"SELECT 1 FROM workqueue WHERE workqueue_id = %1 FOR UPDATE"_s.arg(id)));
    const QString waiting = u"SELECT coalesce(max(pid), 0) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                            "AND application_name LIKE 'pepsi-dispatch % pid %1 %'"_s.arg(daemon->pid());
    QTRY_VERIFY_WITH_TIMEOUT(m_queue->scalar(waiting) > 0, 5000);
    QCOMPARE(m_queue->scalar(u"SELECT pg_terminate_backend(%1)::int"_s.arg(m_queue->scalar(waiting))), qint64(1));
    QVERIFY(locker.rollback());

    QTRY_COMPARE_WITH_TIMEOUT(m_queue->row(id)->status, u"timeout"_s, 5000);
    QCOMPARE(m_queue->row(id)->dispatchError, u"timeout after 1 s"_s);
    QTRY_COMPARE(daemon->countLog(QRegularExpression(u"^WARNING pepsi.dispatch.store: database connection lost"_s)), 1);
    QCOMPARE(daemon->terminate(), 0);
}

// 11. A second plain `serve` is refused while the first runs; `serve
// --standby` waits without workers and takes over when the first dies.
void tst_Failover::standbyTakesOver()
{
    auto first = std::make_unique<DaemonProcess>(m_db->uri());
    first->addStage(u"s"_s, DaemonProcess::fakeWorker());
    QVERIFY(first->start());
    QVERIFY2(first->waitForReady(), qPrintable(first->log()));

    DaemonProcess refused(m_db->uri());
    refused.addStage(u"s"_s, DaemonProcess::fakeWorker());
    QVERIFY(refused.start());
    QCOMPARE(refused.waitForExit(), 1);
    QVERIFY2(refused.log().contains(u"another dispatcher is already running on this database"_s)
                 && refused.log().contains(u"pid %1 "_s.arg(first->pid())),
             qPrintable(refused.log()));

    DaemonProcess standby(m_db->uri());
    standby.addStage(u"s"_s, DaemonProcess::fakeWorker());
    QVERIFY(standby.start({u"--standby"_s}));
    QVERIFY2(standby.waitForLog(QRegularExpression(u"standby: waiting"_s)), qPrintable(standby.log()));
    const QList<qint64> before = m_queue->insert(u"s"_s, 20, {{u"s"_s, u"slow:50"_s}});
    QCOMPARE(before.size(), 20);
    // Sampled while the first one works through them.
    qsizetype standbyWorkers = 0;
    QTimer sampler;
    connect(&sampler, &QTimer::timeout, this,
            [&] { standbyWorkers = std::max(standbyWorkers, standby.workerPids().size()); });
    sampler.start(20);
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status = 'done'"_s), 20, 10000);
    sampler.stop();
    QCOMPARE(standbyWorkers, qsizetype(0));
    QVERIFY(standby.isRunning());
    QVERIFY(!standby.log().contains(u"listening"_s));

    const QList<qint64> workers = first->workerPids();
    QElapsedTimer clock;
    clock.start();
    first->kill();
    QVERIFY2(standby.waitForLog(QRegularExpression(u"took over"_s), 5000), qPrintable(standby.log()));
    QVERIFY2(standby.waitForReady(5000), qPrintable(standby.log()));
    qInfo("the standby took over %lld ms after the kill", clock.elapsed());
    QTRY_COMPARE_WITH_TIMEOUT(alive(workers), QList<qint64>(), 3000);

    const QList<qint64> after = m_queue->insert(u"s"_s, 20);
    QCOMPARE(after.size(), 20);
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status = 'done'"_s), 40, 10000);
    for (const QueueRow &row : m_queue->rows()) {
        QVERIFY2(row.status == u"done"_s && !row.dispatchError && row.runs(u"s"_s) == 1, qPrintable(row.describe()));
        if (after.contains(row.id))
            QVERIFY2(!workers.contains(row.pid(u"s"_s)), qPrintable(row.describe()));
    }
    QCOMPARE(standby.terminate(), 0);
}

QTEST_GUILESS_MAIN(tst_Failover)
#include "tst_failover.moc"
