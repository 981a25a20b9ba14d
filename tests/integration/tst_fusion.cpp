// SPDX-License-Identifier: AGPL-3.0-or-later
// Stage fusion. Through the kit alone (the test plays the dispatcher): an
// advance to a FUSE = YES successor with the same PROGRAM keeps the row
// running there and runs that stage in the same pass, reported as
// "0 +stage:usec"; a fused stage's failure is the answer, with the row left
// running at that stage. Through the daemon: the fused stage gets no worker of
// its own, its runs count as its own, and what goes wrong in it happens to
// the row at that stage.
#include "daemonprocess.h"
#include "daemonstart.h"
#include "databasefixture.h"
#include "sampler.h"
#include "workerharness.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSqlError>
#include <QSqlQuery>
#include <QTest>
#include <QTimer>

#include <functional>
#include <memory>

using namespace Qt::StringLiterals;

namespace {

// Appended to the harness's pipeline: f1 -> f2 -> f3 fuse; g2 fuses but is
// another program; h2 does not fuse; e1 -> e2 is the reference stage.
const QString FusedStages = uR"(
[stage-f1]
PROGRAM = pepsi-fakeworker
NEXT = f2

[stage-f2]
PROGRAM = pepsi-fakeworker
FUSE = YES
NEXT = f3

[stage-f3]
PROGRAM = pepsi-fakeworker
FUSE = YES

[stage-g1]
PROGRAM = pepsi-fakeworker
NEXT = g2

[stage-g2]
PROGRAM = pepsi-stage-example
FUSE = YES

[stage-h1]
PROGRAM = pepsi-fakeworker
NEXT = h2

[stage-h2]
PROGRAM = pepsi-fakeworker

[stage-e1]
PROGRAM = pepsi-stage-example
NEXT = e2

[stage-e2]
PROGRAM = pepsi-stage-example
FUSE = YES
)"_s;

} // namespace

class tst_Fusion : public QObject, private DatabaseFixture
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void kitRunsFusedStages_data();
    void kitRunsFusedStages();
    void kitSetupErrorOfAFusedStageIsExit78();
    void fusedStageRunsInThePredecessorsWorker();
    void fusedStageOutcomes_data();
    void fusedStageOutcomes();

private:
    bool insertMessages(const QString &stage, int count, const QJsonObject &fake = {});
};

void tst_Fusion::initTestCase()
{
    for (const QString &path :
         {DaemonProcess::daemonBinary(), DaemonProcess::fakeWorker(), DaemonProcess::exampleStage()})
        QVERIFY2(QFile::exists(path), qPrintable(path + u" is missing: is PEPSI_BUILD_DIR set?"_s));
}

void tst_Fusion::init() { PEPSI_INIT_DATABASE_FIXTURE(); }

void tst_Fusion::cleanup() { resetDatabase(); }

bool tst_Fusion::insertMessages(const QString &stage, int count, const QJsonObject &fake)
{
    return !m_queue->insert(stage, count, fake).isEmpty();
}

// One message, one worker of `stage`, one answer: the line, where the row
// ends, and which stages ran it (state.runs; the fake worker only).
void tst_Fusion::kitRunsFusedStages_data()
{
    QTest::addColumn<QString>("program");
    QTest::addColumn<QString>("stage");
    QTest::addColumn<QJsonObject>("fake");
    QTest::addColumn<QString>("answer"); // a pattern
    QTest::addColumn<QString>("endStage");
    QTest::addColumn<QString>("endStatus");
    QTest::addColumn<QStringList>("ran");

    const QString fake = WorkerHarness::Fake;
    QTest::newRow("two fused stages") << fake << u"f1"_s << QJsonObject() << u"0 \\+f2:\\d+ \\+f3:\\d+"_s << u"f3"_s
                                      << u"done"_s << QStringList{u"f1"_s, u"f2"_s, u"f3"_s};
    QTest::newRow("fused stage timed") << fake << u"f1"_s << QJsonObject{{u"f3"_s, u"slow:100"_s}}
                                       << u"0 \\+f2:\\d+ \\+f3:[1-9]\\d{5,}"_s << u"f3"_s << u"done"_s
                                       << QStringList{u"f1"_s, u"f2"_s, u"f3"_s};
    QTest::newRow("first fused fails") << fake << u"f1"_s << QJsonObject{{u"f2"_s, u"fail:7"_s}} << u"7 fake failure"_s
                                       << u"f2"_s << u"running"_s << QStringList{u"f1"_s};
    QTest::newRow("second fused fails") << fake << u"f1"_s << QJsonObject{{u"f3"_s, u"fail:9"_s}} << u"9 fake failure"_s
                                        << u"f3"_s << u"running"_s << QStringList{u"f1"_s, u"f2"_s};
    QTest::newRow("fused tries later") << fake << u"f1"_s << QJsonObject{{u"f2"_s, u"tempfail"_s}}
                                       << u"75 fake try later"_s << u"f2"_s << u"running"_s << QStringList{u"f1"_s};
    QTest::newRow("fused pauses: the pass ends")
        << fake << u"f1"_s << QJsonObject{{u"f2"_s, u"pause:60000"_s}} << u"0 \\+f2:\\d+"_s << u"f2"_s << u"paused"_s
        << QStringList{u"f1"_s, u"f2"_s};
    QTest::newRow("a fused stage's own worker fuses on") << fake << u"f2"_s << QJsonObject() << u"0 \\+f3:\\d+"_s
                                                         << u"f3"_s << u"done"_s << QStringList{u"f2"_s, u"f3"_s};
    QTest::newRow("FUSE, another PROGRAM: no fusion")
        << fake << u"g1"_s << QJsonObject() << u"0"_s << u"g2"_s << u"pending"_s << QStringList{u"g1"_s};
    QTest::newRow("FUSE = NO: no fusion")
        << fake << u"h1"_s << QJsonObject() << u"0"_s << u"h2"_s << u"pending"_s << QStringList{u"h1"_s};
    QTest::newRow("reference stage, WORK_TIME of the fused stage")
        << WorkerHarness::Example << u"e1"_s << QJsonObject() << u"0 \\+e2:(1[5-9]|[2-9]\\d)\\d{4}"_s << u"e2"_s
        << u"done"_s << QStringList();
}

