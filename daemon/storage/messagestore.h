// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "model/snapshots.h"
#include "result.h"

#include <QFlags>
#include <QString>
#include <optional>

class QSqlQuery;

namespace pepsi {

// The statements behind `messages` (one stage's rows in one status, paged by
// id) and `message` (one row), on the operator connection. Each reads an
// index made for its status, so that no page reads the history of done rows;
// tst_operatorqueries checks the plans of messagesSql().
class MessageStore
{
public:
    // A row's reason (state.dispatch_error) is cut to this many characters in
    // a list; `message` gives the whole state.
    static constexpr int MaxReasonChars = 1000;

    explicit MessageStore(QString connectionName);

    // The statuses `messages` lists (not done: it has no index of its own).
    static const QStringList &listableStatuses();
    // The optional filters of `messages` (MessagesRequest::reason, maxAgeMs).
    enum Filter { ByReason = 1, ByAge = 2 };
    Q_DECLARE_FLAGS(Filters, Filter)

    // The page query for one of listableStatuses() (:stage, :after, :limit,
    // and :reason, :maxage for the filters it has).
    static QString messagesSql(const QString &status, Filters filters = {});
    // The reasons by count (:stage, :limit, and the filters' parameters).
    static QString reasonsSql(const QString &status, Filters filters = {});

    // Up to request.limit rows of request.stage in request.status with an id
    // above request.afterId, in id order; an error for another status.
    std::optional<MessagePage> messages(const MessagesRequest &request);
    // The row, its state cut to MessageDetail::MaxStateBytes; nullopt inside: no such row.
    std::optional<std::optional<MessageDetail>> message(qint64 id);

    QString lastError() const { return m_lastError; }

private:
    std::optional<MessagePage> reasons(const MessagesRequest &request);
    static void bindFilters(QSqlQuery &query, const MessagesRequest &request);

    QString m_connectionName;
    QString m_lastError;
};

Q_DECLARE_OPERATORS_FOR_FLAGS(MessageStore::Filters)

} // namespace pepsi
