// SPDX-License-Identifier: AGPL-3.0-or-later
#include "reasonmodel.h"

#include "control/protocol.h"
#include "control/snapshotcodec.h"

#include "controlclient.h"
#include "keyedtablemodel.h"

#include <QJsonObject>
#include <QLocale>

namespace pepsi::console {

using namespace Qt::StringLiterals;
namespace field = protocol::field;

namespace {

QString timeText(const QDateTime &time)
{
    return time.isValid() ? QLocale().toString(time.toLocalTime(), u"yyyy-MM-dd HH:mm:ss"_s) : QString();
}

} // namespace

ReasonModel::ReasonModel(ControlClient *client, QObject *parent)
    : QAbstractTableModel(parent)
    , m_client(client)
{ }

void ReasonModel::setQuery(const QString &stage, const QString &status)
{
    m_stage = stage;
    m_status = status;
    beginResetModel();
    m_entries.clear();
    m_total = 0;
    m_more = false;
    m_loaded = false;
    endResetModel();
    refresh();
}

void ReasonModel::refresh()
{
    if (m_stage.isEmpty() || m_status.isEmpty())
        return;
    if (m_waiting)
        m_waiting->abandon(); // the counts of a former query are not these
    m_waiting = m_client->send(protocol::cmd::Messages,
                               {{field::Stage, m_stage}, {field::Status, m_status}, {field::Reasons, true}});
    if (!m_waiting) {
        Q_EMIT failed(tr("Counting the reasons of %1: not connected to the daemon.").arg(m_stage));
        return;
    }
    m_waiting->then(this, [this](const ControlReply &reply) { onCounts(reply); });
}

void ReasonModel::onCounts(const ControlReply &reply)
{
    m_waiting = nullptr;
    if (!reply.isOk()) {
        Q_EMIT failed(tr("Counting the reasons of %1 failed: %2").arg(m_stage, reply.errorString()));
        return;
    }
    const MessagePage page = protocol::messagePageFromJson(reply.result().toObject());
    beginResetModel();
    m_entries = page.reasons;
    m_total = page.reasonsTotal;
    m_more = page.moreReasons;
    m_loaded = true;
    endResetModel();
    Q_EMIT loaded();
}

qint64 ReasonModel::count(const QString &reason) const
{
    for (const ReasonCount &entry : m_entries) {
        if (entry.reason == reason)
            return entry.count;
    }
    return -1;
}

int ReasonModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_loaded ? 0 : int(m_entries.size()) + 1;
}

int ReasonModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ReasonModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() > m_entries.size())
        return {};
    const bool all = index.row() == 0;
    const ReasonCount entry = all ? ReasonCount{{}, m_total, {}, {}} : m_entries.at(index.row() - 1);
    if (role == ReasonRole)
        return all ? QVariant() : QVariant(entry.reason);
    if (role == Qt::ToolTipRole && index.column() == Reason && !all)
        return entry.reason;
    if (role == Qt::TextAlignmentRole && index.column() == Count)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (Column(index.column())) {
    case Reason:
        if (all)
            return m_more ? tr("All reasons (the 100 most frequent listed)") : tr("All reasons");
        return entry.reason.isEmpty() ? tr("(no reason)") : entry.reason.section(u'\n', 0, 0);
    case Count:
        return QLocale().toString(entry.count);
    case Oldest:
        return timeText(entry.oldest);
    case Newest:
        return timeText(entry.newest);
    case ColumnCount:
        break;
    }
    return {};
}

QVariant ReasonModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    return columnTitle({tr("Reason"), tr("Messages"), tr("Oldest"), tr("Newest")}, section, orientation, role);
}

} // namespace pepsi::console