void tst_Fusion::kitRunsFusedStages()
{
    QFETCH(QString, program);
    QFETCH(QString, stage);
    QFETCH(QJsonObject, fake);
    QFETCH(QString, answer);
    QFETCH(QString, endStage);
    QFETCH(QString, endStatus);
    QFETCH(QStringList, ran);

    WorkerHarness harness(*m_db);
    QCOMPARE(harness.reset(), QString());
    const QString config = harness.writeConfig(FusedStages + u"WORK_TIME = 150 ms\n"_s);
    QVERIFY(!config.isEmpty());
    const qint64 id =
        harness.insertRow(stage, u"running"_s, fake.isEmpty() ? QJsonObject() : QJsonObject{{u"fake"_s, fake}});
    QProcess &worker = harness.start(program, stage, {u"-c"_s, config, u"worker"_s});
    const QByteArrayList lines = WorkerHarness::exchange(worker, QByteArray::number(id) + '\n', 1);
    QCOMPARE(lines.size(), 1);
    const QString line = QString::fromUtf8(lines.constFirst());
    QVERIFY2(QRegularExpression(QRegularExpression::anchoredPattern(answer)).match(line).hasMatch(),
             qPrintable(u"answer \"%1\", expected /%2/"_s.arg(line, answer)));

    const QVariantMap row = harness.row(id);
    QCOMPARE(row.value(u"stage"_s).toString(), endStage);
    QCOMPARE(row.value(u"status"_s).toString(), endStatus);
    if (program == WorkerHarness::Fake) {
        const QJsonObject state = row.value(u"state"_s).toJsonObject();
        QStringList stages = state[u"runs"_s].toObject().keys();
        stages.sort();
        QCOMPARE(stages, ran);
        for (const QString &each : std::as_const(ran)) {
            QCOMPARE(state[u"runs"_s][each].toInt(), 1);
            QCOMPARE(state[u"pids"_s][each].toInteger(), worker.processId());
        }
    }
    QCOMPARE(WorkerHarness::finish(worker), u"exit 0"_s);
}

// Every stage a worker may fuse is set up at start: a bad option of one is a
// configuration error then, not a failure in the middle of a pass.
void tst_Fusion::kitSetupErrorOfAFusedStageIsExit78()
{
    WorkerHarness harness(*m_db);
    QCOMPARE(harness.reset(), QString());
    const QString config = harness.writeConfig(FusedStages + u"WORK_TIME = banana\n"_s);
    QVERIFY(!config.isEmpty());
    QProcess &worker = harness.start(WorkerHarness::Example, u"e1"_s, {u"-c"_s, config, u"worker"_s});
    QCOMPARE(WorkerHarness::finish(worker), u"exit 78"_s);
    const QString errors = QString::fromUtf8(worker.readAllStandardError());
    QVERIFY2(errors.contains(u"WORK_TIME"_s) && errors.contains(u"banana"_s), qPrintable(errors));
}

