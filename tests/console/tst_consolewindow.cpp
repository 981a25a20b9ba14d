// SPDX-License-Identifier: AGPL-3.0-or-later
// The console's window against the daemon's real control socket over a
// scripted dispatcher (tests/control/controlfixture.h), on the offscreen
// platform: the views fill and follow events, each tab asks for what it shows,
// messages and missing counts are said, the shortcuts, the settings, the
// reconnect (the stage actions: tst_consoleactions; the German translation:
// tst_consoletranslation).
#include "connectionstatus.h"
#include "consolefeed.h"
#include "consolefixture.h"
#include "controlclient.h"
#include "controlfixture.h"
#include "eventlogmodel.h"
#include "mainwindow.h"
#include "pipelinewidget.h"
#include "poolmodel.h"
#include "queuemodel.h"
#include "stageactions.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocalServer>
#include <QLocalSocket>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>

using namespace pepsi::console;
using namespace Qt::StringLiterals;

class TestConsoleWindow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void viewsFillFromTheDaemon();
    void longStatusMessagesAreShortenedVisibly();
    void postgresqlSocketIsSaidWhole();
    void missingQueueCountsSayWhy();
    void onlyCountsAboveZeroAreAlarms();
    void eachTabAsksForWhatItShows();
    void shortcutsSwitchViews();
    void settingsAreRemembered();
    void saysItReconnects();

private:
    std::unique_ptr<ControlFixture> m_daemon;
    QTranslator m_english;
};

void TestConsoleWindow::initTestCase() { QVERIFY(setUpConsoleTests(u"tst_consolewindow"_s, m_english)); }

void TestConsoleWindow::init()
{
    QSettings().clear();
    m_daemon = freshConsoleDaemon();
}

void TestConsoleWindow::viewsFillFromTheDaemon()
{
    QVERIFY(m_daemon->listen());
    ConsoleWindow window(*m_daemon);
    window.show();
    window.connectToDaemon();

    QTRY_COMPARE(window.pipeline()->stageNames(), (QStringList{u"ingest"_s, u"enrich"_s, u"deliver"_s}));
    QTRY_COMPARE(window.proxy(MainWindow::PoolsTab)->rowCount(), 3);
    QTRY_COMPARE(window.proxy(MainWindow::QueuesTab)->rowCount(), 3);
    window.tabs()->setCurrentIndex(MainWindow::WorkersTab);
    QTRY_COMPARE(window.proxy(MainWindow::WorkersTab)->rowCount(), 1);
    QCOMPARE(window.pipeline()->lines(u"enrich"_s).value(0), u"workers 3 busy / 4 cap"_s);
    QCOMPARE(window.pipeline()->lines(u"enrich"_s).value(2), u"pending 1,200"_s);
    QTRY_VERIFY(
        window.pipeline()->totalsLine().startsWith(u"1,590/s stage runs (10 s), 17 messages in flight, 5 of 7"_s));
    // Boxes left to right along the flow.
    QVERIFY(window.pipeline()->boxOf(u"ingest"_s).right() < window.pipeline()->boxOf(u"enrich"_s).left());
    QVERIFY(window.pipeline()->boxOf(u"enrich"_s).right() < window.pipeline()->boxOf(u"deliver"_s).left());
    // The worker near max_runtime is highlighted.
    QVERIFY(window.proxy(MainWindow::WorkersTab)->index(0, 0).data(KeyedTableModel::HighlightRole).toBool());
    // Sorted by the raw number, not the text: pending 40 < 1200 < 5000.
    window.view(MainWindow::QueuesTab)->sortByColumn(QueueModel::Pending, Qt::AscendingOrder);
    QSortFilterProxyModel *queues = window.proxy(MainWindow::QueuesTab);
    QCOMPARE(queues->index(0, 0).data().toString(), u"deliver"_s);
    QCOMPARE(queues->index(2, 0).data().toString(), u"ingest"_s);
    // How long the pending rows waited at their stage, qshape's way (`pending_ages`).
    QCOMPARE(queues->index(1, QueueModel::PendingAges).data().toString(), u"1s 1,000 · 10s 150 · 1m 40 · 10m 10"_s);
    QCOMPARE(queues->index(1, QueueModel::PendingAges).data(KeyedTableModel::SortRole).toLongLong(), qint64(50));
    QTRY_VERIFY(window.connectionStatus()->versionText().contains(u"0.1.0"_s));
    QVERIFY(window.connectionStatus()->uptimeText().startsWith(u"up "_s));

    // Events patch the picture: the tick, and a stage drained by someone else.
    m_daemon->dispatch().m_drained.insert(u"ingest"_s);
    m_daemon->publish(u"stage_drained"_s, {{"stage"_L1, u"ingest"_s}, {"uid"_L1, 0}});
    QTRY_COMPARE(PoolModel::stateOf(window.feed()->pools()->record(u"ingest"_s)), u"drained"_s);

    const QString out = QDir(QDir::currentPath()).filePath(u"tst_consolewindow-fake.png"_s);
    window.resize(1200, 700);
    QVERIFY(window.grab().save(out));
    qInfo("screenshot (scripted dispatcher): %s", qPrintable(out));
}

