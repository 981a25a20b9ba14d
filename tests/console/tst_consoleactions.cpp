// SPDX-License-Identifier: AGPL-3.0-or-later
// The console's stage actions against the daemon's real control socket over a
// scripted dispatcher (tests/control/controlfixture.h), on the offscreen
// platform: they follow peer.admin and the chosen stage, ask first with what
// the stage holds, send what they say (drain, resume, requeue, set) and report
// every answer, an error too.
#include "consolefeed.h"
#include "consolefixture.h"
#include "controlclient.h"
#include "controlfixture.h"
#include "mainwindow.h"
#include "pipelinewidget.h"
#include "queuemodel.h"
#include "stageactions.h"

#include <QAction>
#include <QComboBox>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>
#include <QTranslator>
#include <unistd.h>

using namespace pepsi::console;
using namespace Qt::StringLiterals;

class TestConsoleActions : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void actionsFollowPeerAdmin_data();
    void actionsFollowPeerAdmin();
    void drainAndResumeSendTheCommand();
    void requeueAsksWithTheCount_data();
    void requeueAsksWithTheCount();
    void setFromThePools();
    void everyErrorIsShown();

private:
    std::unique_ptr<ControlFixture> m_daemon;
    QTranslator m_english;
};

void TestConsoleActions::initTestCase() { QVERIFY(setUpConsoleTests(u"tst_consoleactions"_s, m_english)); }

void TestConsoleActions::init()
{
    QSettings().clear();
    m_daemon = freshConsoleDaemon();
}

void TestConsoleActions::actionsFollowPeerAdmin_data()
{
    QTest::addColumn<bool>("admin");
    QTest::newRow("admin") << true;
    QTest::newRow("not admin") << false;
}

void TestConsoleActions::actionsFollowPeerAdmin()
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

void TestConsoleActions::drainAndResumeSendTheCommand()
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

void TestConsoleActions::requeueAsksWithTheCount_data()
{
    QTest::addColumn<QString>("status");
    QTest::addColumn<bool>("answer");
    QTest::addColumn<QString>("question"); // empty: not asked
    QTest::addColumn<int>("limit");        // 0: nothing sent

    QTest::newRow("failed, yes") << u"failed"_s << true << u"Put 12 failed messages of stage enrich"_s << 12;
    QTest::newRow("failed, no") << u"failed"_s << false << u"Put 12 failed messages of stage enrich"_s << 0;
    QTest::newRow("timeout, yes") << u"timeout"_s << true << u"Put 2 timed-out messages of stage enrich"_s << 2;
}

void TestConsoleActions::requeueAsksWithTheCount()
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

void TestConsoleActions::setFromThePools()
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

void TestConsoleActions::everyErrorIsShown()
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

QTEST_MAIN(TestConsoleActions)
#include "tst_consoleactions.moc"