// b (FUSE = YES, the same PROGRAM) runs inside a's workers: no worker of its
// own, every message once at each stage in one process, and the statistics
// count b's runs as b's.
void tst_Fusion::fusedStageRunsInThePredecessorsWorker()
{
    DaemonProcess daemon(m_db->uri());
    daemon.setOption(u"STATS_INTERVAL"_s, u"1 h"_s);
    daemon.addStage(u"a"_s, DaemonProcess::fakeWorker(), {{u"NEXT"_s, u"b"_s}});
    daemon.addStage(u"b"_s, DaemonProcess::fakeWorker(), {{u"FUSE"_s, u"YES"_s}});
    QVERIFY(startReady(daemon));

    qsizetype mostOfA = 0;
    qsizetype mostOfB = 0;
    Sampler sampler([&] {
        mostOfA = std::max(mostOfA, daemon.workerPids(u"a"_s).size());
        mostOfB = std::max(mostOfB, daemon.workerPids(u"b"_s).size());
    });
    QVERIFY(insertMessages(u"a"_s, 200));
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status = 'done'"_s), 200, 20000);
    sampler.take();
    qInfo("%d samples; at most %lld workers of a, %lld of b", sampler.samples(), qint64(mostOfA), qint64(mostOfB));
    QVERIFY(mostOfA > 0);
    QCOMPARE(mostOfB, 0);
    QCOMPARE(m_queue->count(u"stage = 'b'"_s), 200);
    QCOMPARE(m_queue->count(u"(state->'runs'->>'a')::int = 1 AND (state->'runs'->>'b')::int = 1"_s), 200);
    QCOMPARE(m_queue->count(u"state->'pids'->'a' = state->'pids'->'b'"_s), 200);

    QTRY_COMPARE_WITH_TIMEOUT(m_queue->stageStats(u"b"_s), u"200 0 0 0"_s, 3000);
    QCOMPARE(m_queue->stageStats(u"a"_s), u"200 0 0 0"_s);
    QCOMPARE(m_queue->dispatchStats(), u"400 200"_s);
    QVERIFY(m_db->scalar(u"SELECT busy_usec FROM stage_stats WHERE stage = 'b'"_s) > 0);
    QCOMPARE(daemon.terminate(), 0);
}

// What goes wrong in a fused stage happens to the row at that stage: the
// dispatcher's guard matches the claim, not the stage. A row that comes back
// pending at the fused stage gets a worker of that stage.
void tst_Fusion::fusedStageOutcomes_data()
{
    QTest::addColumn<QString>("mode");
    QTest::addColumn<QString>("status");
    QTest::addColumn<QString>("error");
    QTest::addColumn<bool>("ownWorker");

    QTest::newRow("fail") << u"fail:7"_s << u"failed"_s << u"status 7: fake failure"_s << false;
    QTest::newRow("crash") << u"crash"_s << u"failed"_s << u"crashed: signal 6"_s << false;
    QTest::newRow("hang") << u"hang"_s << u"timeout"_s << u"timeout after 3 s"_s << false;
    QTest::newRow("tempfail, then its own worker")
        << u"tempfail"_s << u"done"_s << u"status 75: fake try later"_s << true;
}

void tst_Fusion::fusedStageOutcomes()
{
    QFETCH(QString, mode);
    QFETCH(QString, status);
    QFETCH(QString, error);
    QFETCH(bool, ownWorker);

    DaemonProcess daemon(m_db->uri());
    // The watchdog also times a worker's start-up: not too short for a loaded machine.
    daemon.setOption(u"MAX_RUNTIME"_s, u"3 s"_s);
    daemon.setOption(u"TEMPFAIL_DELAY"_s, u"1 s"_s);
    daemon.addStage(u"a"_s, DaemonProcess::fakeWorker(), {{u"NEXT"_s, u"b"_s}});
    daemon.addStage(u"b"_s, DaemonProcess::fakeWorker(), {{u"FUSE"_s, u"YES"_s}});
    QVERIFY(startReady(daemon));

    qsizetype mostOfB = 0;
    Sampler sampler([&] { mostOfB = std::max(mostOfB, daemon.workerPids(u"b"_s).size()); });
    // The tempfail row turns ok once it is retried by a worker of b.
    QVERIFY(insertMessages(u"a"_s, 1, {{u"b"_s, mode}}));
    if (mode == u"tempfail"_s) {
        QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status = 'paused'"_s), 1, 10000);
        QCOMPARE(m_queue->text(u"SELECT stage FROM workqueue"_s), u"b"_s);
        QVERIFY(m_db->exec(u"UPDATE workqueue SET state = jsonb_set(state, '{fake,b}', '\"ok\"')"_s));
    }
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->text(u"SELECT status FROM workqueue"_s), status, 10000);
    QCOMPARE(m_queue->text(u"SELECT stage FROM workqueue"_s), u"b"_s);
    QCOMPARE(m_queue->text(u"SELECT coalesce(state->>'dispatch_error', '') FROM workqueue"_s), error);
    QCOMPARE(m_queue->text(u"SELECT state->'runs'->>'a' FROM workqueue"_s), u"1"_s);
    sampler.take();
    if (ownWorker) {
        QCOMPARE(m_queue->text(u"SELECT state->'runs'->>'b' FROM workqueue"_s), u"1"_s);
        QVERIFY(m_queue->text(u"SELECT state->'pids'->>'a' <> state->'pids'->>'b' FROM workqueue"_s) == u"true"_s);
        QVERIFY(mostOfB > 0);
    } else {
        QCOMPARE(m_queue->text(u"SELECT coalesce(state->'runs'->>'b', 'none') FROM workqueue"_s), u"none"_s);
        QCOMPARE(mostOfB, 0);
    }
    QCOMPARE(daemon.terminate(), 0);
}

QTEST_GUILESS_MAIN(tst_Fusion)
#include "tst_fusion.moc"
