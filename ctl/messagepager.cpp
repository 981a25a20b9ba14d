// SPDX-License-Identifier: AGPL-3.0-or-later
#include "messagepager.h"

#include "client.h"
#include "output.h"
#include "views.h"

#include "control/messagecodec.h"
#include "control/protocol.h"

#include <QJsonDocument>

namespace pepsi::ctl {

namespace field = protocol::field;

MessagePager::MessagePager(Client &client, CommandLine line, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_line(std::move(line))
{ }

void MessagePager::start()
{
    if (m_line.json)
        printOut(QStringLiteral("["));
    ask(m_line.afterId.value_or(0));
}

void MessagePager::ask(qint64 afterId)
{
    QJsonObject arguments{
        {field::Stage, m_line.stage},
        {field::Status, m_line.status.isEmpty() ? QString(protocol::value::Failed) : m_line.status},
        {field::AfterId, QJsonValue(afterId)},
        // The largest page: the daemon sends as many of them as fit in a line.
        {field::Limit, m_line.limit.value_or(protocol::MaxMessagesLimit)},
    };
    m_client.request(QString(protocol::cmd::Messages), arguments, [this, afterId](const Client::Reply &reply) {
        if (!reply.ok) {
            printError(reply.error);
            return Q_EMIT finished(ExitRefused);
        }
        onPage(afterId, protocol::messagePageFromJson(reply.result.toObject()));
    });
}

void MessagePager::onPage(qint64 afterId, const MessagePage &page)
{
    if (m_line.json) {
        QString text;
        for (const MessageRow &row : page.rows) {
            text += (m_written++ == 0 ? QStringLiteral("\n  ") : QStringLiteral(",\n  "))
                + QString::fromUtf8(QJsonDocument(protocol::toJson(row)).toJson(QJsonDocument::Compact));
        }
        printOut(text);
    } else {
        m_rows += page.rows;
    }
    if (!page.nextAfterId)
        return end();
    if (*page.nextAfterId <= afterId) {
        printError(QStringLiteral("messages: the daemon's next page starts at id %1, not after %2: stopped")
                       .arg(*page.nextAfterId)
                       .arg(afterId));
        return Q_EMIT finished(ExitRefused);
    }
    ask(*page.nextAfterId);
}

void MessagePager::end()
{
    if (m_line.json) {
        printOut(m_written == 0 ? QStringLiteral("]\n") : QStringLiteral("\n]\n"));
    } else {
        MessagePage whole;
        whole.rows = std::move(m_rows);
        printOut(views::messages(protocol::toJson(whole), m_line.stage));
    }
    Q_EMIT finished(ExitOk);
}

} // namespace pepsi::ctl
