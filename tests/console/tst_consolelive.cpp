// SPDX-License-Identifier: AGPL-3.0-or-later
// The console against a real pepsi-dispatch on the test database, on the
// offscreen platform: a three-stage pipeline of fake workers with a few
// thousand messages flowing; the console shows the flow in the pipeline, the
// pools and the throughput, drains and resumes a stage through its action,
// and saves a screenshot to the test's directory.
#include "consolefeed.h"
#include "controlclient.h"
#include "daemonprocess.h"
#include "daemonstart.h"
#include "mainwindow.h"
#include "messagelistmodel.h"
#include "messagesview.h"
#include "pipelinewidget.h"
#include "poolmodel.h"
#include "queuemodel.h"
#include "queueprobe.h"
#include "reasonmodel.h"
#include "stageactions.h"
#include "testdatabase.h"
#include "throughputmodel.h"
#include "throughputplot.h"

#include <QAction>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QItemSelectionModel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
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
    void browsesAndRequeuesFailedMessages();

private:
    QTranslator m_english;
};

void TestConsoleLive::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    // As pepsi-console does: the English plural forms.
    QVERIFY(m_english.load(u":/i18n/pepsi-console_en.qm"_s));
    QCoreApplication::installTranslator(&m_english);
    PEPSI_REQUIRE_BINARIES();
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
    QVERIFY(startReady(daemon));
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
    QTRY_VERIFY_WITH_TIMEOUT(pools->record(u"enrich"_s).busy > 0, 15000);
    QTRY_VERIFY_WITH_TIMEOUT(window.feed()->queues()->record(u"ingest"_s).queue.pending > 0
                                 || window.feed()->queues()->record(u"enrich"_s).queue.pending > 0,
                             10000);
    QTRY_VERIFY_WITH_TIMEOUT(
        !throughput->history(u"deliver"_s).isEmpty() && throughput->history(u"deliver"_s).last().rate > 0, 15000);
    QTRY_VERIFY_WITH_TIMEOUT(throughput->record(u"enrich"_s).stats.rate10s > 0, 10000);
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
    QTRY_VERIFY_WITH_TIMEOUT(pools->record(u"enrich"_s).drained, 5000);
    QVERIFY2(window.lastError().isEmpty(), qPrintable(window.lastError()));
    QTRY_VERIFY_WITH_TIMEOUT(pools->record(u"enrich"_s).inFlight == 0, 10000);
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
    QTRY_VERIFY_WITH_TIMEOUT(!pools->record(u"enrich"_s).drained, 5000);
    QTRY_VERIFY_WITH_TIMEOUT(pools->record(u"enrich"_s).busy > 0, 10000);
    QVERIFY2(window.lastError().isEmpty(), qPrintable(window.lastError()));

    qInfo("flow visible in the console %lld ms after it opened; screenshots in %s", firstFlowMs, qPrintable(dir));
    QCOMPARE(daemon.terminate(), 0);
    // And the console says that the daemon is gone, and keeps trying.
    QTRY_VERIFY_WITH_TIMEOUT(client.state() != ControlClient::State::Connected, 5000);
}

