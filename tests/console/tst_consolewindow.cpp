// SPDX-License-Identifier: AGPL-3.0-or-later
// The console's window against the daemon's real control socket over a
// scripted dispatcher (tests/control/controlfixture.h), on the offscreen
// platform: the views fill, the actions follow peer.admin, send what they say
// and report every answer; the shortcuts, the settings and the German
// translation.
#include "connectionstatus.h"
#include "consolefeed.h"
#include "consolefixture.h"
#include "controlclient.h"
#include "controlfixture.h"
#include "eventfilterproxy.h"
#include "eventlogmodel.h"
#include "mainwindow.h"
#include "pipelinewidget.h"
#include "poolmodel.h"
#include "queuemodel.h"
#include "stageactions.h"
#include "throughputmodel.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QProcess>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QToolButton>
#include <QTranslator>
#include <QXmlStreamReader>
#include <unistd.h>

using namespace pepsi::console;
using pepsi::PoolSnapshot;
using pepsi::StageQueue;
using pepsi::StageStatsSnapshot;
using pepsi::WorkerSnapshot;
using namespace Qt::StringLiterals;

class TestConsoleWindow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void viewsFillFromTheDaemon();
    void actionsFollowPeerAdmin_data();
    void actionsFollowPeerAdmin();
    void drainAndResumeSendTheCommand();
    void requeueAsksWithTheCount_data();
    void requeueAsksWithTheCount();
    void setFromThePools();
    void everyErrorIsShown();
    void longStatusMessagesAreShortenedVisibly();
    void missingQueueCountsSayWhy();
    void eachTabAsksForWhatItShows();
    void shortcutsSwitchViews();
    void settingsAreRemembered();
    void saysItReconnects();
    void germanTranslationIsComplete();
    void germanTranslationLoads();

private:
    static QString buildDir() { return qEnvironmentVariable("PEPSI_BUILD_DIR", QStringLiteral(PEPSI_BINARY_DIR)); }
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

void TestConsoleWindow::actionsFollowPeerAdmin_data()
{
    QTest::addColumn<bool>("admin");
    QTest::newRow("admin") << true;
    QTest::newRow("not admin") << false;
}

void TestConsoleWindow::actionsFollowPeerAdmin()
{
    QFETCH(bool, admin);
    m_daemon->setAdmin(admin);
    QVERIFY(m_daemon->listen());
    ConsoleWindow window(*m_daemon);
    // Not connected yet: nothing may be sent.
    for (QAction *action : window.actions()->all())
        QVERIFY(!action->isEnabled());
    window.connectToDaemon();
    QTRY_COMPARE(window.pipeline()->stageNames().size(), 3);
    QTRY_COMPARE(window.client().state(), ControlClient::State::Connected);
    QCOMPARE(window.actions()->reload()->isEnabled(), admin);
    // The stage actions wait for the operator to choose a stage.
    QVERIFY(!window.actions()->drain()->isEnabled());
    QVERIFY(!window.actions()->requeueFailed()->isEnabled());
    window.selectStage(u"enrich"_s);
    QTRY_COMPARE(window.actions()->drain()->isEnabled(), admin);
    QCOMPARE(window.actions()->requeueFailed()->isEnabled(), admin);
    QCOMPARE(window.actions()->requeueTimeout()->isEnabled(), admin);
    QVERIFY(!window.actions()->resume()->isEnabled()); // enrich is not drained
    QCOMPARE(window.actions()->disabledReason().isEmpty(), admin);
}

