// SPDX-License-Identifier: AGPL-3.0-or-later
// Nothing lost, part 1: what happens to a message when its stage misbehaves.
// A failure report, a try-later answer, a stage's own pause, a crash, a hang,
// a protocol violation and a commit followed by a crash, each with the fake
// worker as a real process under a real daemon. Every test checks the final
// status and state.dispatch_error of every message, and state.runs for the
// ones that ran (the fake worker counts its own writes there).
#include "daemonprocess.h"
#include "daemonstart.h"
#include "daemontest.h"

#include <QSet>
#include <QSqlQuery>
#include <QTest>

#include <csignal>
#include <memory>

using namespace Qt::StringLiterals;

class tst_Recovery : public DaemonTest
{
    Q_OBJECT

private Q_SLOTS:
    void failureKeepsTheWorker();
    void tryLaterComesBack();
    void stagePauseComesBack();
    void deathFailsOnlyTheHead_data();
    void deathFailsOnlyTheHead();
    void watchdog_data();
    void watchdog();
    void watchdogTimesEachHeadFromItsStart();
    void protocolViolation();
    void commitThenCrash();

private:
    // A daemon with one stage `s` of the fake worker; the options go to [stage-s].
    std::unique_ptr<DaemonProcess> startDaemon(const DaemonProcess::Options &stageOptions = {},
                                               const DaemonProcess::Options &dispatchOptions = {});
    // The row of `id` is done at `stage`, ran there once and has no dispatch_error.
    void verifyDoneOnce(qint64 id, const QString &stage = u"s"_s);
};

namespace { } // namespace

std::unique_ptr<DaemonProcess> tst_Recovery::startDaemon(const DaemonProcess::Options &stageOptions,
                                                         const DaemonProcess::Options &dispatchOptions)
{
    return startWorkerStage(m_db->uri(), stageOptions, dispatchOptions);
}

void tst_Recovery::verifyDoneOnce(qint64 id, const QString &stage)
{
    const auto row = m_queue->row(id);
    QVERIFY2(row, qPrintable(u"message %1 is gone"_s.arg(id)));
    QVERIFY2(row->status == u"done"_s && row->stage == stage && !row->dispatchError && row->runs(stage) == 1,
             qPrintable(row->describe()));
}

// 1. A non-zero answer fails that message only; the same worker runs the next.
void tst_Recovery::failureKeepsTheWorker()
{
    const auto daemon = startDaemon();
    QVERIFY(daemon);
    const QList<qint64> ids = m_queue->insertModes(u"s"_s, {u"ok"_s, u"fail:3"_s, u"ok"_s});
    QCOMPARE(ids.size(), 3);
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status IN ('done', 'failed')"_s), 3, 10000);

    const auto failed = m_queue->row(ids[1]);
    QVERIFY(failed);
    QCOMPARE(failed->status, u"failed"_s);
    QCOMPARE(failed->dispatchError, u"status 3: fake failure"_s);
    QCOMPARE(failed->runs(u"s"_s), 0);
    verifyDoneOnce(ids[0]);
    verifyDoneOnce(ids[2]);
    // One worker did all three: it survived the failure.
    QCOMPARE(m_queue->row(ids[0])->pid(u"s"_s), m_queue->row(ids[2])->pid(u"s"_s));
    QCOMPARE(daemon->workerPids(u"s"_s), QList<qint64>{m_queue->row(ids[2])->pid(u"s"_s)});
    QCOMPARE(daemon->terminate(), 0);
}

