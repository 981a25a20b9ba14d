// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QAbstractTableModel>
#include <QHash>
#include <QMap>
#include <QStringList>
#include <QTimer>
#include <QVariant>
#include <optional>

namespace pepsi::console {

// A table whose rows are records keyed by a string (a stage name, a pid),
// each a value of the protocol's snapshots (RecordTableModel gives them their
// type). Edits go to a pending copy; flush() publishes them with the fewest
// signals (rowsRemoved, one dataChanged over the changed rows, one
// rowsInserted), from a timer a little after the first edit, so a burst of
// events costs the views one repaint. Rows keep their arrival order; sorting
// is the proxy's job (SortRole gives the raw value).
class KeyedTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Role {
        SortRole = Qt::UserRole + 1, // the raw value (a number where there is one)
        KeyRole,                     // the row's key
        HighlightRole,               // true: the row needs the operator's eye
    };

    explicit KeyedTableModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void remove(const QString &key);
    void clear();

    // Publishes the pending edits now. Public for the tests.
    void flush();
    void setFlushInterval(int ms) { m_timer.setInterval(ms); }

    // --- the published rows ---
    QStringList keys() const { return m_order; }
    bool contains(const QString &key) const { return m_rows.contains(key); }
    int rowOf(const QString &key) const { return int(m_order.indexOf(key)); }

Q_SIGNALS:
    // After every flush that changed something.
    void flushed();

protected:
    // Column titles (translated).
    virtual QStringList headers() const = 0;
    // One cell of a record; role is DisplayRole, SortRole, ToolTipRole, TextAlignmentRole...
    virtual QVariant recordCell(const QString &key, const QVariant &record, int column, int role) const = 0;
    // Whether the row wants the operator's eye (HighlightRole, and a background).
    virtual bool isHighlighted(const QVariant &record) const = 0;

    // --- pending edits, published by flush() ---
    // The whole set: keys not in it go.
    void replaceRecords(const QMap<QString, QVariant> &records);
    // One record, new or replacing the pending one.
    void putRecord(const QString &key, const QVariant &record);
    const QMap<QString, QVariant> &pendingRecords() const { return m_pending; }
    QVariant publishedRecord(const QString &key) const { return m_rows.value(key); }

private:
    void touch();

    QMap<QString, QVariant> m_pending;
    QStringList m_order;             // published row order
    QHash<QString, QVariant> m_rows; // published records
    QTimer m_timer;
    bool m_dirty = false;
};

// A KeyedTableModel of one record type (PoolSnapshot, WorkerSnapshot...):
// the subclasses read and write their records as that type.
template<typename Record>
class RecordTableModel : public KeyedTableModel
{
public:
    using KeyedTableModel::KeyedTableModel;

    // The published record of `key`; a default one when there is no such row.
    Record record(const QString &key) const { return publishedRecord(key).template value<Record>(); }

protected:
    virtual QVariant cell(const QString &key, const Record &record, int column, int role) const = 0;
    virtual bool highlighted(const Record &) const { return false; }

    void replaceAll(const QMap<QString, Record> &records)
    {
        QMap<QString, QVariant> values;
        for (auto it = records.cbegin(); it != records.cend(); ++it)
            values.insert(it.key(), QVariant::fromValue(it.value()));
        replaceRecords(values);
    }
    void put(const QString &key, const Record &record) { putRecord(key, QVariant::fromValue(record)); }
    // The pending record of `key`, if there is one.
    std::optional<Record> pending(const QString &key) const
    {
        const auto it = pendingRecords().constFind(key);
        return it == pendingRecords().cend() ? std::nullopt : std::optional<Record>(it->template value<Record>());
    }
    QList<Record> pendingAll() const
    {
        QList<Record> all;
        for (const QVariant &record : pendingRecords())
            all.append(record.template value<Record>());
        return all;
    }

private:
    QVariant recordCell(const QString &key, const QVariant &record, int column, int role) const final
    {
        return cell(key, record.template value<Record>(), column, role);
    }
    bool isHighlighted(const QVariant &record) const final { return highlighted(record.template value<Record>()); }
};

// Formatting shared by the models.
QString formatDuration(qint64 ms);
// The title of column `section` for a horizontal header's display role; null otherwise.
QVariant columnTitle(const QStringList &titles, int section, Qt::Orientation orientation, int role);
QString formatRate(double perSecond);

} // namespace pepsi::console