// A message longer than the room beside the connection label is shortened
// with an ellipsis, never cut off mid-word; the whole is the tooltip.
void TestConsoleWindow::longStatusMessagesAreShortenedVisibly()
{
    ConsoleWindow window(*m_daemon);
    window.resize(800, 600);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const QString message = u"/run/postgresql/.s.PGSQL.5432 closed the connection before answering 'version': "
                            "not a pepsi-dispatch control socket (PostgreSQL's, say)? "_s.repeated(2);
    Q_EMIT window.actions()->failed(message);
    QStatusBar *bar = window.statusBar();
    const QString shown = bar->currentMessage();
    QVERIFY2(shown.endsWith(u"…"_s), qPrintable(shown));
    QVERIFY(message.startsWith(shown.chopped(1)));
    QCOMPARE(bar->toolTip(), message);
    const int room = bar->width() - window.connectionStatus()->sizeHint().width();
    QVERIFY2(QFontMetrics(bar->font()).horizontalAdvance(shown) < room,
             qPrintable(u"%1 px in %2"_s.arg(QFontMetrics(bar->font()).horizontalAdvance(shown)).arg(room)));
    // A short one is shown whole, without a tooltip.
    Q_EMIT window.actions()->done(u"Stage enrich drained."_s);
    QCOMPARE(bar->currentMessage(), u"Stage enrich drained."_s);
    QVERIFY(bar->toolTip().isEmpty());
}

// "failed 12" is drawn red, "timed out 0" is not: a zero is not an alarm.
void TestConsoleWindow::onlyCountsAboveZeroAreAlarms()
{
    m_daemon->dispatch().m_queues.stages[u"enrich"_s].timeout = 0;
    QVERIFY(m_daemon->listen());
    ConsoleWindow window(*m_daemon);
    window.show();
    window.connectToDaemon();
    QTRY_COMPARE(window.pipeline()->lines(u"enrich"_s).value(6), u"timed out 0"_s);
    QCOMPARE(window.pipeline()->lines(u"enrich"_s).value(5), u"failed 12"_s);
    const QList<bool> alarms = window.pipeline()->alarmLines(u"enrich"_s);
    QCOMPARE(alarms.size(), 7);
    QVERIFY(alarms.at(5));
    QVERIFY(!alarms.at(6));
    QCOMPARE(window.pipeline()->alarmLines(u"deliver"_s).count(true), 0);
}

// Given PostgreSQL's socket (a peer that hangs up on our first line), the
// console says so whole in a wrapped banner over the views, not cut in the
// status bar; the banner goes once the daemon's socket answers.
void TestConsoleWindow::postgresqlSocketIsSaidWhole()
{
    QTemporaryDir dir;
    QLocalServer postgres;
    QVERIFY(postgres.listen(dir.filePath(u".s.PGSQL.5432"_s)));
    connect(&postgres, &QLocalServer::newConnection, &postgres, [&postgres] {
        QLocalSocket *peer = postgres.nextPendingConnection();
        connect(peer, &QLocalSocket::readyRead, peer, [peer] {
            peer->readAll();
            peer->write(QByteArray("E\0\0\0\x55SFATAL", 11));
            peer->flush();
            peer->disconnectFromServer();
        });
    });
    QVERIFY(m_daemon->listen());
    ConsoleWindow window(*m_daemon);
    window.setErrorPopups(false);
    window.client().setSocketPath(postgres.fullServerName());
    window.resize(800, 600);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.connectToDaemon();
    QLabel *banner = window.peerBanner();
    QTRY_VERIFY(banner->isVisible());
    QCOMPARE(banner->text(), window.client().lastError());
    QVERIFY2(banner->text().startsWith(postgres.fullServerName() + u" closed the connection"_s)
                 && banner->text().endsWith(u"(PostgreSQL's, say)?"_s),
             qPrintable(banner->text()));
    QVERIFY(banner->wordWrap());
    // Whole: its wrapped lines fit the window's width, none cut.
    QVERIFY(banner->width() <= window.width());
    QVERIFY(banner->height() >= banner->heightForWidth(banner->width()));
    QVERIFY(window.statusBar()->currentMessage().endsWith(u"…"_s));

    window.client().setSocketPath(m_daemon->path());
    window.connectToDaemon(); // now, not after the backoff
    QTRY_COMPARE(window.client().state(), ControlClient::State::Connected);
    QVERIFY(banner->isHidden());
}

