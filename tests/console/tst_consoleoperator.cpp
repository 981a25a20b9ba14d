// SPDX-License-Identifier: AGPL-3.0-or-later
// The console as an operator meets it in the moments that matter,
// against the daemon's real control socket over a scripted dispatcher, on the
// offscreen platform: a stage that fails everything shows it; nothing stale
// passes for live after the daemon dies; a tab switch never changes the stage
// the actions act on; the event log keeps its order through a filter and
// hides worker recycling; usage errors need no display.
#include "consolefeed.h"
#include "consolefixture.h"
#include "controlclient.h"
#include "controlfixture.h"
#include "eventlogmodel.h"
#include "mainwindow.h"
#include "pipelinewidget.h"
#include "poolmodel.h"
#include "stageactions.h"
#include "throughputmodel.h"

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QToolButton>
#include <QTranslator>

using namespace pepsi::console;
using namespace Qt::StringLiterals;

class TestConsoleOperator : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void failingStageShowsFailures();
    void staleViewsAfterTheDaemonGoes();
    void tabSwitchKeepsTheStage();
    void eventOrderSurvivesAFilter();
    void workerRecyclesHiddenByDefault();
    void usageWithoutADisplay_data();
    void usageWithoutADisplay();

private:
    static QString buildDir() { return qEnvironmentVariable("PEPSI_BUILD_DIR", QStringLiteral(PEPSI_BINARY_DIR)); }
    std::unique_ptr<ControlFixture> m_daemon;
    QTranslator m_english;
};

void TestConsoleOperator::initTestCase() { QVERIFY(setUpConsoleTests(u"tst_consoleoperator"_s, m_english)); }

void TestConsoleOperator::init()
{
    QSettings().clear();
    m_daemon = freshConsoleDaemon();
}

void TestConsoleOperator::failingStageShowsFailures()
{
    QVERIFY(m_daemon->listen());
    ConsoleWindow window(*m_daemon);
    window.connectToDaemon();
    QTRY_COMPARE(window.proxy(MainWindow::QueuesTab)->rowCount(), 3);
    QTRY_VERIFY(window.feed()->throughput()->contains(u"deliver"_s));
    QVERIFY(!window.feed()->throughput()->isFailing(u"deliver"_s));

    // deliver's runs since the last snapshot all failed (a stage program
    // answering "3 bad input" for every id), and the daemon says it is
    // failing; enrich's went well.
    auto &stats = m_daemon->dispatch().m_stats;
    stats.stages[u"deliver"_s].runs += 600;
    stats.stages[u"deliver"_s].failures += 590;
    stats.stages[u"deliver"_s].timeouts += 10;
    stats.stages[u"deliver"_s].rate10s = 120.0;
    stats.stages[u"deliver"_s].failureShare = 1.0;
    stats.stages[u"deliver"_s].failing = true;
    stats.stages[u"enrich"_s].runs += 600;
    stats.messages += 1200;
    m_daemon->dispatch().m_queues.stages[u"deliver"_s].failed = 590;
    m_daemon->dispatch().m_queues.stages[u"deliver"_s].timeout = 10;
    window.client().post(u"status"_s);
    QTRY_VERIFY(window.feed()->throughput()->isFailing(u"deliver"_s));
    QVERIFY(!window.feed()->throughput()->isFailing(u"enrich"_s));
    QCOMPARE(window.feed()->throughput()->failureShare(u"deliver"_s), 1.0);
    QVERIFY(window.feed()->throughput()->failureRate(u"deliver"_s) > 0);
    window.feed()->flush();

    // The box says so, with the failed and timed-out rows.
    const QStringList lines = window.pipeline()->lines(u"deliver"_s);
    QCOMPARE(lines.mid(3), (QStringList{u"done 0.0/s"_s, u"failing 120/s"_s, u"failed 590"_s, u"timed out 10"_s}));
    QCOMPARE(window.pipeline()->lines(u"enrich"_s).value(4), u"failing 0.0/s"_s);
    // The header counts done and failed apart: 600 of the 121,076 that left failed.
    QVERIFY2(window.pipeline()->totalsLine().endsWith(u"since start 120,476 messages done, 600 failed or timed out"_s),
             qPrintable(window.pipeline()->totalsLine()));
    // The statistics highlight it.
    const QModelIndex row =
        window.proxy(MainWindow::ThroughputTab)
            ->match(window.proxy(MainWindow::ThroughputTab)->index(0, 0), Qt::DisplayRole, u"deliver"_s)
            .value(0);
    QVERIFY(row.data(KeyedTableModel::HighlightRole).toBool());

    // A requeue now warns that the stage is still failing.
    window.selectStage(u"deliver"_s);
    QString asked;
    window.actions()->setConfirm([&](const QString &, const QString &text) {
        asked = text;
        return false;
    });
    window.actions()->requeueFailed()->trigger();
    QVERIFY2(asked.contains(u"Stage deliver is failing now: 100 % of its runs"_s), qPrintable(asked));
}

