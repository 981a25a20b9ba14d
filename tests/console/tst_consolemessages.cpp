// SPDX-License-Identifier: AGPL-3.0-or-later
// The Messages view (doc/man/pepsi-console.rst) against the daemon's real control
// socket over a scripted dispatcher (tests/control): its models page a
// stage's rows by id and count the reasons over the whole status; the view
// finds a message by id, shows its state, and requeues the selection or a
// reason with the true count, in batches of the daemon's bound (what it shows
// beside the rest of the window, and its warnings: tst_consolemessagesview).
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

class TestConsoleMessages : public MessagesViewTest
{
    Q_OBJECT

private Q_SLOTS:
    void modelsPageAndCountTheWholeStatus();
    void findsAMessageAndShowsItsState();
    void requeuesTheSelectionAndAReasonInBatches();
    void requeuesTheCountConfirmed();
    void confirmationNamesTheStatusTranslated();

private:
    static QString buildDir() { return qEnvironmentVariable("PEPSI_BUILD_DIR", QStringLiteral(PEPSI_BINARY_DIR)); }
};

// 450 failed rows in pages of 200 by id, each once; the reasons counted over
// all 450 before a second page was asked for; one reason's rows alone.
void TestConsoleMessages::modelsPageAndCountTheWholeStatus()
{
    addFailed(m_daemon->dispatch(), 1000, 300, BadInput);
    addFailed(m_daemon->dispatch(), 2000, 150, Busy);
    QVERIFY(m_daemon->listen());
    ControlClient client;
    client.setSocketPath(m_daemon->path());
    client.start();
    QTRY_COMPARE(client.state(), ControlClient::State::Connected);

    ReasonModel reasons(&client);
    reasons.setQuery(u"enrich"_s, u"failed"_s);
    QTRY_VERIFY(reasons.isLoaded());
    QCOMPARE(reasons.rowCount(), 3);
    QCOMPARE(reasons.total(), 450);
    QCOMPARE(reasons.index(0, ReasonModel::Count).data().toString(), u"450"_s);
    QVERIFY(reasons.index(0, 0).data(ReasonModel::ReasonRole).isNull()); // All reasons
    QCOMPARE(reasons.index(1, ReasonModel::Reason).data(ReasonModel::ReasonRole).toString(), BadInput);
    QCOMPARE(reasons.count(BadInput), 300);
    QCOMPARE(reasons.count(Busy), 150);

    MessageListModel list(&client);
    QSignalSpy pages(&list, &MessageListModel::pageLoaded);
    list.setQuery(u"enrich"_s, u"failed"_s);
    QTRY_COMPARE(pages.size(), 1);
    QCOMPARE(list.rowCount(), MessageListModel::PageSize);
    QVERIFY(list.canFetchMore());
    QCOMPARE(list.index(0, MessageListModel::Id).data().toLongLong(), 1000);
    QCOMPARE(list.index(0, MessageListModel::Claims).data().toLongLong(), 2);
    QCOMPARE(list.index(0, MessageListModel::Reason).data().toString(), BadInput);
    list.fetchMore();
    QVERIFY(!list.canFetchMore()); // one page at a time
    QTRY_COMPARE(pages.size(), 2);
    list.fetchMore();
    QTRY_COMPARE(pages.size(), 3);
    QCOMPARE(list.rowCount(), 450);
    QVERIFY(!list.canFetchMore());
    QSet<qint64> ids;
    for (int row = 0; row < list.rowCount(); ++row)
        ids.insert(list.idAt(row));
    QCOMPARE(ids.size(), 450);
    // The pages asked by after_id, within the daemon's limit.
    const QList<QJsonObject> asked = m_daemon->requests(u"messages"_s);
    QCOMPARE(asked.last().value("after_id"_L1).toInteger(), 2099); // 1000…1299, then 2000…2099
    QVERIFY(MessageListModel::PageSize <= protocol::MaxMessagesLimit);

    list.setQuery(u"enrich"_s, u"failed"_s, Busy);
    QTRY_COMPARE(list.rowCount(), 150);
    QCOMPARE(list.idAt(0), 2000);
    QCOMPARE(list.rowOf(1000), -1);
}

