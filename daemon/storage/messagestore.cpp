// SPDX-License-Identifier: AGPL-3.0-or-later
#include "storage/messagestore.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace pepsi {

namespace {

// The status is part of the text, not a parameter: a partial index
// (WHERE status = ...) serves only a plan that knows the status. pending and
// failed/timeout read (stage, id) indexes in order and stop at the limit;
// running reads workqueue_running in id order (as many rows as are held);
// paused reads workqueue_paused (the backlog of retries) and sorts.
// No quote characters in comments inside the SQL (QSqlQuery placeholder parser).
const QString MessagesTemplate = QStringLiteral(R"sql(
SELECT workqueue_id, stage, CAST(status AS text), claims, updated, left(state ->> 'dispatch_error', %2)
  FROM workqueue
 WHERE status = '%1' AND stage = :stage AND workqueue_id > :after
 ORDER BY workqueue_id
 LIMIT :limit
)sql");

// The state is cut in the server (one character past the byte limit tells
// that there was more), so a row of megabytes does not cross the wire.
const QString MessageSql = QStringLiteral(R"sql(
SELECT workqueue_id, stage, CAST(status AS text), claims, updated, left(state ->> 'dispatch_error', %1),
       created, timeout, left(CAST(state AS text), %2)
  FROM workqueue WHERE workqueue_id = :id
)sql");

MessageRow rowOf(const QSqlQuery &query)
{
    MessageRow row;
    row.id = query.value(0).toLongLong();
    row.stage = query.value(1).toString();
    row.status = query.value(2).toString();
    row.claims = query.value(3).toLongLong();
    row.updated = query.value(4).toDateTime().toUTC();
    row.reason = query.value(5).toString();
    return row;
}

// At most `limit` bytes of UTF-8, never ending inside a character.
QByteArray cutUtf8(const QByteArray &text, qsizetype limit)
{
    if (text.size() <= limit)
        return text;
    qsizetype end = limit;
    while (end > 0 && (uchar(text.at(end)) & 0xC0) == 0x80)
        --end;
    return text.left(end);
}

} // namespace

MessageStore::MessageStore(QString connectionName)
    : m_connectionName(std::move(connectionName))
{ }

const QStringList &MessageStore::listableStatuses()
{
    static const QStringList statuses{
        QStringLiteral("pending"), QStringLiteral("running"), QStringLiteral("paused"),
        QStringLiteral("failed"),  QStringLiteral("timeout"),
    };
    return statuses;
}

QString MessageStore::messagesSql(const QString &status)
{
    Q_ASSERT(listableStatuses().contains(status));
    return MessagesTemplate.arg(status).arg(MaxReasonChars);
}

std::optional<MessagePage> MessageStore::messages(const MessagesRequest &request)
{
    if (!listableStatuses().contains(request.status)) {
        m_lastError = QStringLiteral("rows in status \"%1\" are not listed").arg(request.status);
        return std::nullopt;
    }
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.setForwardOnly(true);
    if (!query.prepare(messagesSql(request.status))) {
        m_lastError = QStringLiteral("preparing the message list failed: ") + query.lastError().text().trimmed();
        return std::nullopt;
    }
    query.bindValue(QStringLiteral(":stage"), request.stage);
    query.bindValue(QStringLiteral(":after"), request.afterId);
    // One more than asked tells whether another page follows.
    query.bindValue(QStringLiteral(":limit"), request.limit + 1);
    if (!query.exec()) {
        m_lastError = QStringLiteral("listing messages failed: ") + query.lastError().text().trimmed();
        return std::nullopt;
    }
    MessagePage page;
    while (query.next()) {
        if (page.rows.size() == request.limit) {
            page.nextAfterId = page.rows.last().id;
            break;
        }
        page.rows.append(rowOf(query));
    }
    return page;
}

std::optional<std::optional<MessageDetail>> MessageStore::message(qint64 id)
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.setForwardOnly(true);
    if (!query.prepare(MessageSql.arg(MaxReasonChars).arg(MessageDetail::MaxStateBytes + 1))) {
        m_lastError = QStringLiteral("preparing the message query failed: ") + query.lastError().text().trimmed();
        return std::nullopt;
    }
    query.bindValue(QStringLiteral(":id"), id);
    if (!query.exec()) {
        m_lastError = QStringLiteral("reading the message failed: ") + query.lastError().text().trimmed();
        return std::nullopt;
    }
    if (!query.next())
        return std::optional<MessageDetail>();
    MessageDetail detail;
    detail.row = rowOf(query);
    detail.created = query.value(6).toDateTime().toUTC();
    if (!query.isNull(7))
        detail.timeout = query.value(7).toDateTime().toUTC();
    const QByteArray state = query.value(8).toString().toUtf8();
    detail.state = cutUtf8(state, MessageDetail::MaxStateBytes);
    detail.truncated = detail.state.size() < state.size();
    return std::optional<MessageDetail>(std::move(detail));
}

} // namespace pepsi