void TestConsoleOperator::staleViewsAfterTheDaemonGoes()
{
    QVERIFY(m_daemon->listen());
    ConsoleWindow window(*m_daemon);
    window.client().setReconnectInterval(100);
    window.show();
    window.connectToDaemon();
    window.tabs()->setCurrentIndex(MainWindow::WorkersTab);
    QTRY_COMPARE(window.proxy(MainWindow::WorkersTab)->rowCount(), 1);
    QTRY_COMPARE(window.stageBox()->count(), 3);
    window.selectStage(u"enrich"_s);
    QVERIFY(!window.staleBanner()->isVisible());
    QVERIFY(!window.pipeline()->isStale());
    // A drain that the restart will forget.
    window.actions()->setConfirm([](const QString &, const QString &) { return true; });
    QTRY_VERIFY(window.actions()->drain()->isEnabled());
    window.actions()->drain()->trigger();
    QTRY_VERIFY(window.feed()->pools()->record(u"enrich"_s).drained);

    // WHEN the daemon dies
    m_daemon->goAway();
    // THEN nothing passes for live: the workers are gone from the view, the rest is grey and dated
    QTRY_VERIFY(window.staleBanner()->isVisible());
    QVERIFY2(window.staleBanner()->text().startsWith(u"Not connected to the daemon: what the views show is from "_s),
             qPrintable(window.staleBanner()->text()));
    QCOMPARE(window.proxy(MainWindow::WorkersTab)->rowCount(), 0);
    QVERIFY(window.pipeline()->isStale());
    QVERIFY(!window.view(MainWindow::QueuesTab)->isEnabled());
    QVERIFY(!window.view(MainWindow::PoolsTab)->isEnabled());

    // WHEN a new daemon comes (another pid), without the drain
    m_daemon = freshConsoleDaemon();
    m_daemon->dispatch().m_info.pid += 1;
    window.client().setSocketPath(m_daemon->path());
    QVERIFY(m_daemon->listen());
    // THEN the views are live again, and one line says what changed
    QTRY_VERIFY(!window.staleBanner()->isVisible());
    QVERIFY(!window.pipeline()->isStale());
    QVERIFY(window.view(MainWindow::QueuesTab)->isEnabled());
    QString summary;
    QTRY_VERIFY([&] {
        window.feed()->flush();
        EventLogModel *log = window.feed()->events();
        for (int row = 0; row < log->rowCount(); ++row) {
            const QString text = log->index(row, EventLogModel::Details).data().toString();
            if (text.startsWith(u"Reconnected after"_s))
                summary = text;
        }
        return !summary.isEmpty();
    }());
    QVERIFY2(summary.contains(u"The daemon restarted"_s), qPrintable(summary));
    QVERIFY2(summary.contains(u"Drains do not survive a restart: enrich claims messages again."_s),
             qPrintable(summary));
}

