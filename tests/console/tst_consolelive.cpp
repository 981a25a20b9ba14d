// SPDX-License-Identifier: AGPL-3.0-or-later
// The console against a real pepsi-dispatch on the test database, on the
// offscreen platform: a three-stage pipeline of fake workers with a few
// thousand messages flowing; the console shows the flow in the pipeline, the
// pools and the throughput, drains and resumes a stage through its action,
// and saves a screenshot to the test's directory.
#include "consolefeed.h"
#include "controlclient.h"
#include "daemonprocess.h"
#include "mainwindow.h"
#include "pipelinewidget.h"
#include "poolmodel.h"
#include "queuemodel.h"
#include "queueprobe.h"
#include "stageactions.h"
#include "testdatabase.h"
#include "throughputmodel.h"
#include "throughputplot.h"

#include <QAction>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>
#include <QTranslator>

using namespace pepsi::console;
using namespace Qt::StringLiterals;

class TestConsoleLive : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void watchesAndSteersARealDaemon();

private:
    QTranslator m_english;
};

void TestConsoleLive::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    // As pepsi-console does: the English plural forms.
    QVERIFY(m_english.load(u":/i18n/pepsi-console_en.qm"_s));
    QCoreApplication::installTranslator(&m_english);
    const QString missing = DaemonProcess::missingBinaries();
    QVERIFY2(missing.isEmpty(), qPrintable(missing));
}

void TestConsoleLive::watchesAndSteersARealDaemon()
{
    PEPSI_REQUIRE_DATABASE(tdb);

    // GIVEN a daemon with a three-stage pipeline (4 workers each, 10 ms a message)
    DaemonProcess daemon(tdb.uri());
    daemon.setOption(u"POLL_INTERVAL"_s, u"1 s"_s);
    daemon.setOption(u"STATS_INTERVAL"_s, u"1 s"_s);
    daemon.addStage(u"ingest"_s, DaemonProcess::fakeWorker(), {{u"NEXT"_s, u"enrich"_s}});
    daemon.addStage(u"enrich"_s, DaemonProcess::fakeWorker(), {{u"NEXT"_s, u"deliver"_s}});
    daemon.addStage(u"deliver"_s, DaemonProcess::fakeWorker());
    QVERIFY(daemon.start());
    QVERIFY2(daemon.waitForReady(), qPrintable(daemon.log()));
    const QString socket = daemon.controlSocket();
    QTRY_VERIFY2_WITH_TIMEOUT(QFileInfo::exists(socket), qPrintable(daemon.log()), 10000);

    // and messages flowing through it
    const QJsonObject slow{{"ingest"_L1, u"slow:10"_s}, {"enrich"_L1, u"slow:10"_s}, {"deliver"_L1, u"slow:10"_s}};
    QueueProbe probe(tdb.db());
    QVERIFY(!probe.insert(u"ingest"_s, 6000, slow).isEmpty());

    // WHEN the console opens
    ControlClient client;
    client.setSocketPath(socket);
    MainWindow window(&client);
    window.setErrorPopups(false);
    window.resize(1280, 720);
    window.show();
    QElapsedTimer clock;
    clock.start();
    client.start();

    // THEN it shows the pipeline, the pools at work and the throughput
    QTRY_COMPARE_WITH_TIMEOUT(client.state(), ControlClient::State::Connected, 10000);
    QVERIFY(client.isAdmin()); // the test runs as root
    QTRY_COMPARE_WITH_TIMEOUT(window.pipeline()->stageNames(), (QStringList{u"ingest"_s, u"enrich"_s, u"deliver"_s}),
                              5000);
    PoolModel *pools = window.feed()->pools();
    ThroughputModel *throughput = window.feed()->throughput();
    QTRY_VERIFY_WITH_TIMEOUT(pools->record(u"enrich"_s).value("busy"_L1).toInt() > 0, 15000);
    QTRY_VERIFY_WITH_TIMEOUT(window.feed()->queues()->record(u"ingest"_s).value("pending"_L1).toInteger() > 0
                                 || window.feed()->queues()->record(u"enrich"_s).value("pending"_L1).toInteger() > 0,
                             10000);
    QTRY_VERIFY_WITH_TIMEOUT(
        !throughput->history(u"deliver"_s).isEmpty() && throughput->history(u"deliver"_s).last().rate > 0, 15000);
    QTRY_VERIFY_WITH_TIMEOUT(throughput->record(u"enrich"_s).value("rate_10s"_L1).toDouble() > 0, 10000);
    const qint64 firstFlowMs = clock.elapsed();
    QVERIFY(window.pipeline()->lines(u"enrich"_s).value(3) != u"done 0.0/s"_s);

    // WHEN enrich is drained through the UI's action
    window.selectStage(u"enrich"_s);
    QVERIFY(window.actions()->drain()->isEnabled());
    window.actions()->setConfirm([](const QString &, const QString &) { return true; }); // the operator says yes
    QSignalSpy done(window.actions(), &StageActions::done);
    window.actions()->drain()->trigger();
    // THEN the daemon says so, the pool shows it, and the backlog at enrich grows
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 5000);
    QTRY_VERIFY_WITH_TIMEOUT(pools->record(u"enrich"_s).value("drained"_L1).toBool(), 5000);
    QVERIFY2(window.lastError().isEmpty(), qPrintable(window.lastError()));
    QTRY_VERIFY_WITH_TIMEOUT(pools->record(u"enrich"_s).value("in_flight"_L1).toInt() == 0, 10000);
    const qint64 pendingAtDrain = probe.count(u"stage = 'enrich' AND status = 'pending'"_s);
    QTRY_VERIFY_WITH_TIMEOUT(probe.count(u"stage = 'enrich' AND status = 'pending'"_s) > pendingAtDrain, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(window.feed()->queues()->isGrowing(u"enrich"_s), 10000);

    // The screenshot: the pipeline with a drained stage and a growing backlog.
    window.tabs()->setCurrentIndex(MainWindow::PipelineTab);
    const QString dir = QDir::currentPath();
    QVERIFY(window.grab().save(dir + u"/tst_consolelive-pipeline.png"_s));
    window.tabs()->setCurrentIndex(MainWindow::ThroughputTab);
    QVERIFY(window.grab().save(dir + u"/tst_consolelive-throughput.png"_s));

    // WHEN it is resumed, THEN it claims again and the pool shows it
    QVERIFY(window.actions()->resume()->isEnabled());
    window.actions()->resume()->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 2, 5000);
    QTRY_VERIFY_WITH_TIMEOUT(!pools->record(u"enrich"_s).value("drained"_L1).toBool(), 5000);
    QTRY_VERIFY_WITH_TIMEOUT(pools->record(u"enrich"_s).value("busy"_L1).toInt() > 0, 10000);
    QVERIFY2(window.lastError().isEmpty(), qPrintable(window.lastError()));

    qInfo("flow visible in the console %lld ms after it opened; screenshots in %s", firstFlowMs, qPrintable(dir));
    QCOMPARE(daemon.terminate(), 0);
    // And the console says that the daemon is gone, and keeps trying.
    QTRY_VERIFY_WITH_TIMEOUT(client.state() != ControlClient::State::Connected, 5000);
}

QTEST_MAIN(TestConsoleLive)
#include "tst_consolelive.moc"
