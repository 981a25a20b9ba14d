// SPDX-License-Identifier: AGPL-3.0-or-later
#include "messagesviewtest.h"

#include "consolefeed.h"
#include "messagelistmodel.h"
#include "messagesview.h"
#include "throughputmodel.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QSettings>
#include <QTest>

using namespace pepsi;
using namespace pepsi::console;
using namespace Qt::StringLiterals;

void addFailed(FakeDispatch &dispatch, qint64 first, int count, const QString &reason)
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    for (qint64 id = first; id < first + count; ++id) {
        MessageRow row{id, u"enrich"_s, u"failed"_s, 2, now.addSecs(-id % 600), reason};
        dispatch.m_messages.append(row);
        MessageDetail detail;
        detail.row = row;
        detail.created = now.addSecs(-3600);
        detail.state = R"({"customer": 4711, "dispatch_error": ")" + reason.toUtf8() + "\"}";
        dispatch.m_messageDetails.insert(id, detail);
    }
}

// The program's own name: each test program's settings stay its own.
void MessagesViewTest::initTestCase() { QVERIFY(setUpConsoleTests(QCoreApplication::applicationName(), m_english)); }

void MessagesViewTest::init()
{
    QSettings().clear();
    m_daemon = freshConsoleDaemon();
    m_daemon->dispatch().m_requeueMovesRows = true;
    // Only the rows each test writes.
    m_daemon->dispatch().m_messages.clear();
    m_daemon->dispatch().m_messageDetails.clear();
}

void MessagesViewTest::openFailedOfEnrich(ConsoleWindow &window)
{
    window.show();
    window.connectToDaemon();
    QTRY_VERIFY(window.messagesView()->stageBox()->findText(u"enrich"_s) >= 0);
    QTRY_VERIFY(window.feed()->throughput()->contains(u"enrich"_s));
    window.showMessages(u"enrich"_s, u"failed"_s);
}

std::unique_ptr<ConsoleWindow> MessagesViewTest::openTwentyFailed()
{
    addFailed(m_daemon->dispatch(), 1, 20, BadInput);
    if (!m_daemon->listen())
        return nullptr;
    auto window = std::make_unique<ConsoleWindow>(*m_daemon);
    openFailedOfEnrich(*window);
    if (QTest::currentTestFailed())
        return nullptr;
    const MessageListModel *messages = window->messagesView()->messages();
    if (!QTest::qWaitFor([messages] { return messages->rowCount() == 20; })) {
        qWarning("the Messages view lists %d rows, not 20", messages->rowCount());
        return nullptr;
    }
    return window;
}