void TestConsoleOperator::tabSwitchKeepsTheStage()
{
    // The issue's steps: a row on Queues, Ctrl+1, the enrich box, the Throughput tab.
    QVERIFY(m_daemon->listen());
    ConsoleWindow window(*m_daemon);
    window.show();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    window.connectToDaemon();
    QTRY_COMPARE(window.proxy(MainWindow::QueuesTab)->rowCount(), 3);
    QTRY_COMPARE(window.proxy(MainWindow::ThroughputTab)->rowCount(), 3);
    QTRY_COMPARE(window.stageBox()->count(), 3);

    QTest::keyClick(&window, Qt::Key_3, Qt::ControlModifier);
    QTableView *queues = window.view(MainWindow::QueuesTab);
    const QModelIndex row = window.proxy(MainWindow::QueuesTab)->index(1, 0);
    QTest::mouseClick(queues->viewport(), Qt::LeftButton, {}, queues->visualRect(row).center());
    QCOMPARE(window.actions()->stage(), row.data().toString());

    QTest::keyClick(&window, Qt::Key_1, Qt::ControlModifier);
    QTRY_VERIFY(window.pipeline()->isVisible());
    QTest::mouseClick(window.pipeline(), Qt::LeftButton, {}, window.pipeline()->boxOf(u"enrich"_s).center().toPoint());
    QCOMPARE(window.actions()->stage(), u"enrich"_s);

    for (const int tab : {int(MainWindow::ThroughputTab), int(MainWindow::PoolsTab), int(MainWindow::QueuesTab)}) {
        QTest::keyClick(&window, Qt::Key(Qt::Key_1 + tab), Qt::ControlModifier);
        window.view(MainWindow::Tab(tab))->setFocus(Qt::TabFocusReason); // makes its first row current
        QCoreApplication::processEvents();
        QCOMPARE(window.actions()->stage(), u"enrich"_s);
        QCOMPARE(window.stageBox()->currentText(), u"enrich"_s);
    }
}

void TestConsoleOperator::eventOrderSurvivesAFilter()
{
    ConsoleWindow window(*m_daemon);
    window.show();
    EventLogModel *log = window.feed()->events();
    // Within one millisecond: the time column cannot order them.
    const QStringList texts{u"one"_s, u"two"_s, u"three"_s, u"four"_s, u"five"_s, u"six"_s};
    for (const QString &text : texts)
        log->addNote(text, false);
    log->flush();
    QSortFilterProxyModel *proxy = window.proxy(MainWindow::EventsTab);
    const auto shown = [proxy] {
        QStringList out;
        for (int row = 0; row < proxy->rowCount(); ++row)
            out.append(proxy->index(row, EventLogModel::Details).data().toString());
        return out;
    };
    QCOMPARE(shown(), texts);
    window.eventFilter()->setText(u"t"_s);
    QCOMPARE(shown(), (QStringList{u"two"_s, u"three"_s}));
    window.eventFilter()->clear();
    QCOMPARE(shown(), texts);
    log->addNote(u"seven"_s, false);
    log->flush();
    QCOMPARE(shown().last(), u"seven"_s);
}