// 2. "75" pauses the message for TEMPFAIL_DELAY; it runs again when due.
void tst_Recovery::tryLaterComesBack()
{
    const auto daemon = startDaemon({}, {{u"TEMPFAIL_DELAY"_s, u"500 ms"_s}});
    QVERIFY(daemon);
    const QList<qint64> ids = m_queue->insertModes(u"s"_s, {u"tempfail-once"_s, u"ok"_s});
    QCOMPARE(ids.size(), 2);

    QTRY_COMPARE_WITH_TIMEOUT(m_queue->row(ids[0])->status, u"paused"_s, 5000);
    const auto paused = m_queue->row(ids[0]);
    QCOMPARE(paused->dispatchError, u"status 75: fake try later"_s);
    // The dispatcher set the due time and `updated` in one statement.
    QCOMPARE(qRound(-paused->updatedMinusTimeoutMs), 500);

    QTRY_COMPARE_WITH_TIMEOUT(m_queue->row(ids[0])->status, u"done"_s, 5000);
    const auto done = m_queue->row(ids[0]);
    // The advance stamped `updated`; `timeout` is still the due time.
    const double lateMs = done->updatedMinusTimeoutMs;
    qInfo("back %.1f ms after its due time", lateMs);
    QVERIFY2(lateMs >= 0 && lateMs < 100, qPrintable(u"ran %1 ms after its due time"_s.arg(lateMs)));
    QCOMPARE(done->runs(u"s"_s), 1);
    // The reason stays as the record of the pause.
    QCOMPARE(done->dispatchError, u"status 75: fake try later"_s);
    verifyDoneOnce(ids[1]);
    QCOMPARE(daemon->terminate(), 0);
}

// 3. A stage pauses its own message: it comes back pending at the due time,
// and the daemon sleeps until then rather than polling.
void tst_Recovery::stagePauseComesBack()
{
    const auto daemon = startDaemon();
    QVERIFY(daemon);
    const QList<qint64> ids = m_queue->insertModes(u"s"_s, {u"pause-once:500"_s});
    QCOMPARE(ids.size(), 1);

    QTRY_COMPARE_WITH_TIMEOUT(m_queue->row(ids[0])->status, u"paused"_s, 5000);
    const qint64 cpuBefore = daemon->cpuTimeMs();
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->row(ids[0])->status, u"done"_s, 5000);
    const qint64 cpuMs = daemon->cpuTimeMs() - cpuBefore;

    const auto done = m_queue->row(ids[0]);
    const double lateMs = done->updatedMinusTimeoutMs;
    qInfo("back %.1f ms after its due time; the daemon used %lld ms of CPU meanwhile", lateMs, cpuMs);
    QVERIFY2(lateMs >= 0 && lateMs < 100, qPrintable(u"ran %1 ms after its due time"_s.arg(lateMs)));
    QVERIFY2(cpuMs < 60, qPrintable(u"%1 ms of CPU while waiting 500 ms"_s.arg(cpuMs)));
    QVERIFY2(!done->dispatchError, qPrintable(done->describe()));
    // The pause was a write of its own.
    QCOMPARE(done->runs(u"s"_s), 2);
    QCOMPARE(done->state.value(u"pause_reason"_s).toString(), u"fake pause"_s);
    QCOMPARE(daemon->terminate(), 0);
}

// 4. A worker that dies fails its head-of-line message; the ids pipelined
// behind it go back to pending and run exactly once on a new worker.
void tst_Recovery::deathFailsOnlyTheHead_data()
{
    QTest::addColumn<QString>("mode");
    QTest::addColumn<QString>("error");
    QTest::newRow("abort") << u"crash"_s << u"crashed: signal 6"_s;
    QTest::newRow("exit:2") << u"exit:2"_s << u"exited with status 2 without answering"_s;
}

void tst_Recovery::deathFailsOnlyTheHead()
{
    QFETCH(QString, mode);
    QFETCH(QString, error);
    const auto daemon = startDaemon({{u"PARALLELISM"_s, u"1"_s}, {u"QUEUE_LIMIT"_s, u"4"_s}});
    QVERIFY(daemon);
    // The slow first one keeps the worker busy while the claim hands all four over.
    const QList<qint64> ids = m_queue->insertModes(u"s"_s, {u"slow:200"_s, mode, u"ok"_s, u"ok"_s});
    QCOMPARE(ids.size(), 4);
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status IN ('done', 'failed')"_s), 4, 10000);

    const auto dead = m_queue->row(ids[1]);
    QCOMPARE(dead->status, u"failed"_s);
    QCOMPARE(dead->dispatchError, error);
    QCOMPARE(dead->runs(u"s"_s), 0);
    for (const qint64 id : {ids[0], ids[2], ids[3]})
        verifyDoneOnce(id);
    // The two behind it ran on the replacement.
    QVERIFY(m_queue->row(ids[2])->pid(u"s"_s) != m_queue->row(ids[0])->pid(u"s"_s));
    QTRY_COMPARE(daemon->countLog(QRegularExpression(u"holding message %1$"_s.arg(ids[1]))), 1);
    QCOMPARE(daemon->terminate(), 0);
}

