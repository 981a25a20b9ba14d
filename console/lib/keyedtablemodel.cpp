// SPDX-License-Identifier: AGPL-3.0-or-later
#include "keyedtablemodel.h"

#include <QBrush>
#include <QColor>
#include <QLocale>

namespace pepsi::console {

KeyedTableModel::KeyedTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{
    // 150 ms: quick enough to feel live, slow enough that a burst of events
    // (a reload retiring every worker) costs one repaint.
    m_timer.setSingleShot(true);
    m_timer.setInterval(150);
    connect(&m_timer, &QTimer::timeout, this, &KeyedTableModel::flush);
}

int KeyedTableModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : int(m_order.size()); }

int KeyedTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(headers().size());
}

QVariant KeyedTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const QString &key = m_order.at(index.row());
    const QVariant &record = m_rows[key];
    switch (role) {
    case KeyRole:
        return key;
    case HighlightRole:
        return isHighlighted(record);
    case Qt::BackgroundRole:
        if (isHighlighted(record))
            return QBrush(QColor(255, 214, 153));
        return recordCell(key, record, index.column(), role);
    case Qt::ForegroundRole:
        if (isHighlighted(record))
            return QBrush(QColor(Qt::black)); // readable on the highlight in dark themes too
        return recordCell(key, record, index.column(), role);
    case Qt::DisplayRole: {
        // Counts read better grouped ("12,345"); ids come as text and stay as they are.
        QVariant value = recordCell(key, record, index.column(), role);
        if (value.typeId() == QMetaType::LongLong || value.typeId() == QMetaType::Int)
            return QLocale().toString(value.toLongLong());
        return value;
    }
    default:
        return recordCell(key, record, index.column(), role);
    }
}

QVariant KeyedTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    return headers().value(section);
}

void KeyedTableModel::replaceRecords(const QMap<QString, QVariant> &records)
{
    m_pending = records;
    touch();
}

void KeyedTableModel::putRecord(const QString &key, const QVariant &record)
{
    m_pending.insert(key, record);
    touch();
}

void KeyedTableModel::remove(const QString &key)
{
    if (m_pending.remove(key))
        touch();
}

void KeyedTableModel::clear()
{
    m_pending.clear();
    touch();
}

void KeyedTableModel::touch()
{
    m_dirty = true;
    if (!m_timer.isActive())
        m_timer.start();
}

void KeyedTableModel::flush()
{
    m_timer.stop();
    if (!m_dirty)
        return;
    m_dirty = false;
    bool changed = false;

    // Removed rows, from the bottom so the rows above keep their numbers.
    for (int row = int(m_order.size()) - 1; row >= 0; --row) {
        if (m_pending.contains(m_order.at(row)))
            continue;
        beginRemoveRows({}, row, row);
        m_rows.remove(m_order.takeAt(row));
        endRemoveRows();
        changed = true;
    }

    // Changed rows: one dataChanged over the span that changed.
    int first = -1;
    int last = -1;
    for (int row = 0; row < m_order.size(); ++row) {
        const QString &key = m_order.at(row);
        const QVariant &next = m_pending[key];
        QVariant &current = m_rows[key];
        if (current == next)
            continue;
        current = next;
        if (first < 0)
            first = row;
        last = row;
    }
    if (first >= 0) {
        Q_EMIT dataChanged(index(first, 0), index(last, columnCount() - 1));
        changed = true;
    }

    // New rows, appended in key order.
    QStringList added;
    for (auto it = m_pending.cbegin(); it != m_pending.cend(); ++it) {
        if (!m_rows.contains(it.key()))
            added.append(it.key());
    }
    if (!added.isEmpty()) {
        const int row = int(m_order.size());
        beginInsertRows({}, row, row + int(added.size()) - 1);
        for (const QString &key : std::as_const(added)) {
            m_order.append(key);
            m_rows.insert(key, m_pending.value(key));
        }
        endInsertRows();
        changed = true;
    }
    if (changed)
        Q_EMIT flushed();
}

QVariant columnTitle(const QStringList &titles, int section, Qt::Orientation orientation, int role)
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= titles.size())
        return {};
    return titles.at(section);
}

QString formatDuration(qint64 ms)
{
    if (ms < 0)
        return {};
    if (ms < 1000)
        return KeyedTableModel::tr("%1 ms").arg(ms);
    const qint64 s = ms / 1000;
    if (s < 60)
        return KeyedTableModel::tr("%1 s").arg(QLocale().toString(double(ms) / 1000.0, 'f', 1));
    if (s < 3600)
        return KeyedTableModel::tr("%1 min %2 s").arg(s / 60).arg(s % 60);
    if (s < 86400)
        return KeyedTableModel::tr("%1 h %2 min").arg(s / 3600).arg((s % 3600) / 60);
    return KeyedTableModel::tr("%1 d %2 h").arg(s / 86400).arg((s % 86400) / 3600);
}

QString formatRate(double perSecond)
{
    return KeyedTableModel::tr("%1/s").arg(QLocale().toString(perSecond, 'f', perSecond < 10 ? 1 : 0));
}

} // namespace pepsi::console