// The Messages view, as an operator would: a stage whose program fails every
// message ("3 bad input: ..."); its failed messages browsed in the Messages
// view; the program switched to one that works (a reload); a selection
// requeued by id, and those messages done while the rest stay failed.
void TestConsoleLive::browsesAndRequeuesFailedMessages()
{
    PEPSI_REQUIRE_DATABASE(tdb);

    // GIVEN a stage whose program answers "3 bad input" for every id
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    // The daemon runs its workers as the service account: it must reach the program.
    QVERIFY(QFile::setPermissions(dir.path(),
                                  QFile::permissions(dir.path()) | QFile::ReadOther | QFile::ExeOther | QFile::ReadGroup
                                      | QFile::ExeGroup));
    const QString program = dir.filePath(u"enrich.sh"_s);
    const auto writeProgram = [&program](const QByteArray &body) {
        QFile file(program);
        // A new file each time: a worker still running the old one keeps reading its own.
        QFile::remove(program);
        if (!file.open(QIODevice::WriteOnly) || file.write("#!/bin/sh\n" + body) < 0)
            return false;
        file.close();
        return file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup
                                   | QFile::ExeGroup | QFile::ReadOther | QFile::ExeOther);
    };
    QVERIFY(writeProgram("while read id; do echo \"3 bad input: no customer for $id\"; done\n"));
    DaemonProcess daemon(tdb.uri());
    daemon.setOption(u"POLL_INTERVAL"_s, u"1 s"_s);
    daemon.setOption(u"STATS_INTERVAL"_s, u"1 s"_s);
    daemon.addStage(u"enrich"_s, program);
    QVERIFY(startReady(daemon));
    QTRY_VERIFY2_WITH_TIMEOUT(QFileInfo::exists(daemon.controlSocket()), qPrintable(daemon.log()), 10000);
    QueueProbe probe(tdb.db());
    const QList<qint64> ids = probe.insert(u"enrich"_s, 30);
    QCOMPARE(ids.size(), 30);
    QTRY_COMPARE_WITH_TIMEOUT(probe.count(u"status = 'failed'"_s), 30, 20000);

    // WHEN the operator opens the failed messages of enrich
    ControlClient client;
    client.setSocketPath(daemon.controlSocket());
    MainWindow window(&client);
    window.setErrorPopups(false);
    window.resize(1280, 720);
    window.show();
    client.start();
    QTRY_COMPARE_WITH_TIMEOUT(client.state(), ControlClient::State::Connected, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(window.pipeline()->stageNames(), QStringList{u"enrich"_s}, 5000);
    window.showMessages(u"enrich"_s, u"failed"_s);
    MessagesView *view = window.messagesView();

    // THEN each message has its own reason, all 30 counted, and listed by id
    QTRY_COMPARE_WITH_TIMEOUT(view->reasons()->total(), 30, 5000);
    QCOMPARE(view->reasons()->rowCount(), 31); // "All reasons" and one per id
    QTRY_COMPARE_WITH_TIMEOUT(view->messages()->rowCount(), 30, 5000);
    QCOMPARE(view->messages()->idAt(0), ids.first());
    const QString reason = view->messages()->index(0, MessageListModel::Reason).data().toString();
    QVERIFY2(reason.contains(u"bad input: no customer for %1"_s.arg(ids.first())), qPrintable(reason));
    // and the detail pane shows the row's state
    view->listView()->selectRow(0);
    QTRY_VERIFY_WITH_TIMEOUT(view->detail()->toPlainText().contains(u"dispatch_error"_s), 5000);
    QVERIFY(window.grab().save(QDir::currentPath() + u"/tst_consolelive-messages.png"_s));

    // WHEN the program is fixed and the daemon reloads (the console's action)
    QVERIFY(writeProgram(u"exec %1 \"$@\"\n"_s.arg(DaemonProcess::fakeWorker()).toUtf8()));
    window.actions()->setConfirm([](const QString &, const QString &) { return true; }); // the operator says yes
    QSignalSpy actionsDone(window.actions(), &StageActions::done);
    QTRY_VERIFY_WITH_TIMEOUT(window.actions()->reload()->isEnabled(), 5000);
    window.actions()->reload()->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(actionsDone.size(), 1, 10000);

    // and ten of the failed messages are selected and requeued by id
    QSignalSpy done(view, &MessagesView::done);
    QItemSelectionModel *selection = view->listView()->selectionModel();
    selection->clearSelection();
    for (int row = 0; row < 10; ++row)
        selection->select(view->messages()->index(row, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
    QTRY_VERIFY(view->requeueSelectedButton()->isEnabled());
    view->requeueSelected();

    // THEN the ten are done, the twenty others still failed, and the view says so
    QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 10000);
    QCOMPARE(done.last().value(0).toString(), u"10 messages of stage enrich put back to pending."_s);
    const QString chosen = u"workqueue_id BETWEEN %1 AND %2"_s.arg(ids.at(0)).arg(ids.at(9));
    QTRY_VERIFY2_WITH_TIMEOUT(
        probe.count(chosen + u" AND status = 'done'"_s) == 10,
        qPrintable(daemon.log().right(3000) + u"\nfailed: "_s + QString::number(probe.count(u"status = 'failed'"_s))),
        20000);
    QCOMPARE(probe.count(u"status = 'failed'"_s), 20);
    QTRY_COMPARE_WITH_TIMEOUT(view->reasons()->total(), 20, 5000);
    QVERIFY2(window.lastError().isEmpty(), qPrintable(window.lastError()));
    QCOMPARE(daemon.terminate(), 0);
}

QTEST_MAIN(TestConsoleLive)
#include "tst_consolelive.moc"