// A message not in the loaded page is found by id; its state pretty-printed,
// a state cut at 16 KiB said to be cut.
void TestConsoleMessages::findsAMessageAndShowsItsState()
{
    addFailed(m_daemon->dispatch(), 1, 600, BadInput);
    MessageDetail cut = m_daemon->dispatch().m_messageDetails.value(599);
    cut.state = QByteArray(R"({"blob": ")") + QByteArray(100, 'x');
    cut.truncated = true;
    m_daemon->dispatch().m_messageDetails.insert(599, cut);
    QVERIFY(m_daemon->listen());
    ConsoleWindow window(*m_daemon);
    openFailedOfEnrich(window);
    QCOMPARE(window.tabs()->currentWidget(), window.messagesView());
    MessagesView *view = window.messagesView();
    QTRY_COMPARE(view->messages()->rowCount(), MessageListModel::PageSize);

    // In the loaded page: selected, and its state shown.
    view->searchBox()->setText(u"7"_s);
    QTest::keyClick(view->searchBox(), Qt::Key_Return);
    QTRY_VERIFY(view->detail()->toPlainText().contains(u"\"customer\": 4711"_s));
    QCOMPARE(view->listView()->selectionModel()->selectedRows().value(0).row(), 6);
    QVERIFY(view->detail()->toPlainText().startsWith(u"Message 7 of stage enrich, status failed, claimed 2 times\n"_s));

    // Beyond it: shown all the same, and a cut state said so.
    view->findMessage(599);
    QTRY_VERIFY(view->detail()->toPlainText().contains(u"longer than 16 KiB"_s));
    QVERIFY(!view->listView()->selectionModel()->hasSelection());
    view->findMessage(123456);
    QTRY_VERIFY(view->detail()->toPlainText().contains(u"no message with id 123456"_s));
}

