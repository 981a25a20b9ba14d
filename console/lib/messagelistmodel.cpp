// SPDX-License-Identifier: AGPL-3.0-or-later
#include "messagelistmodel.h"

#include "control/protocol.h"
#include "control/snapshotcodec.h"

#include "controlclient.h"
#include "keyedtablemodel.h"

#include <QJsonObject>
#include <QLocale>
#include <algorithm>

namespace pepsi::console {

using namespace Qt::StringLiterals;
namespace field = protocol::field;

MessageListModel::MessageListModel(ControlClient *client, QObject *parent)
    : QAbstractTableModel(parent)
    , m_client(client)
{ }

void MessageListModel::setQuery(const QString &stage, const QString &status, const std::optional<QString> &reason)
{
    m_stage = stage;
    m_status = status;
    m_reason = reason;
    reload();
}

void MessageListModel::reload()
{
    beginResetModel();
    m_rows.clear();
    m_nextAfterId.reset();
    if (m_waiting)
        m_waiting->abandon(); // a page of the former query that still comes is not ours
    m_limit = PageSize;
    endResetModel();
    if (!m_stage.isEmpty() && !m_status.isEmpty())
        ask(0);
}

void MessageListModel::ask(qint64 afterId)
{
    QJsonObject arguments{
        {field::Stage, m_stage}, {field::Status, m_status}, {field::AfterId, double(afterId)}, {field::Limit, m_limit}};
    if (m_reason)
        arguments.insert(field::Reason, *m_reason);
    m_waiting = m_client->send(protocol::cmd::Messages, arguments);
    if (!m_waiting) {
        Q_EMIT failed(tr("Listing the messages of %1: not connected to the daemon.").arg(m_stage));
        return;
    }
    m_waiting->then(this, [this, afterId](const ControlReply &reply) { onPage(reply, afterId); });
}

void MessageListModel::onPage(const ControlReply &reply, qint64 afterId)
{
    m_waiting = nullptr;
    if (!reply.isOk() && m_limit > 1) {
        // A page whose reasons are long may not fit in a protocol line (the
        // daemon refuses it): the same page, smaller.
        m_limit = std::max(1, m_limit / 4);
        return ask(afterId);
    }
    if (!reply.isOk()) {
        Q_EMIT failed(tr("Listing the messages of %1 failed: %2").arg(m_stage, reply.errorString()));
        Q_EMIT pageLoaded();
        return;
    }
    const MessagePage page = protocol::messagePageFromJson(reply.result().toObject());
    m_nextAfterId = page.nextAfterId;
    if (!page.rows.isEmpty()) {
        beginInsertRows({}, int(m_rows.size()), int(m_rows.size() + page.rows.size() - 1));
        m_rows.append(page.rows);
        endInsertRows();
    }
    Q_EMIT pageLoaded();
}

int MessageListModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : int(m_rows.size()); }

int MessageListModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant MessageListModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const MessageRow &row = m_rows.at(index.row());
    if (role == IdRole)
        return row.id;
    if (role == Qt::ToolTipRole && index.column() == Reason)
        return row.reason;
    if (role == Qt::TextAlignmentRole && (index.column() == Id || index.column() == Claims))
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (Column(index.column())) {
    case Id:
        return row.id;
    case Stage:
        return row.stage;
    case When:
        return QLocale().toString(row.updated.toLocalTime(), u"yyyy-MM-dd HH:mm:ss"_s);
    case Claims:
        return row.claims;
    case Reason:
        // One line in the list; the detail pane has it whole.
        return row.reason.isEmpty() ? tr("(none)") : row.reason.section(u'\n', 0, 0);
    case ColumnCount:
        break;
    }
    return {};
}

QVariant MessageListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    return columnTitle({tr("Id"), tr("Stage"), tr("When"), tr("Claims"), tr("Reason")}, section, orientation, role);
}

bool MessageListModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && m_nextAfterId.has_value() && !m_waiting;
}

void MessageListModel::fetchMore(const QModelIndex &parent)
{
    if (canFetchMore(parent))
        ask(*m_nextAfterId);
}

int MessageListModel::rowOf(qint64 id) const
{
    for (int row = 0; row < m_rows.size(); ++row) {
        if (m_rows.at(row).id == id)
            return row;
    }
    return -1;
}

void MessageListModel::updateRow(const MessageRow &fresh)
{
    const int row = rowOf(fresh.id);
    if (row < 0)
        return;
    m_rows[row] = fresh;
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

qint64 MessageListModel::idAt(int row) const { return row >= 0 && row < m_rows.size() ? m_rows.at(row).id : 0; }

} // namespace pepsi::console
