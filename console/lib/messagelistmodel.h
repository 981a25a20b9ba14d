// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "control/snapshots.h"

#include <QAbstractTableModel>
#include <QList>
#include <QPointer>
#include <QString>
#include <optional>

namespace pepsi::console {

class ControlClient;
class ControlReply;

// One stage's messages in one status (optionally of one reason), as
// `messages` pages them by id: the first page when the query is set, the next
// one on fetchMore() (a view asks when it scrolls to the end; "Load more"
// does too), until the daemon says it was the last.
class MessageListModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { Id, Stage, When, Claims, Reason, ColumnCount };
    // The row's message id (qint64), on every column.
    static constexpr int IdRole = Qt::UserRole + 1;
    // Rows asked for at a time (the daemon's maximum is protocol::MaxMessagesLimit).
    static constexpr int PageSize = 200;

    explicit MessageListModel(ControlClient *client, QObject *parent = nullptr);

    // Lists `stage`'s rows in `status` from the start; `reason` (when given)
    // keeps those of that reason only. Empty stage: lists nothing.
    void setQuery(const QString &stage, const QString &status, const std::optional<QString> &reason = {});
    QString stage() const { return m_stage; }
    QString status() const { return m_status; }
    std::optional<QString> reason() const { return m_reason; }
    // Lists the same again from the start (after a requeue, say).
    void reload();

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex &parent = {}) const override;
    void fetchMore(const QModelIndex &parent = {}) override;

    // A page is on its way.
    bool isLoading() const { return !m_waiting.isNull(); }
    // Further pages exist (the daemon's next_after_id).
    bool hasMore() const { return m_nextAfterId.has_value(); }
    // The row of message `id`, -1 when not loaded.
    int rowOf(qint64 id) const;
    qint64 idAt(int row) const;
    // A fresher copy of a loaded row (the detail pane's `message` reply):
    // the list and the detail show the same claims, time and reason.
    void updateRow(const MessageRow &row);

Q_SIGNALS:
    // A page came (rows were added, or none were left).
    void pageLoaded();
    void failed(const QString &message);

private:
    void ask(qint64 afterId);
    void onPage(const ControlReply &reply, qint64 afterId);

    ControlClient *m_client;
    QString m_stage;
    QString m_status;
    std::optional<QString> m_reason;
    QList<MessageRow> m_rows;
    std::optional<qint64> m_nextAfterId; // where the next page starts; none: no more
    QPointer<ControlReply> m_waiting;    // the page on its way
    int m_limit = PageSize;              // halved while pages of long reasons do not fit in a line
};

} // namespace pepsi::console
