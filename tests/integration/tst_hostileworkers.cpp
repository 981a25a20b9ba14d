// SPDX-License-Identifier: AGPL-3.0-or-later
// The worker protocol's limits (doc/stage-programs.rst), through the real daemon: workers that answer with what
// PostgreSQL cannot store, with reasons of any length, that flood stdout or
// stderr, that exit before answering anything, that start slowly, and that
// crash while the daemon stops them. Each test checks the rows' outcomes.
#include "daemonprocess.h"
#include "daemonstart.h"
#include "databasefixture.h"

#include <QElapsedTimer>
#include <QTest>

#include <memory>

using namespace Qt::StringLiterals;

class tst_HostileWorkers : public QObject, private DatabaseFixture
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void badReasonDoesNotWedgeWrites_data();
    void badReasonDoesNotWedgeWrites();
    void longReasonKeepsTheNextAnswer_data();
    void longReasonKeepsTheNextAnswer();
    void stdoutFloodInFlatMemory();
    void stderrFloodIsRateLimited();
    void startFailureFailsNothing_data();
    void startFailureFailsNothing();
    void watchdogWaitsForASlowStart();
    void crashWhileStoppingFailsTheHead();
    void workerThatStopsReadingIsReplaced();

private:
    std::unique_ptr<DaemonProcess> startDaemon(const DaemonProcess::Options &stageOptions = {},
                                               const DaemonProcess::Options &dispatchOptions = {},
                                               bool withSecondStage = false);
};

void tst_HostileWorkers::initTestCase() { PEPSI_REQUIRE_BINARIES(); }

void tst_HostileWorkers::init() { PEPSI_INIT_DATABASE_FIXTURE(); }

void tst_HostileWorkers::cleanup()
{
    qunsetenv("PEPSI_FAKE_START");
    resetDatabase();
}

std::unique_ptr<DaemonProcess> tst_HostileWorkers::startDaemon(const DaemonProcess::Options &stageOptions,
                                                               const DaemonProcess::Options &dispatchOptions,
                                                               bool withSecondStage)
{
    return startWorkerStage(m_db->uri(), stageOptions, dispatchOptions,
                            withSecondStage ? QStringList{u"b"_s} : QStringList{});
}

// 8.1: a reason with a NUL byte (or invalid UTF-8 and an escape sequence) is
// cleaned; every later outcome, of any kind, is still written.
void tst_HostileWorkers::badReasonDoesNotWedgeWrites_data()
{
    QTest::addColumn<QString>("mode");
    QTest::addColumn<QString>("error");
    const QString replaced(QChar::ReplacementCharacter);
    QTest::newRow("NUL") << u"nul-reason"_s << QString(u"status 3: bad"_s + replaced + u"reason / 3 fake failure"_s);
    QTest::newRow("invalid UTF-8") << u"bad-utf8"_s
                                   << QString(u"status 3: bad "_s + replaced + replaced + u" utf-8 "_s + replaced
                                              + u"[0m / 3 fake failure"_s);
}

void tst_HostileWorkers::badReasonDoesNotWedgeWrites()
{
    QFETCH(QString, mode);
    QFETCH(QString, error);
    const auto daemon = startDaemon({{u"PARALLELISM"_s, u"1"_s}}, {{u"TEMPFAIL_DELAY"_s, u"60 s"_s}});
    QVERIFY(daemon);
    const QList<qint64> ids = m_queue->insertModes(u"s"_s, {mode, u"fail:4"_s, u"ok"_s});
    QCOMPARE(ids.size(), 3);
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status IN ('done', 'failed')"_s), 3, 10000);
    QCOMPARE(m_queue->row(ids[0])->status, u"failed"_s);
    QCOMPARE(*m_queue->row(ids[0])->dispatchError, error);
    QCOMPARE(*m_queue->row(ids[1])->dispatchError, u"status 4: fake failure"_s);

    // Later outcomes of every kind still reach the database.
    const QList<qint64> later = m_queue->insertModes(u"s"_s, {u"fail:5"_s, u"tempfail"_s, u"ok"_s});
    QCOMPARE(later.size(), 3);
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status IN ('done', 'failed', 'paused')"_s), 6, 10000);
    QCOMPARE(m_queue->row(later[0])->status, u"failed"_s);
    QCOMPARE(m_queue->row(later[1])->status, u"paused"_s);
    QCOMPARE(m_queue->row(later[2])->status, u"done"_s);
    QCOMPARE(daemon->countLog(QRegularExpression(u"cannot be written|written without its reason"_s)), 0);
    QCOMPARE(daemon->terminate(), 0);
}