// The selection by id, then a reason of 10,300 rows: the confirmations name
// stage, status and the true count; the ids go in batches of the daemon's
// bound with a limit that does not cut them; the view says how many moved.
void TestConsoleMessages::requeuesTheSelectionAndAReasonInBatches()
{
    addFailed(m_daemon->dispatch(), 1, 10300, BadInput);
    addFailed(m_daemon->dispatch(), 20001, 40, Busy);
    QVERIFY(m_daemon->listen());
    ConsoleWindow window(*m_daemon);
    QStringList questions;
    window.actions()->setConfirm([&questions](const QString &, const QString &question) {
        questions << question;
        return true;
    });
    QSignalSpy done(window.messagesView(), &MessagesView::done);
    openFailedOfEnrich(window);
    QTRY_VERIFY(window.actions()->reload()->isEnabled());
    MessagesView *view = window.messagesView();
    QTRY_COMPARE(view->reasons()->total(), 10340);
    QTRY_COMPARE(view->messages()->rowCount(), MessageListModel::PageSize);

    // Three rows chosen by the operator.
    QItemSelectionModel *selection = view->listView()->selectionModel();
    for (int row : {0, 1, 5})
        selection->select(view->messages()->index(row, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
    QVERIFY(view->requeueSelectedButton()->isEnabled());
    m_daemon->clearRecord();
    view->requeueSelected();
    QTRY_COMPARE(done.size(), 1);
    QCOMPARE(questions.value(0),
             u"Put 3 messages of stage enrich in status failed back to pending (the 3 selected)?"_s);
    QCOMPARE(done.last().value(0).toString(), u"3 messages of stage enrich put back to pending."_s);
    const QJsonObject byIds = m_daemon->requests(u"requeue"_s).value(0);
    QCOMPARE(byIds.value("ids"_L1).toArray(), QJsonArray({1, 2, 6}));
    QCOMPARE(byIds.value("limit"_L1).toInt(), 3);

    // The reason: counted anew after the requeue, 10,297 left of it.
    QTRY_COMPARE(view->reasons()->count(BadInput), 10297);
    view->reasonView()->selectRow(1);
    QTRY_VERIFY(view->requeueReasonButton()->isEnabled());
    // Three more fail for that reason after the list was counted: the
    // confirmation counts again and says 10,300.
    addFailed(m_daemon->dispatch(), 30001, 3, BadInput);
    m_daemon->clearRecord();
    view->requeueReason();
    QTRY_COMPARE_WITH_TIMEOUT(done.size(), 2, 20000);
    QVERIFY2(questions.value(1).startsWith(u"Put 10,300 messages of stage enrich in status failed back to pending "
                                           "(reason \"status 3: bad input: no such customer\")?"_s),
             qPrintable(questions.value(1)));
    QVERIFY(questions.value(1).contains(u"in batches"_s));
    QCOMPARE(done.last().value(0).toString(), u"10,300 messages of stage enrich put back to pending."_s);
    const QList<QJsonObject> batches = m_daemon->requests(u"requeue"_s);
    QCOMPARE(batches.size(), 2);
    QCOMPARE(batches.at(0).value("ids"_L1).toArray().size(), protocol::MaxRequeueIds);
    QCOMPARE(batches.at(1).value("ids"_L1).toArray().size(), 300);
    // The other reason's rows stay failed; the view counts again.
    QTRY_COMPARE(view->reasons()->total(), 40);
    QTRY_COMPARE(view->messages()->rowCount(), 40);
}

// 800 of a reason confirmed, 40 more fail for it while the question is
// open: 800 move, the oldest, and the 40 stay failed.
void TestConsoleMessages::requeuesTheCountConfirmed()
{
    addFailed(m_daemon->dispatch(), 1, 800, BadInput);
    QVERIFY(m_daemon->listen());
    ConsoleWindow window(*m_daemon);
    QString asked;
    window.actions()->setConfirm([this, &asked](const QString &, const QString &question) {
        asked = question;
        addFailed(m_daemon->dispatch(), 5001, 40, BadInput);
        return true;
    });
    QSignalSpy done(window.messagesView(), &MessagesView::done);
    openFailedOfEnrich(window);
    QTRY_VERIFY(window.actions()->reload()->isEnabled());
    MessagesView *view = window.messagesView();
    QTRY_COMPARE(view->reasons()->count(BadInput), 800);
    view->reasonView()->selectRow(1);
    QTRY_VERIFY(view->requeueReasonButton()->isEnabled());
    m_daemon->clearRecord();
    view->requeueReason();
    QTRY_COMPARE(done.size(), 1);
    QVERIFY2(asked.startsWith(u"Put 800 messages of stage enrich"_s), qPrintable(asked));
    QCOMPARE(done.last().value(0).toString(), u"800 messages of stage enrich put back to pending."_s);
    QSet<qint64> moved;
    for (const QJsonObject &batch : m_daemon->requests(u"requeue"_s))
        for (const QJsonValue &id : batch.value("ids"_L1).toArray())
            moved.insert(id.toInteger());
    QCOMPARE(moved.size(), 800);
    QVERIFY(moved.contains(1) && moved.contains(800) && !moved.contains(5001));
    QTRY_COMPARE(view->reasons()->count(BadInput), 40);
}

// The confirmation and the detail name the status as the status box does,
// in the operator's language, not as the protocol's word.
void TestConsoleMessages::confirmationNamesTheStatusTranslated()
{
    QTranslator german;
    const QString dir = buildDir() + u"/console"_s;
    QVERIFY2(german.load(QLocale(QLocale::German), u"pepsi-console"_s, u"_"_s, dir), qPrintable(dir));
    QCoreApplication::installTranslator(&german);
    const auto english = qScopeGuard([&german] { QCoreApplication::removeTranslator(&german); });
    addFailed(m_daemon->dispatch(), 1, 3, BadInput);
    QVERIFY(m_daemon->listen());
    ConsoleWindow window(*m_daemon);
    QString asked;
    window.actions()->setConfirm([&asked](const QString &, const QString &question) {
        asked = question;
        return false;
    });
    openFailedOfEnrich(window);
    MessagesView *view = window.messagesView();
    QTRY_COMPARE(view->messages()->rowCount(), 3);
    view->listView()->selectRow(0);
    QTRY_VERIFY(view->requeueSelectedButton()->isEnabled());
    view->requeueSelected();
    QVERIFY2(asked.startsWith(u"1 Nachricht der Stufe enrich im Status „fehlgeschlagen“ wieder auf wartend setzen"_s),
             qPrintable(asked));
    // So does the detail pane.
    QTRY_VERIFY2(view->detail()->toPlainText().startsWith(
                     u"Nachricht 1 der Stufe enrich, Status „fehlgeschlagen“, 2-mal abgeholt\n"_s),
                 qPrintable(view->detail()->toPlainText()));
}

QTEST_MAIN(TestConsoleMessages)
#include "tst_consolemessages.moc"