// 5. The head-of-line message outlives MAX_RUNTIME: timeout, the worker is
// terminated (killed after the grace if it ignores SIGTERM), and the ids
// behind it are requeued only once it has exited.
void tst_Recovery::watchdog_data()
{
    QTest::addColumn<QString>("mode");
    QTest::addColumn<bool>("ignoresTerm");
    QTest::addColumn<int>("endedBy");
    QTest::newRow("hang") << u"hang"_s << false << 15;
    QTest::newRow("ignore-sigterm") << u"ignore-sigterm"_s << true << 9;
}

void tst_Recovery::watchdog()
{
    QFETCH(QString, mode);
    QFETCH(bool, ignoresTerm);
    QFETCH(int, endedBy);
    const auto daemon =
        startDaemon({{u"PARALLELISM"_s, u"1"_s}, {u"QUEUE_LIMIT"_s, u"4"_s}}, {{u"MAX_RUNTIME"_s, u"1 s"_s}});
    QVERIFY(daemon);
    const QList<qint64> ids = m_queue->insertModes(u"s"_s, {mode, u"ok"_s, u"ok"_s});
    QCOMPARE(ids.size(), 3);
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status = 'running'"_s), 3, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(daemon->workerPids(u"s"_s).size(), 1, 5000);
    const qint64 hung = daemon->workerPids(u"s"_s).constFirst();

    QTRY_COMPARE_WITH_TIMEOUT(m_queue->row(ids[0])->status, u"timeout"_s, 5000);
    if (ignoresTerm) {
        // SIGTERM did nothing: until the SIGKILL 2 s later the process may
        // still act on what it holds, so those stay running.
        QVERIFY2(!DaemonProcess::isGone(hung), "the worker that ignores SIGTERM died before the kill grace");
        QCOMPARE(m_queue->count(u"workqueue_id IN (%1, %2) AND status = 'running'"_s.arg(ids[1]).arg(ids[2])), 2);
    }
    QTRY_VERIFY_WITH_TIMEOUT(DaemonProcess::isGone(hung), 5000);
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status = 'done'"_s), 2, 10000);

    const auto timedOut = m_queue->row(ids[0]);
    QCOMPARE(timedOut->dispatchError, u"timeout after 1 s"_s);
    QCOMPARE(timedOut->runs(u"s"_s), 0);
    for (const qint64 id : {ids[1], ids[2]}) {
        verifyDoneOnce(id);
        QVERIFY(m_queue->row(id)->pid(u"s"_s) != hung);
    }
    QTRY_COMPARE(daemon->countLog(QRegularExpression(u"pid %1 exited crashed: signal %2$"_s.arg(hung).arg(endedBy))),
                 1);
    QCOMPARE(daemon->terminate(), 0);
}

// 6. A line outside the grammar fails the head with the line quoted, the
// worker is replaced, and the rest run exactly once on the new one.
// The watchdog timer is armed once per busy spell, not per answer: a head
// that follows an answered one still gets its whole MAX_RUNTIME.
void tst_Recovery::watchdogTimesEachHeadFromItsStart()
{
    const auto daemon =
        startDaemon({{u"PARALLELISM"_s, u"1"_s}, {u"QUEUE_LIMIT"_s, u"4"_s}}, {{u"MAX_RUNTIME"_s, u"1 s"_s}});
    QVERIFY(daemon);
    const QList<qint64> ids = m_queue->insertModes(u"s"_s, {u"slow:600"_s, u"hang"_s});
    QCOMPARE(ids.size(), 2);
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->row(ids[1])->status, u"timeout"_s, 10000);
    verifyDoneOnce(ids[0]);

    // from the first message's write (its answer comes after) to the timeout
    QSqlQuery q(m_db->db());
    q.prepare(u"SELECT extract(epoch FROM b.updated - a.updated) * 1000 FROM workqueue a, workqueue b "
              u"WHERE a.workqueue_id = :a AND b.workqueue_id = :b"_s);
    q.bindValue(u":a"_s, ids[0]);
    q.bindValue(u":b"_s, ids[1]);
    QVERIFY(q.exec() && q.next());
    const double gapMs = q.value(0).toDouble();
    QVERIFY2(gapMs >= 950, qPrintable(u"the second head timed out %1 ms after the first was done"_s.arg(gapMs)));
    QCOMPARE(daemon->terminate(), 0);
}