// 8.2: a long reason is legal: its first 1000 bytes are kept, and the line
// after it answers the next message, on the same worker.
void tst_HostileWorkers::longReasonKeepsTheNextAnswer_data()
{
    QTest::addColumn<int>("bytes");
    QTest::newRow("100 KB") << 100 * 1024;
    QTest::newRow("1 MB") << 1024 * 1024;
}

void tst_HostileWorkers::longReasonKeepsTheNextAnswer()
{
    QFETCH(int, bytes);
    const auto daemon = startDaemon({{u"PARALLELISM"_s, u"1"_s}, {u"QUEUE_LIMIT"_s, u"4"_s}});
    QVERIFY(daemon);
    const QList<qint64> ids = m_queue->insertModes(u"s"_s, {u"long-reason:%1"_s.arg(bytes), u"ok"_s, u"ok"_s});
    QCOMPARE(ids.size(), 3);
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status IN ('done', 'failed')"_s), 3, 10000);
    const auto failed = m_queue->row(ids[0]);
    QCOMPARE(failed->status, u"failed"_s);
    QCOMPARE(*failed->dispatchError, QString(u"status 3: "_s + QString(1000, u'r')));
    for (const qint64 id : {ids[1], ids[2]}) {
        const auto row = m_queue->row(id);
        QVERIFY2(row->status == u"done"_s && !row->dispatchError && row->runs(u"s"_s) == 1,
                 qPrintable(row->describe()));
    }
    // No protocol error, no replacement: one worker did all three.
    const qint64 pid = m_queue->row(ids[2])->pid(u"s"_s);
    QCOMPARE(m_queue->row(ids[1])->pid(u"s"_s), pid);
    QCOMPARE(daemon->workerPids(u"s"_s), QList<qint64>{pid});
    QCOMPARE(daemon->countLog(QRegularExpression(u"protocol error"_s)), 0);
    QCOMPARE(daemon->terminate(), 0);
}

// 8.2: 50 MB of stdout without a newline, from a worker that ignores SIGTERM
// and goes on writing until the SIGKILL: the daemon's memory stays flat.
void tst_HostileWorkers::stdoutFloodInFlatMemory()
{
    const auto daemon = startDaemon({{u"PARALLELISM"_s, u"1"_s}, {u"QUEUE_LIMIT"_s, u"4"_s}});
    QVERIFY(daemon);
    const qint64 before = DaemonProcess::procStatusKiB(daemon->pid(), u"VmHWM"_s);
    QElapsedTimer clock;
    clock.start();
    const QList<qint64> ids = m_queue->insertModes(u"s"_s, {u"stdout-flood:%1"_s.arg(50 * 1024 * 1024), u"ok"_s});
    QCOMPARE(ids.size(), 2);
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status IN ('done', 'failed')"_s), 2, 15000);
    const qint64 peak = DaemonProcess::procStatusKiB(daemon->pid(), u"VmHWM"_s);
    qInfo("stdout flood: daemon peak RSS %lld KiB before, %lld KiB after (+%lld KiB); settled after %lld ms", before,
          peak, peak - before, clock.elapsed());
    const auto flooded = m_queue->row(ids[0]);
    QCOMPARE(flooded->status, u"failed"_s);
    QVERIFY2(flooded->dispatchError->startsWith(u"protocol error: \"xxxx"_s), qPrintable(flooded->describe()));
    QVERIFY2(flooded->dispatchError->size() < 300, qPrintable(flooded->describe()));
    QCOMPARE(m_queue->row(ids[1])->status, u"done"_s);
    QVERIFY2(before > 0 && peak - before < 16 * 1024, qPrintable(u"peak RSS grew by %1 KiB"_s.arg(peak - before)));
    QCOMPARE(daemon->terminate(), 0);
}