void TestConsoleWindow::drainAndResumeSendTheCommand()
{
    QVERIFY(m_daemon->listen());
    ConsoleWindow window(*m_daemon);
    window.connectToDaemon();
    QTRY_COMPARE(window.stageBox()->count(), 3);
    // No stage is chosen for the operator: nothing to drain yet.
    QCOMPARE(window.actions()->stage(), QString());
    QVERIFY(!window.actions()->drain()->isEnabled());
    window.selectStage(u"enrich"_s);
    QCOMPARE(window.pipeline()->selectedStage(), u"enrich"_s);
    QSignalSpy done(window.actions(), &StageActions::done);
    // Named after its stage; Resume only for a drained stage.
    QCOMPARE(window.actions()->drain()->text(), u"&Drain enrich…"_s);
    QTRY_VERIFY(window.actions()->drain()->isEnabled());
    QVERIFY(!window.actions()->resume()->isEnabled());

    // The confirmation names the stage and what it holds; "no" sends nothing.
    QString asked;
    bool answer = false;
    window.actions()->setConfirm([&](const QString &, const QString &text) {
        asked = text;
        return answer;
    });
    window.actions()->drain()->trigger();
    QVERIFY2(asked.startsWith(u"Drain stage enrich? It stops claiming messages. Its busy workers (3) finish the "
                              "messages they hold (9); the pending messages (1,200) wait at enrich"_s),
             qPrintable(asked));
    QCOMPARE(m_daemon->count(u"drain"_s), 0);
    answer = true;
    window.actions()->drain()->trigger();
    QTRY_COMPARE(done.count(), 1);
    QVERIFY(done.first().first().toString().contains(u"enrich drained"_s));
    QTRY_COMPARE(m_daemon->commands().last(), u"status"_s); // and it looks again
    QCOMPARE(m_daemon->requests(u"drain"_s).value(0).value("stage"_L1).toString(), u"enrich"_s);
    QCOMPARE(m_daemon->dispatch().m_calls.last(), u"drain enrich %1"_s.arg(::geteuid()));

    // Drained now: Drain off, Resume on.
    QTRY_VERIFY(window.actions()->resume()->isEnabled());
    QVERIFY(!window.actions()->drain()->isEnabled());

    // A click on a box selects that stage: deliver claims, so it cannot be resumed.
    QTest::mouseClick(window.pipeline(), Qt::LeftButton, {}, window.pipeline()->boxOf(u"deliver"_s).center().toPoint());
    QCOMPARE(window.actions()->stage(), u"deliver"_s);
    QCOMPARE(window.actions()->resume()->text(), u"Re&sume deliver"_s);
    QVERIFY(!window.actions()->resume()->isEnabled());
    QTest::mouseClick(window.pipeline(), Qt::LeftButton, {}, window.pipeline()->boxOf(u"enrich"_s).center().toPoint());
    window.actions()->resume()->trigger();
    QTRY_COMPARE(done.count(), 2);
    QVERIFY(done.last().first().toString().contains(u"enrich resumed"_s));
}

void TestConsoleWindow::requeueAsksWithTheCount_data()
{
    QTest::addColumn<QString>("status");
    QTest::addColumn<bool>("answer");
    QTest::addColumn<QString>("question"); // empty: not asked
    QTest::addColumn<int>("limit");        // 0: nothing sent

    QTest::newRow("failed, yes") << u"failed"_s << true << u"Put 12 failed messages of stage enrich"_s << 12;
    QTest::newRow("failed, no") << u"failed"_s << false << u"Put 12 failed messages of stage enrich"_s << 0;
    QTest::newRow("timeout, yes") << u"timeout"_s << true << u"Put 2 timed-out messages of stage enrich"_s << 2;
}

void TestConsoleWindow::requeueAsksWithTheCount()
{
    QFETCH(QString, status);
    QFETCH(bool, answer);
    QFETCH(QString, question);
    QFETCH(int, limit);

    QVERIFY(m_daemon->listen());
    ConsoleWindow window(*m_daemon);
    window.connectToDaemon();
    QTRY_COMPARE(window.feed()->queues()->count(u"enrich"_s, status) > 0, true);
    window.selectStage(u"enrich"_s);
    QString asked;
    window.actions()->setConfirm([&](const QString &, const QString &text) {
        asked = text;
        return answer;
    });
    QSignalSpy done(window.actions(), &StageActions::done);
    (status == "failed"_L1 ? window.actions()->requeueFailed() : window.actions()->requeueTimeout())->trigger();
    QVERIFY2(asked.startsWith(question), qPrintable(asked));
    if (limit == 0) {
        QTest::qWait(200);
        QCOMPARE(m_daemon->count(u"requeue"_s), 0);
        return;
    }
    QTRY_COMPARE(done.count(), 1);
    QVERIFY(done.first().first().toString().contains(u"3 messages of stage enrich put back"_s));
    const QJsonObject sent = m_daemon->requests(u"requeue"_s).value(0);
    QCOMPARE(sent.value("status"_L1).toString(), status);
    QCOMPARE(sent.value("stage"_L1).toString(), u"enrich"_s);
    QCOMPARE(sent.value("limit"_L1).toInt(), limit);
}

void TestConsoleWindow::setFromThePools()
{
    QVERIFY(m_daemon->listen());
    ConsoleWindow window(*m_daemon);
    window.connectToDaemon();
    QTRY_COMPARE(window.proxy(MainWindow::PoolsTab)->rowCount(), 3);
    QString asked;
    window.actions()->setConfirm([&](const QString &, const QString &text) {
        asked = text;
        return true;
    });
    QSignalSpy done(window.actions(), &StageActions::done);
    window.actions()->setOption(u"enrich"_s, u"PARALLELISM"_s, 8);
    QVERIFY2(asked.startsWith(u"Set PARALLELISM of stage enrich from 4 to 8?"_s), qPrintable(asked));
    QTRY_COMPARE(done.count(), 1);
    const QJsonObject sent = m_daemon->requests(u"set"_s).value(0);
    QCOMPARE(sent.value("stage"_L1).toString(), u"enrich"_s);
    QCOMPARE(sent.value("option"_L1).toString(), u"PARALLELISM"_s);
    QCOMPARE(sent.value("value"_L1).toInt(), 8);
    QVERIFY2(done.first().first().toString().startsWith(u"PARALLELISM of stage enrich set to 8"_s),
             qPrintable(done.first().first().toString()));
}

