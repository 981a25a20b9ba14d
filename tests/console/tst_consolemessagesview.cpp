// SPDX-License-Identifier: AGPL-3.0-or-later
// The Messages view (doc/man/pepsi-console.rst) beside the rest of the window,
// against the daemon's real control socket over a scripted dispatcher
// (tests/control): the reasons readable at the default size, one claim count
// in the list and the detail, one stage in the view and the tool bar, and the
// warning while a stage fails (its lists and requeues: tst_consolemessages).
#include "consolefeed.h"
#include "controlclient.h"
#include "controlfixture.h"
#include "mainwindow.h"
#include "messagelistmodel.h"
#include "messagesview.h"
#include "messagesviewtest.h"
#include "reasonmodel.h"
#include "stageactions.h"
#include "throughputmodel.h"

#include "control/protocol.h"

#include <QComboBox>
#include <QFont>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScopeGuard>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTranslator>

using namespace pepsi;
using namespace pepsi::console;
using namespace Qt::StringLiterals;

class TestConsoleMessagesView : public MessagesViewTest
{
    Q_OBJECT

private Q_SLOTS:
    void reasonsReadableAtTheDefaultSize();
    void listAndDetailShowOneClaimCount();
    void toolBarAndViewShowOneStage();
    void warnsWhileTheStageFails();
    void warnsWhenTheLastMessagesFailed();
};

// At 1280×800 the reasons pane's Reason column shows a typical reason whole,
// however long the list's reasons are and whatever the list pane's buttons need.
void TestConsoleMessagesView::reasonsReadableAtTheDefaultSize()
{
    const QString typical = u"status 3: field 'to' is missing"_s;
    addFailed(m_daemon->dispatch(), 1, 30, typical);
    addFailed(m_daemon->dispatch(), 101, 30, u"status 3: "_s + QString(300, u'x'));
    QVERIFY(m_daemon->listen());
    ConsoleWindow window(*m_daemon);
    // A desktop's usual font, not the offscreen platform's small one.
    QFont font = window.font();
    font.setPointSize(11);
    window.setFont(font);
    window.resize(1280, 800);
    openFailedOfEnrich(window);
    MessagesView *view = window.messagesView();
    QTRY_COMPARE(view->reasons()->total(), 60);
    QTRY_COMPARE(view->messages()->rowCount(), 60);
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTableView *reasons = view->reasonView();
    const int needed = reasons->fontMetrics().horizontalAdvance(typical);
    QTRY_VERIFY2(reasons->columnWidth(ReasonModel::Reason) >= needed,
                 qPrintable(u"%1 < %2"_s.arg(reasons->columnWidth(ReasonModel::Reason)).arg(needed)));
}

// Message 7 was claimed again after the list was read: the detail asks the
// daemon and the list's row shows the same count.
void TestConsoleMessagesView::listAndDetailShowOneClaimCount()
{
    const auto window = openTwentyFailed();
    QVERIFY(window);
    MessagesView *view = window->messagesView();
    const QModelIndex claims = view->messages()->index(6, MessageListModel::Claims);
    QCOMPARE(claims.data().toLongLong(), 2);
    auto &dispatch = m_daemon->dispatch();
    dispatch.m_messageDetails[7].row.claims = 5;
    dispatch.m_messages[6].claims = 5;
    view->listView()->selectRow(6);
    QTRY_VERIFY(
        view->detail()->toPlainText().startsWith(u"Message 7 of stage enrich, status failed, claimed 5 times"_s));
    QCOMPARE(claims.data().toLongLong(), 5);
}

// Choosing the stage in the Messages view chooses it in the tool bar, and
// the other way round.
void TestConsoleMessagesView::toolBarAndViewShowOneStage()
{
    addFailed(m_daemon->dispatch(), 1, 3, BadInput);
    QVERIFY(m_daemon->listen());
    ConsoleWindow window(*m_daemon);
    openFailedOfEnrich(window);
    QCOMPARE(window.stageBox()->currentText(), u"enrich"_s);
    QCOMPARE(window.actions()->stage(), u"enrich"_s);

    MessagesView *view = window.messagesView();
    view->stageBox()->setCurrentIndex(view->stageBox()->findText(u"deliver"_s));
    QCOMPARE(window.stageBox()->currentText(), u"deliver"_s);
    QCOMPARE(window.actions()->stage(), u"deliver"_s);

    m_daemon->clearRecord();
    window.stageBox()->setCurrentIndex(window.stageBox()->findText(u"ingest"_s));
    Q_EMIT window.stageBox()->textActivated(u"ingest"_s);
    QCOMPARE(view->stageBox()->currentText(), u"ingest"_s);
    QCOMPARE(view->messages()->stage(), u"ingest"_s);
    QCOMPARE(view->statusBox()->currentData().toString(), u"failed"_s);
    QTRY_VERIFY(m_daemon->count(u"messages"_s) > 0);
}

// The stage's runs since the last snapshot all failed and the daemon says
// it is failing: the view says so while it is open, and so does the
// confirmation of a requeue.
void TestConsoleMessagesView::warnsWhileTheStageFails()
{
    const auto window = openTwentyFailed();
    QVERIFY(window);
    MessagesView *view = window->messagesView();
    QVERIFY(view->warning()->isHidden());

    auto &stats = m_daemon->dispatch().m_stats;
    stats.stages[u"enrich"_s].runs += 600;
    stats.stages[u"enrich"_s].failures += 600;
    stats.stages[u"enrich"_s].rate10s = 120.0;
    stats.stages[u"enrich"_s].failureShare = 1.0;
    stats.stages[u"enrich"_s].failing = true;
    window->client().post(u"status"_s);
    QTRY_VERIFY(window->feed()->throughput()->isFailing(u"enrich"_s));
    window->feed()->flush();
    QTRY_VERIFY(!view->warning()->isHidden());
    QVERIFY2(view->warning()->text().startsWith(u"Stage enrich is failing now: 100 % of its runs"_s),
             qPrintable(view->warning()->text()));

    QString asked;
    window->actions()->setConfirm([&asked](const QString &, const QString &question) {
        asked = question;
        return false; // the operator thinks again
    });
    view->listView()->selectRow(0);
    QTRY_VERIFY(view->requeueSelectedButton()->isEnabled());
    m_daemon->clearRecord();
    view->requeueSelected();
    QVERIFY2(asked.contains(u"Stage enrich is failing now"_s), qPrintable(asked));
    QCOMPARE(m_daemon->count(u"requeue"_s), 0);
}

// Nothing runs any more, but the stage's last runs all failed (the daemon's
// failed_in_a_row): the warning stays, as a requeue would fail again.
void TestConsoleMessagesView::warnsWhenTheLastMessagesFailed()
{
    m_daemon->dispatch().m_stats.stages[u"enrich"_s].failedInARow = 230;
    const auto window = openTwentyFailed();
    QVERIFY(window);
    MessagesView *view = window->messagesView();
    QVERIFY(!window->feed()->throughput()->isFailing(u"enrich"_s));
    window->feed()->flush();
    QTRY_VERIFY(!view->warning()->isHidden());
    QCOMPARE(view->warning()->text(),
             u"Stage enrich failed its last 230 messages, and none succeeded since. Requeued "
             "messages will probably fail again."_s);

    // One success: the daemon's count is back at zero, and so is the warning.
    m_daemon->dispatch().m_stats.stages[u"enrich"_s].failedInARow = 0;
    window->client().post(u"status"_s);
    window->feed()->flush();
    QTRY_VERIFY(view->warning()->isHidden());
}

QTEST_MAIN(TestConsoleMessagesView)
#include "tst_consolemessagesview.moc"