// 8.2: a worker that floods stderr is logged at a bounded rate with a count
// of what was dropped; other stages go on meanwhile; memory stays flat.
void tst_HostileWorkers::stderrFloodIsRateLimited()
{
    const auto daemon = startDaemon({{u"PARALLELISM"_s, u"1"_s}}, {}, true);
    QVERIFY(daemon);
    const qint64 before = DaemonProcess::procStatusKiB(daemon->pid(), u"VmHWM"_s);
    QElapsedTimer clock;
    clock.start();
    const QList<qint64> ids = m_queue->insertModes(u"s"_s, {u"stderr-flood:300000"_s, u"ok"_s});
    QCOMPARE(ids.size(), 2);
    QCOMPARE(m_queue->insert(u"b"_s, 100).size(), 100);
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"stage = 'b' AND status = 'done'"_s), 100, 20000);
    const qint64 otherStageMs = clock.elapsed();
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status = 'done'"_s), 102, 30000);
    const qint64 peak = DaemonProcess::procStatusKiB(daemon->pid(), u"VmHWM"_s);
    QTRY_VERIFY(daemon->countLog(QRegularExpression(u"stderr: [0-9]+ lines dropped"_s)) >= 1);
    const int logged = daemon->countLog(QRegularExpression(u"stderr: fake flood line"_s));
    qInfo("stderr flood of 300000 lines: %d logged, the other stage's 100 messages done after %lld ms, "
          "all after %lld ms; daemon peak RSS +%lld KiB",
          logged, otherStageMs, clock.elapsed(), peak - before);
    QVERIFY2(logged <= 50 * (clock.elapsed() / 1000 + 2), qPrintable(QString::number(logged)));
    QVERIFY2(peak - before < 16 * 1024, qPrintable(u"peak RSS grew by %1 KiB"_s.arg(peak - before)));
    QCOMPARE(daemon->terminate(), 0);
}

// 8.3: a program that exits with a status at start (a bad configuration, a
// missing library) fails no message: its stage cools down, says why, and the
// other stage runs.
void tst_HostileWorkers::startFailureFailsNothing_data()
{
    QTest::addColumn<int>("status");
    QTest::newRow("exit 78") << 78;
    QTest::newRow("exit 127") << 127;
}

void tst_HostileWorkers::startFailureFailsNothing()
{
    QFETCH(int, status);
    qputenv("PEPSI_FAKE_START", "s=exit:" + QByteArray::number(status));
    const auto daemon = startDaemon({{u"PARALLELISM"_s, u"3"_s}}, {}, true);
    QVERIFY(daemon);
    QCOMPARE(m_queue->insert(u"s"_s, 6).size(), 6);
    QCOMPARE(m_queue->insert(u"b"_s, 3).size(), 3);
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"stage = 'b' AND status = 'done'"_s), 3, 10000);
    // Two rounds of start failures: the first cooldown (1 s) and the next.
    const QRegularExpression cooldown(
        u"stage s (still )?cannot run workers: exited with status %1 before answering anything; "
        "last stderr line: \"pepsi-fakeworker: exiting with status %1 at start\""_s.arg(status));
    QTRY_VERIFY_WITH_TIMEOUT(daemon->countLog(cooldown) >= 2, 10000);
    QCOMPARE(m_queue->count(u"stage = 's' AND status NOT IN ('pending', 'running')"_s), 0);
    QCOMPARE(daemon->terminate(), 0);
    QCOMPARE(m_queue->count(u"stage = 's' AND status = 'pending'"_s), 6);
    QCOMPARE(m_queue->count(u"stage = 's' AND state ? 'dispatch_error'"_s), 0);
}