void TestConsoleWindow::everyErrorIsShown()
{
    m_daemon->dispatch().m_drainError = u"unknown stage 'enrich'"_s;
    QVERIFY(m_daemon->listen());
    ConsoleWindow window(*m_daemon);
    window.connectToDaemon();
    QTRY_COMPARE(window.stageBox()->count(), 3);
    window.selectStage(u"enrich"_s);
    window.actions()->setConfirm([](const QString &, const QString &) { return true; });
    QTRY_VERIFY(window.actions()->drain()->isEnabled());
    window.actions()->drain()->trigger();
    QTRY_VERIFY(window.lastError().contains(u"unknown stage 'enrich'"_s));
    QVERIFY(window.lastError().startsWith(u"Draining enrich failed"_s));
    // and it is in the event log too
    window.feed()->flush();
    QAbstractItemModel *log = window.proxy(MainWindow::EventsTab);
    bool logged = false;
    for (int row = 0; row < log->rowCount(); ++row)
        logged |= log->index(row, 4).data().toString().contains(u"unknown stage"_s);
    QVERIFY(logged);
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

void TestConsoleWindow::germanTranslationIsComplete()
{
    QFile file(QStringLiteral(PEPSI_SOURCE_DIR "/translations/pepsi-console_de.ts"));
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
    struct Message
    {
        QString source;
        QString type;
        QStringList forms;
    };
    QList<Message> messages;
    QXmlStreamReader xml(file.readAll());
    bool numerus = false;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        if (xml.name() == "message"_L1) {
            messages.append(Message{});
            numerus = xml.attributes().value("numerus"_L1) == "yes"_L1;
        } else if (xml.name() == "source"_L1 && !messages.isEmpty()) {
            messages.last().source = xml.readElementText();
        } else if (xml.name() == "translation"_L1 && !messages.isEmpty()) {
            messages.last().type = xml.attributes().value("type"_L1).toString();
            if (!numerus) {
                messages.last().forms.append(xml.readElementText());
                continue;
            }
            while (xml.readNextStartElement()) {
                if (xml.name() == "numerusform"_L1)
                    messages.last().forms.append(xml.readElementText());
                else
                    xml.skipCurrentElement();
            }
        }
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QVERIFY(messages.size() > 100);
    static const QRegularExpression placeholder(u"%L?\\d"_s);
    const auto placeholders = [](const QString &text) {
        QStringList found;
        for (auto it = placeholder.globalMatch(text); it.hasNext();)
            found.append(it.next().captured().remove(u'L'));
        found.sort();
        found.removeDuplicates();
        return found;
    };
    for (const Message &message : std::as_const(messages)) {
        QVERIFY2(message.type.isEmpty(), qPrintable(u"%1: %2"_s.arg(message.type, message.source)));
        QVERIFY2(!message.forms.isEmpty(), qPrintable(u"untranslated: "_s + message.source));
        for (const QString &form : message.forms) {
            QVERIFY2(!form.isEmpty(), qPrintable(u"untranslated: "_s + message.source));
            // Every %1, %2... survives the translation.
            QVERIFY2(placeholders(form) == placeholders(message.source),
                     qPrintable(u"%1 -> %2"_s.arg(message.source, form)));
        }
    }
}

void TestConsoleWindow::germanTranslationLoads()
{
    QTranslator translator;
    const QString dir = buildDir() + u"/console"_s;
    QVERIFY2(translator.load(QLocale(QLocale::German), u"pepsi-console"_s, u"_"_s, dir), qPrintable(dir));
    QCoreApplication::installTranslator(&translator);
    ConsoleWindow window(*m_daemon);
    const QString tab = window.tabs()->tabText(MainWindow::QueuesTab);
    const QString header = window.feed()->pools()->headerData(PoolModel::InFlight, Qt::Horizontal).toString();
    QCoreApplication::removeTranslator(&translator);
    QCOMPARE(tab, u"&Warteschlangen"_s);
    QCOMPARE(window.actions()->drain()->text(), u"Stufe &anhalten"_s);
    QCOMPARE(header, u"In Arbeit"_s);
}

QTEST_MAIN(TestConsoleWindow)
#include "tst_consolewindow.moc"
