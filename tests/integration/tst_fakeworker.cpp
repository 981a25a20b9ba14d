// SPDX-License-Identifier: AGPL-3.0-or-later
// pepsi-fakeworker's modes, so the daemon's tests can rely on them: each
// mode's answer, its effect on the row, and how the process ends.
#include "stagekittest.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QTest>

#include <csignal>
#include <memory>

using namespace Qt::StringLiterals;

namespace {

// A worker that must not answer (or must not end) leaves nothing to wait
// for: these tests watch it for a while, long enough for the fake worker to
// have read the row and reached its mode on a loaded machine.
constexpr int SilenceWindowMs = 500;

} // namespace

// StageKitTest's init() and cleanup(); only the fake worker needs to be built.
class tst_FakeWorker : public StageKitTest
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();

    void answers_data();
    void answers();
    void endsWithoutAnswering_data();
    void endsWithoutAnswering();
    void garbageAnswersNothingElse();
    void hangs_data();
    void hangs();
    void recordsFds();
    void countsEveryRun();

private:
    qint64 fakeRow(const QString &mode)
    {
        return m_harness->insertRow(u"fake"_s, u"running"_s, {{u"fake"_s, QJsonObject{{u"fake"_s, mode}}}});
    }
};

void tst_FakeWorker::initTestCase()
{
    PEPSI_REQUIRE_DATABASE_IN(m_db, "fakeworker");
    const QString path = WorkerHarness::binary(WorkerHarness::Fake);
    QVERIFY2(QFile::exists(path), qPrintable(path + u" is missing: is PEPSI_BUILD_DIR set?"_s));
}

void tst_FakeWorker::answers_data()
{
    QTest::addColumn<QString>("mode");
    QTest::addColumn<QByteArray>("answer"); // %ID% is the row's id
    QTest::addColumn<QString>("stage");
    QTest::addColumn<QString>("status");
    QTest::addColumn<int>("runs");
    QTest::addColumn<QByteArray>("stderrHas");

    QTest::newRow("ok") << u"ok"_s << QByteArray("0") << u"last"_s << u"pending"_s << 1 << QByteArray();
    QTest::newRow("slow") << u"slow:200"_s << QByteArray("0") << u"last"_s << u"pending"_s << 1 << QByteArray();
    QTest::newRow("fail") << u"fail:3"_s << QByteArray("3 fake failure") << u"fake"_s << u"running"_s << 0
                          << QByteArray();
    QTest::newRow("tempfail") << u"tempfail"_s << QByteArray("75 fake try later") << u"fake"_s << u"running"_s << 0
                              << QByteArray();
    QTest::newRow("pause") << u"pause:60000"_s << QByteArray("0") << u"fake"_s << u"paused"_s << 1 << QByteArray();
    QTest::newRow("stderr") << u"stderr"_s << QByteArray("0") << u"last"_s << u"pending"_s << 1
                            << QByteArray("fake stderr line for %ID%\n");
    QTest::newRow("unknown mode") << u"dance"_s << QByteArray("2 fake: unknown mode \"dance\"") << u"fake"_s
                                  << u"running"_s << 0 << QByteArray();
}

void tst_FakeWorker::answers()
{
    QFETCH(QString, mode);
    QFETCH(QByteArray, answer);
    QFETCH(QString, stage);
    QFETCH(QString, status);
    QFETCH(int, runs);
    QFETCH(QByteArray, stderrHas);

    const qint64 id = fakeRow(mode);
    const QByteArray idText = QByteArray::number(id);
    QProcess &worker = m_harness->start(WorkerHarness::Fake, u"fake"_s);
    QElapsedTimer timer;
    timer.start();
    QCOMPARE(WorkerHarness::exchange(worker, idText + '\n', 1), QByteArrayList{answer.replace("%ID%", idText)});
    if (mode.startsWith(u"slow:"_s))
        QVERIFY(timer.elapsed() >= 200);

    const QVariantMap row = m_harness->row(id);
    QCOMPARE(row.value(u"stage"_s).toString(), stage);
    QCOMPARE(row.value(u"status"_s).toString(), status);
    const QJsonObject state = row.value(u"state"_s).toJsonObject();
    QCOMPARE(state[u"runs"_s][u"fake"_s].toInt(), runs);
    if (runs > 0)
        QCOMPARE(state[u"pids"_s][u"fake"_s].toInteger(), worker.processId());
    if (status == u"paused"_s) {
        QVERIFY(row.value(u"pausedForAMinute"_s).toBool());
        QCOMPARE(state[u"pause_reason"_s].toString(), u"fake pause"_s);
    }
    QCOMPARE(WorkerHarness::finish(worker), u"exit 0"_s);
    if (!stderrHas.isEmpty())
        QVERIFY(worker.readAllStandardError().contains(stderrHas.replace("%ID%", idText)));
}

