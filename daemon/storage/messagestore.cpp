// SPDX-License-Identifier: AGPL-3.0-or-later
#include "storage/messagestore.h"

#include "control/protocol.h"

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
 WHERE status = '%1' AND stage = :stage AND workqueue_id > :after%3
 ORDER BY workqueue_id
 LIMIT :limit
)sql");

// The reasons of one stage and status by count, through the same partial
// index; the group key is the reason as a list shows it (cut), so that a
// reason from this list finds its rows with the reason filter.
const QString ReasonsTemplate = QStringLiteral(R"sql(
SELECT coalesce(left(state ->> 'dispatch_error', %2), ''), count(*), min(updated), max(updated),
       sum(count(*)) OVER ()
  FROM workqueue
 WHERE status = '%1' AND stage = :stage%3
 GROUP BY 1
 ORDER BY 2 DESC, 1
 LIMIT :limit
)sql");

// The optional filters, as clauses (a plan that knows which it has).
QString filters(MessageStore::Filters which)
{
    QString clauses;
    if (which.testFlag(MessageStore::ByReason))
        clauses += QStringLiteral("\n   AND coalesce(left(state ->> 'dispatch_error', %1), '') = :reason")
                       .arg(MessageStore::MaxReasonChars);
    if (which.testFlag(MessageStore::ByAge))
        clauses += QStringLiteral("\n   AND updated >= now() - CAST(:maxage AS bigint) * interval '1 millisecond'");
    return clauses;
}

MessageStore::Filters filtersOf(const MessagesRequest &request)
{
    MessageStore::Filters which;
    which.setFlag(MessageStore::ByReason, request.reason.has_value());
    which.setFlag(MessageStore::ByAge, request.maxAgeMs.has_value());
    return which;
}

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

QString MessageStore::messagesSql(const QString &status, Filters filters)
{
    Q_ASSERT(listableStatuses().contains(status));
    return MessagesTemplate.arg(status).arg(MaxReasonChars).arg(pepsi::filters(filters));
}

QString MessageStore::reasonsSql(const QString &status, Filters filters)
{
    Q_ASSERT(listableStatuses().contains(status));
    return ReasonsTemplate.arg(status).arg(MaxReasonChars).arg(pepsi::filters(filters));
}

std::optional<MessagePage> MessageStore::messages(const MessagesRequest &request)
{
    if (!listableStatuses().contains(request.status)) {
        m_lastError = QStringLiteral("rows in status \"%1\" are not listed").arg(request.status);
        return std::nullopt;
    }
    if (request.reasons)
        return reasons(request);
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.setForwardOnly(true);
    if (!query.prepare(messagesSql(request.status, filtersOf(request)))) {
        m_lastError = QStringLiteral("preparing the message list failed: ") + query.lastError().text().trimmed();
        return std::nullopt;
    }
    query.bindValue(QStringLiteral(":stage"), request.stage);
    query.bindValue(QStringLiteral(":after"), request.afterId);
    bindFilters(query, request);
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

void MessageStore::bindFilters(QSqlQuery &query, const MessagesRequest &request)
{
    if (request.reason)
        // A null string would bind NULL, which equals nothing: "" asks for the rows without a reason.
        query.bindValue(QStringLiteral(":reason"), request.reason->isNull() ? QStringLiteral("") : *request.reason);
    if (request.maxAgeMs)
        query.bindValue(QStringLiteral(":maxage"), *request.maxAgeMs);
}

std::optional<MessagePage> MessageStore::reasons(const MessagesRequest &request)
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.setForwardOnly(true);
    if (!query.prepare(reasonsSql(request.status, filtersOf(request)))) {
        m_lastError = QStringLiteral("preparing the reason counts failed: ") + query.lastError().text().trimmed();
        return std::nullopt;
    }
    query.bindValue(QStringLiteral(":stage"), request.stage);
    bindFilters(query, request);
    // One more than the cap tells that reasons were left off.
    query.bindValue(QStringLiteral(":limit"), protocol::MaxMessageReasons + 1);
    if (!query.exec()) {
        m_lastError = QStringLiteral("counting the reasons failed: ") + query.lastError().text().trimmed();
        return std::nullopt;
    }
    MessagePage page;
    page.byReason = true;
    while (query.next()) {
        page.reasonsTotal = query.value(4).toLongLong(); // before the LIMIT: every reason's rows
        if (page.reasons.size() == protocol::MaxMessageReasons) {
            page.moreReasons = true;
            break;
        }
        page.reasons.append(ReasonCount{query.value(0).toString(), query.value(1).toLongLong(),
                                        query.value(2).toDateTime().toUTC(), query.value(3).toDateTime().toUTC()});
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