void TestConsoleWindow::missingQueueCountsSayWhy()
{
    // The daemon cannot count: it says why once, beside queues_at, not per stage.
    m_daemon->dispatch().m_queuesError = u"database unreachable"_s;
    QVERIFY(m_daemon->listen());
    ConsoleWindow window(*m_daemon);
    window.connectToDaemon();
    QTRY_COMPARE(window.feed()->queues()->queuesError(), u"database unreachable"_s);
    QTRY_COMPARE(window.proxy(MainWindow::PoolsTab)->rowCount(), 3);
    QCOMPARE(window.proxy(MainWindow::QueuesTab)->rowCount(), 0);
}

void TestConsoleWindow::eachTabAsksForWhatItShows()
{
    m_daemon->setTickInterval(std::chrono::milliseconds(50));
    QVERIFY(m_daemon->listen());
    ConsoleWindow window(*m_daemon);
    window.tabs()->setCurrentIndex(MainWindow::PoolsTab);
    window.connectToDaemon();
    const auto asked = [this](const QString &cmd) { return m_daemon->count(cmd); };

    // Not showing workers: the ticks bring `status` at its interval, never `workers`.
    QTRY_VERIFY(asked(u"status"_s) >= 4);
    QCOMPARE(asked(u"workers"_s), 0);
    // one when connected, then one every other tick (no tick is numbered but it goes out)
    QVERIFY(asked(u"status"_s) <= 1 + int(m_daemon->server().lastSeq() / 2));

    // The Workers tab: asked for at once and then every tick, without the ids.
    window.tabs()->setCurrentIndex(MainWindow::WorkersTab);
    QTRY_COMPARE(window.proxy(MainWindow::WorkersTab)->rowCount(), 1);
    QTRY_VERIFY(asked(u"workers"_s) >= 3);
    for (const QJsonObject &request : m_daemon->requests(u"workers"_s))
        QCOMPARE(request.value("ids"_L1), QJsonValue(false));

    // Away from it: no more.
    window.tabs()->setCurrentIndex(MainWindow::QueuesTab);
    const int statusBefore = asked(u"status"_s);
    QTRY_VERIFY(asked(u"status"_s) >= statusBefore + 1); // a tick went by; what was in flight arrived
    const int workers = asked(u"workers"_s);
    QTRY_VERIFY(asked(u"status"_s) >= statusBefore + 3);
    QCOMPARE(asked(u"workers"_s), workers);
}

void TestConsoleWindow::shortcutsSwitchViews()
{
    ConsoleWindow window(*m_daemon);
    window.show();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    for (int i = 5; i >= 0; --i) {
        QTest::keyClick(&window, Qt::Key(Qt::Key_1 + i), Qt::ControlModifier);
        QCOMPARE(window.tabs()->currentIndex(), i);
    }
    // The events filter narrows the log.
    window.feed()->events()->addNote(u"alpha"_s, false);
    window.feed()->events()->addNote(u"beta"_s, false);
    window.feed()->flush();
    QCOMPARE(window.proxy(MainWindow::EventsTab)->rowCount(), 2);
    window.eventFilter()->setText(u"BET"_s);
    QCOMPARE(window.proxy(MainWindow::EventsTab)->rowCount(), 1);
}

void TestConsoleWindow::settingsAreRemembered()
{
    ControlClient client;
    {
        MainWindow window(&client);
        window.show();
        window.resize(900, 600);
        window.tabs()->setCurrentIndex(MainWindow::WorkersTab);
        window.view(MainWindow::PoolsTab)->sortByColumn(PoolModel::Busy, Qt::DescendingOrder);
        window.close();
    }
    MainWindow again(&client);
    QCOMPARE(again.tabs()->currentIndex(), int(MainWindow::WorkersTab));
    QCOMPARE(again.size(), QSize(900, 600));
    QCOMPARE(again.view(MainWindow::PoolsTab)->horizontalHeader()->sortIndicatorSection(), int(PoolModel::Busy));
    QCOMPARE(again.view(MainWindow::PoolsTab)->horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
}

void TestConsoleWindow::saysItReconnects()
{
    QVERIFY(m_daemon->listen());
    ConsoleWindow window(*m_daemon);
    window.client().setReconnectInterval(200);
    window.connectToDaemon();
    QTRY_COMPARE(window.connectionStatus()->connectionText(), u"Connected"_s);
    QTRY_COMPARE(window.stageBox()->count(), 3);
    window.selectStage(u"enrich"_s);
    m_daemon->goAway();
    QTRY_VERIFY(window.connectionStatus()->connectionText().startsWith(u"Not connected since"_s));
    QVERIFY(window.actions()->disabledReason() == u"not connected to the daemon"_s);
    QVERIFY(!window.actions()->drain()->isEnabled());
    QVERIFY(window.connectionStatus()->versionText().isEmpty()); // that pid is gone
    QVERIFY(m_daemon->listen());
    QTRY_COMPARE(window.connectionStatus()->connectionText(), u"Connected"_s);
    QTRY_VERIFY(window.actions()->drain()->isEnabled());
}

QTEST_MAIN(TestConsoleWindow)
#include "tst_consolewindow.moc"