// 8.4: a worker that takes 2.5 s to start (configuration, database) is not
// timed meanwhile; MAX_RUNTIME counts from when it reads its ids.
void tst_HostileWorkers::watchdogWaitsForASlowStart()
{
    qputenv("PEPSI_FAKE_START", "s=sleep:2500");
    const auto daemon =
        startDaemon({{u"PARALLELISM"_s, u"1"_s}, {u"QUEUE_LIMIT"_s, u"4"_s}}, {{u"MAX_RUNTIME"_s, u"1 s"_s}});
    QVERIFY(daemon);
    QElapsedTimer clock;
    clock.start();
    const QList<qint64> ids = m_queue->insertModes(u"s"_s, {u"ok"_s, u"hang"_s, u"ok"_s});
    QCOMPARE(ids.size(), 3);
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->row(ids[1])->status, u"timeout"_s, 10000);
    const qint64 timedOutAfter = clock.elapsed();
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->row(ids[2])->status, u"done"_s, 15000);
    qInfo("with a 2.5 s start-up and MAX_RUNTIME 1 s, the hanging message timed out %lld ms after the insert",
          timedOutAfter);
    const auto first = m_queue->row(ids[0]);
    QVERIFY2(first->status == u"done"_s && first->runs(u"s"_s) == 1 && !first->dispatchError,
             qPrintable(first->describe()));
    QCOMPARE(*m_queue->row(ids[1])->dispatchError, u"timeout after 1 s"_s);
    QVERIFY2(timedOutAfter >= 3400, "the hang was timed from before the worker had started");
    QCOMPARE(daemon->terminate(), 0);
}

// 8.5: a worker that crashes while the daemon stops it fails its head-of-line
// message like any crash (a poison message must not go back to pending).
void tst_HostileWorkers::crashWhileStoppingFailsTheHead()
{
    const auto daemon = startDaemon({{u"PARALLELISM"_s, u"1"_s}, {u"QUEUE_LIMIT"_s, u"4"_s}});
    QVERIFY(daemon);
    const QList<qint64> ids = m_queue->insertModes(u"s"_s, {u"slow:1500"_s, u"crash"_s, u"ok"_s});
    QCOMPARE(ids.size(), 3);
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status = 'running'"_s), 3, 5000);
    QCOMPARE(daemon->terminate(), 0); // its input closes: it finishes slow:1500, then crashes
    const auto slow = m_queue->row(ids[0]);
    QVERIFY2(slow->status == u"done"_s, qPrintable(slow->describe()));
    const auto poison = m_queue->row(ids[1]);
    QVERIFY2(poison->status == u"failed"_s && poison->dispatchError == u"crashed: signal 6"_s,
             qPrintable(poison->describe()));
    const auto behind = m_queue->row(ids[2]);
    QVERIFY2(behind->status == u"pending"_s && !behind->dispatchError, qPrintable(behind->describe()));
}

// A worker that answered, then stopped reading its stdin and lives on, gets
// ids the pipe refuses (EPIPE): it is stopped, and what it was handed runs on
// the next worker; before, those ids waited for MAX_RUNTIME (or for ever).
void tst_HostileWorkers::workerThatStopsReadingIsReplaced()
{
    const auto daemon = startDaemon({{u"PARALLELISM"_s, u"1"_s}, {u"QUEUE_LIMIT"_s, u"4"_s}});
    QVERIFY(daemon);
    const QList<qint64> first = m_queue->insertModes(u"s"_s, {u"drop-input"_s});
    QCOMPARE(first.size(), 1);
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->row(first[0])->status, u"done"_s, 5000);
    const QList<qint64> later = m_queue->insertModes(u"s"_s, {u"ok"_s, u"ok"_s});
    QCOMPARE(later.size(), 2);
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status = 'done'"_s), 3, 10000);
    for (const qint64 id : later) {
        const auto row = m_queue->row(id);
        QVERIFY2(row->runs(u"s"_s) == 1 && !row->dispatchError, qPrintable(row->describe()));
        QVERIFY2(row->pid(u"s"_s) != m_queue->row(first[0])->pid(u"s"_s), qPrintable(row->describe()));
    }
    QTRY_COMPARE(daemon->countLog(QRegularExpression(
                     u"stopped reading its input \\(Broken pipe\\) and did not exit within 2000 ms"_s)),
                 1);
    QCOMPARE(daemon->terminate(), 0);
}

QTEST_GUILESS_MAIN(tst_HostileWorkers)
#include "tst_hostileworkers.moc"
