// SPDX-License-Identifier: AGPL-3.0-or-later
#include "systemlistmodel.h"

#include "controlclient.h"
#include "keyedtablemodel.h"
#include "systemnames.h"

#include "control/protocol.h"

#include <QBrush>
#include <QColor>

namespace pepsi::console {

using namespace Qt::StringLiterals;
using State = ControlClient::State;

SystemListModel::SystemListModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void SystemListModel::addSystem(ControlClient *client)
{
    const int row = int(m_rows.size());
    beginInsertRows({}, row, row);
    m_rows.append(Row{client, {}, {}, {}, {}});
    endInsertRows();
    connect(client, &ControlClient::stateChanged, this, [this, client] { onState(client); });
    connect(client, &ControlClient::statusReceived, this,
            [this, client](const StatusSnapshot &status) { onStatus(client, status); });
    connect(client, &ControlClient::versionReceived, this,
            [this, client](const QJsonObject &version) { onVersion(client, version); });
    updateNames();
}

void SystemListModel::removeSystem(ControlClient *client)
{
    const int row = rowOf(client);
    if (row < 0)
        return;
    client->disconnect(this);
    beginRemoveRows({}, row, row);
    m_rows.removeAt(row);
    endRemoveRows();
    updateNames();
}

void SystemListModel::onVersion(ControlClient *client, const QJsonObject &version)
{
    Row &row = m_rows[rowOf(client)];
    const QString database = version.value(protocol::field::Database).toString();
    if (database == row.database)
        return;
    row.database = database;
    updateNames();
}

void SystemListModel::updateNames()
{
    QList<SystemNames::System> systems;
    for (const Row &row : std::as_const(m_rows))
        systems.append({row.client->target(), row.database});
    const QStringList names = SystemNames::unique(systems);
    for (int row = 0; row < m_rows.size(); ++row) {
        if (m_rows[row].name == names[row])
            continue;
        m_rows[row].name = names[row];
        Q_EMIT dataChanged(index(row, SystemColumn), index(row, SystemColumn));
    }
}

int SystemListModel::rowOf(const ControlClient *client) const
{
    for (int row = 0; row < m_rows.size(); ++row) {
        if (m_rows[row].client == client)
            return row;
    }
    return -1;
}

void SystemListModel::onState(ControlClient *client)
{
    const int row = rowOf(client);
    Row &each = m_rows[row];
    if (client->state() == State::Connected)
        each.lostAt = {};
    else if (each.status && !each.lostAt.isValid())
        each.lostAt = QDateTime::currentDateTime();
    changed(row);
}

void SystemListModel::onStatus(ControlClient *client, const StatusSnapshot &status)
{
    const int row = rowOf(client);
    m_rows[row].status = status;
    changed(row);
}

void SystemListModel::changed(int row) { Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1)); }

int SystemListModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : int(m_rows.size()); }

int SystemListModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant SystemListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SystemColumn:
        return tr("System");
    case ConnectionColumn:
        return tr("Connection");
    case RateColumn:
        return tr("Runs/s");
    case FailingColumn:
        return tr("Failing stages");
    case OldestColumn:
        return tr("Oldest pending");
    case BusyColumn:
        return tr("Busy workers");
    case InFlightColumn:
        return tr("In flight");
    default:
        return {};
    }
}

QString SystemListModel::connectionText(const Row &row) const
{
    const State state = row.client->state();
    if (state == State::Connected)
        return tr("connected");
    if (state == State::Incompatible)
        return tr("incompatible daemon");
    if (row.lostAt.isValid())
        return tr("not connected since %1").arg(row.lostAt.toString(u"HH:mm:ss"_s));
    return row.client->lastError().isEmpty() ? tr("connecting") : tr("not connected");
}

QStringList SystemListModel::failingStages(const StatusSnapshot &status)
{
    QStringList names;
    for (auto it = status.stats.stages.cbegin(); it != status.stats.stages.cend(); ++it) {
        if (it->failing)
            names.append(it.key());
    }
    return names;
}

std::optional<qint64> SystemListModel::oldestPendingMs(const StatusSnapshot &status)
{
    // The daemon gives each stage's oldest; the system's is the oldest of those.
    std::optional<qint64> oldest;
    if (!status.queues)
        return oldest;
    for (const StageQueue &queue : status.queues->stages) {
        if (queue.oldestPendingAgeMs && (!oldest || *queue.oldestPendingAgeMs > *oldest))
            oldest = queue.oldestPendingAgeMs;
    }
    return oldest;
}

QVariant SystemListModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const Row &row = m_rows[index.row()];
    const bool live = row.client->state() == State::Connected;
    const QStringList failing = row.status ? failingStages(*row.status) : QStringList();
    if (role == TroubleRole)
        return !live || !failing.isEmpty();
    if (role == Qt::ForegroundRole && index.column() == ConnectionColumn)
        return QBrush(QColor(live ? u"#2e7d32"_s : u"#b26a00"_s));
    if (role == Qt::ForegroundRole && !live && index.column() != SystemColumn)
        return QBrush(Qt::gray); // figures from before the loss
    if (role == Qt::BackgroundRole && index.column() == FailingColumn && !failing.isEmpty())
        return QBrush(QColor(u"#f8d7da"_s));
    if (role == Qt::ToolTipRole && index.column() <= ConnectionColumn)
        return row.client->lastError().isEmpty() ? row.client->socketPath()
                                                 : row.client->socketPath() + u'\n' + row.client->lastError();
    if (role != Qt::DisplayRole)
        return {};
    if (index.column() == SystemColumn)
        return row.name;
    if (index.column() == ConnectionColumn)
        return connectionText(row);
    if (!row.status)
        return {};
    const StatusSnapshot &status = *row.status;
    switch (index.column()) {
    case RateColumn:
        return formatRate(status.stats.rate10s);
    case FailingColumn:
        return failing.isEmpty() ? tr("none") : failing.join(u", "_s);
    case OldestColumn: {
        const auto oldest = oldestPendingMs(status);
        return oldest ? formatDuration(*oldest) : tr("none");
    }
    case BusyColumn:
        return tr("%1 of %2").arg(status.poolTotals.busy).arg(status.poolTotals.workers);
    case InFlightColumn:
        return tr("%1 of %2").arg(status.poolTotals.inFlight).arg(status.poolTotals.capacity);
    default:
        return {};
    }
}

} // namespace pepsi::console