void tst_Recovery::protocolViolation()
{
    const auto daemon = startDaemon({{u"PARALLELISM"_s, u"1"_s}, {u"QUEUE_LIMIT"_s, u"4"_s}});
    QVERIFY(daemon);
    const QList<qint64> ids = m_queue->insertModes(u"s"_s, {u"slow:200"_s, u"garbage"_s, u"ok"_s, u"ok"_s});
    QCOMPARE(ids.size(), 4);
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status IN ('done', 'failed')"_s), 4, 10000);

    const auto bad = m_queue->row(ids[1]);
    QCOMPARE(bad->status, u"failed"_s);
    QCOMPARE(bad->dispatchError, u"protocol error: \"this is not a status line\""_s);
    for (const qint64 id : {ids[0], ids[2], ids[3]})
        verifyDoneOnce(id);
    const qint64 replaced = m_queue->row(ids[0])->pid(u"s"_s);
    QVERIFY(DaemonProcess::isGone(replaced));
    for (const qint64 id : {ids[2], ids[3]})
        QVERIFY(m_queue->row(id)->pid(u"s"_s) != replaced);
    QCOMPARE(daemon->terminate(), 0);
}

// 7. The worker commits its advance and dies before answering; the next stage
// is quick to claim the row. The crash report must not clobber it.
void tst_Recovery::commitThenCrash()
{
    auto daemon = std::make_unique<DaemonProcess>(m_db->uri());
    daemon->addStage(u"a"_s, DaemonProcess::fakeWorker(), {{u"NEXT"_s, u"b"_s}});
    daemon->addStage(u"b"_s, DaemonProcess::fakeWorker());
    QVERIFY(daemon->start());
    QVERIFY2(daemon->waitForReady(), qPrintable(daemon->log()));

    // Two of them linger after the commit while b (slow) has claimed the row
    // and holds it running: only the claim token tells the rows apart then.
    QList<QJsonObject> fakes;
    const QSet<int> crashing{1, 6, 10, 13, 17};
    const QSet<int> lingering{6, 13};
    for (int i = 0; i < 20; ++i) {
        if (lingering.contains(i))
            fakes.append(QJsonObject{{u"a"_s, u"commit-crash:300"_s}, {u"b"_s, u"slow:600"_s}});
        else if (crashing.contains(i))
            fakes.append(QJsonObject{{u"a"_s, u"commit-crash"_s}});
        else
            fakes.append(QJsonObject());
    }
    const QList<qint64> ids = m_queue->insertFakes(u"a"_s, fakes);
    QCOMPARE(ids.size(), 20);
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status NOT IN ('pending', 'running', 'paused')"_s), 20, 15000);

    for (const QueueRow &row : m_queue->rows()) {
        QVERIFY2(row.status == u"done"_s && row.stage == u"b"_s && !row.dispatchError && row.runs(u"a"_s) == 1
                     && row.runs(u"b"_s) == 1,
                 qPrintable(row.describe()));
    }
    // A worker whose first message is one of these exits before answering
    // anything: a start failure (requeued; the guard leaves the advanced row alone).
    QTRY_COMPARE(
        daemon->countLog(QRegularExpression(
            u"stage a pid [0-9]+ exited exited with status 3 (without answering|before answering anything)$"_s)),
        crashing.size());
    QCOMPARE(daemon->terminate(), 0);
}

QTEST_GUILESS_MAIN(tst_Recovery)
#include "tst_recovery.moc"