void tst_FakeWorker::endsWithoutAnswering_data()
{
    QTest::addColumn<QString>("mode");
    QTest::addColumn<QString>("end");
    QTest::addColumn<QString>("stage");
    QTest::addColumn<QString>("status");

    QTest::newRow("exit") << u"exit:5"_s << u"exit 5"_s << u"fake"_s << u"running"_s;
    QTest::newRow("exit 0") << u"exit:0"_s << u"exit 0"_s << u"fake"_s << u"running"_s;
    QTest::newRow("crash") << u"crash"_s << u"signal %1"_s.arg(SIGABRT) << u"fake"_s << u"running"_s;
    QTest::newRow("commit-crash") << u"commit-crash"_s << u"exit 3"_s << u"last"_s << u"pending"_s;
}

void tst_FakeWorker::endsWithoutAnswering()
{
    QFETCH(QString, mode);
    QFETCH(QString, end);
    QFETCH(QString, stage);
    QFETCH(QString, status);

    const qint64 id = fakeRow(mode);
    QProcess &worker = m_harness->start(WorkerHarness::Fake, u"fake"_s);
    worker.write(QByteArray::number(id) + '\n');
    QVERIFY(worker.waitForFinished(10000));
    QCOMPARE(WorkerHarness::finish(worker), end);
    QCOMPARE(worker.readAllStandardOutput(), QByteArray());
    QCOMPARE(m_harness->place(id), QString(stage + u' ' + status));
}

void tst_FakeWorker::garbageAnswersNothingElse()
{
    const qint64 garbage = fakeRow(u"garbage"_s);
    const qint64 after = fakeRow(u"ok"_s);
    QProcess &worker = m_harness->start(WorkerHarness::Fake, u"fake"_s);
    const QByteArray batch = QByteArray::number(garbage) + '\n' + QByteArray::number(after) + '\n';
    QCOMPARE(WorkerHarness::exchange(worker, batch, 1), QByteArrayList{"this is not a status line"});
    // Nothing else, up to its exit at the end of its input.
    QCOMPARE(WorkerHarness::finish(worker), u"exit 0"_s);
    QCOMPARE(worker.readAllStandardOutput(), QByteArray());
    QCOMPARE(m_harness->row(after).value(u"status"_s).toString(), u"running"_s);
}

void tst_FakeWorker::hangs_data()
{
    QTest::addColumn<QString>("mode");
    QTest::addColumn<bool>("sigtermEndsIt");

    QTest::newRow("hang") << u"hang"_s << true;
    QTest::newRow("ignore-sigterm") << u"ignore-sigterm"_s << false;
}

void tst_FakeWorker::hangs()
{
    QFETCH(QString, mode);
    QFETCH(bool, sigtermEndsIt);

    const qint64 id = fakeRow(mode);
    QProcess &worker = m_harness->start(WorkerHarness::Fake, u"fake"_s);
    worker.write(QByteArray::number(id) + '\n');
    QVERIFY(!worker.waitForReadyRead(SilenceWindowMs));
    worker.terminate();
    if (sigtermEndsIt) {
        QVERIFY(worker.waitForFinished(5000));
        QCOMPARE(WorkerHarness::finish(worker), u"signal %1"_s.arg(SIGTERM));
    } else {
        QVERIFY(!worker.waitForFinished(SilenceWindowMs));
        worker.kill();
        QVERIFY(worker.waitForFinished(5000));
        QCOMPARE(WorkerHarness::finish(worker), u"signal %1"_s.arg(SIGKILL));
    }
    QCOMPARE(m_harness->row(id).value(u"status"_s).toString(), u"running"_s);
}

void tst_FakeWorker::recordsFds()
{
    const qint64 id = fakeRow(u"fds"_s);
    QProcess &worker = m_harness->start(WorkerHarness::Fake, u"fake"_s);
    QCOMPARE(WorkerHarness::exchange(worker, QByteArray::number(id) + '\n', 1), QByteArrayList{"0"});
    const QJsonArray fds = m_harness->state(id)[u"fds"_s][u"fake"_s].toArray();
    // stdin, stdout, stderr and the database socket at least
    QVERIFY2(fds.size() >= 4, qPrintable(QString::number(fds.size())));
    for (int fd : {0, 1, 2})
        QVERIFY(fds.contains(fd));
    QCOMPARE(m_harness->row(id).value(u"stage"_s).toString(), u"last"_s);
    QCOMPARE(WorkerHarness::finish(worker), u"exit 0"_s);
}

void tst_FakeWorker::countsEveryRun()
{
    const qint64 id = fakeRow(u"ok"_s);
    QProcess &worker = m_harness->start(WorkerHarness::Fake, u"fake"_s);
    for (int run = 1; run <= 3; ++run) {
        QCOMPARE(WorkerHarness::exchange(worker, QByteArray::number(id) + '\n', 1), QByteArrayList{"0"});
        QCOMPARE(m_harness->state(id)[u"runs"_s][u"fake"_s].toInt(), run);
        // the test claims it again, as the dispatcher would after a reset
        QCOMPARE(m_harness->exec(u"UPDATE workqueue SET stage = 'fake', status = 'running'"_s), QString());
    }
    QCOMPARE(WorkerHarness::finish(worker), u"exit 0"_s);
}

QTEST_GUILESS_MAIN(tst_FakeWorker)
#include "tst_fakeworker.moc"