void TestConsoleOperator::workerRecyclesHiddenByDefault()
{
    QVERIFY(m_daemon->listen());
    ConsoleWindow window(*m_daemon);
    window.connectToDaemon();
    // The status reply comes after the subscription's: then the events reach us.
    QTRY_COMPARE(window.proxy(MainWindow::QueuesTab)->rowCount(), 3);
    m_daemon->publish(u"worker_started"_s, {{"pid"_L1, 7001}, {"stage"_L1, u"enrich"_s}});
    m_daemon->publish(
        u"worker_exited"_s,
        {{"pid"_L1, 7001}, {"stage"_L1, u"enrich"_s}, {"reason"_L1, u"recycled"_s}, {"messages"_L1, 512}});
    m_daemon->publish(u"stage_drained"_s, {{"stage"_L1, u"enrich"_s}, {"uid"_L1, 0}});
    EventLogModel *log = window.feed()->events();
    QTRY_VERIFY([&] {
        log->flush();
        return log->rowCount() >= 4; // with "Connected to"
    }());
    QSortFilterProxyModel *proxy = window.proxy(MainWindow::EventsTab);
    QStringList details;
    for (int row = 0; row < proxy->rowCount(); ++row)
        details.append(proxy->index(row, EventLogModel::Details).data().toString());
    QVERIFY2(!details.join(u'\n').contains(u"recycled"_s), qPrintable(details.join(u'\n')));
    // In words, not raw fields.
    QVERIFY2(details.contains(u"drained by root (uid 0): claims nothing until resumed"_s),
             qPrintable(details.join(u'\n')));

    // Shown on request, in words too.
    QAction *lifecycle = window.eventKinds()->menu()->findChild<QAction *>(u"showEventKind0"_s);
    QVERIFY(lifecycle);
    QVERIFY(!lifecycle->isChecked());
    lifecycle->setChecked(true);
    QStringList all;
    for (int row = 0; row < proxy->rowCount(); ++row)
        all.append(proxy->index(row, EventLogModel::Details).data().toString());
    QVERIFY2(all.contains(u"recycled after its message limit, after 512 messages"_s), qPrintable(all.join(u'\n')));
}

void TestConsoleOperator::usageWithoutADisplay_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("lang");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("output"); // on stdout or stderr

    QTest::newRow("unknown option") << QStringList{u"--bogus"_s} << u"C"_s << 64
                                    << u"pepsi-console: Unknown option 'bogus'; see --help"_s;
    QTest::newRow("bad target") << QStringList{u"ssh://ops@"_s} << u"C"_s << 64
                                << u"pepsi-console: target \"ssh://ops@\": no host"_s;
    QTest::newRow("missing value") << QStringList{u"--socket"_s} << u"C"_s << 64 << u"Missing value after"_s;
    QTest::newRow("help") << QStringList{u"--help"_s} << u"C"_s << 0 << u"--socket <PATH>"_s;
    QTest::newRow("help names targets") << QStringList{u"--help"_s} << u"C"_s << 0 << u"[TARGET...]"_s;
    QTest::newRow("a Qt option is not unknown")
        << QStringList{u"-platform"_s, u"offscreen"_s, u"--bogus"_s} << u"C"_s << 64 << u"Unknown option 'bogus'"_s;
    // Qt's own words in German too (qtbase_de from the system's Qt translations).
    QTest::newRow("German") << QStringList{u"--bogus"_s} << u"de_DE.UTF-8"_s << 64 << u"Unbekannte Option 'bogus'"_s;
}

void TestConsoleOperator::usageWithoutADisplay()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, lang);
    QFETCH(int, status);
    QFETCH(QString, output);
    // No display at all: a QApplication would abort ("could not connect to display").
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(u"DISPLAY"_s);
    env.remove(u"WAYLAND_DISPLAY"_s);
    env.insert(u"QT_QPA_PLATFORM"_s, u"xcb"_s);
    env.insert(u"LANG"_s, lang);
    env.insert(u"LANGUAGE"_s, lang.left(2));
    env.remove(u"LC_ALL"_s);
    env.remove(u"LC_MESSAGES"_s);
    QProcess console;
    console.setProcessEnvironment(env);
    console.start(buildDir() + u"/console/pepsi-console"_s, arguments);
    QVERIFY(console.waitForFinished(20000));
    const QString said = QString::fromUtf8(console.readAllStandardOutput() + console.readAllStandardError());
    QCOMPARE(console.exitStatus(), QProcess::NormalExit);
    QVERIFY2(said.contains(output), qPrintable(said));
    QCOMPARE(console.exitCode(), status);
}

QTEST_MAIN(TestConsoleOperator)
#include "tst_consoleoperator.moc"
