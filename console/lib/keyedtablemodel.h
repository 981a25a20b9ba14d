// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QAbstractTableModel>
#include <QHash>
#include <QJsonObject>
#include <QMap>
#include <QStringList>
#include <QTimer>

namespace pepsi::console {

// A table whose rows are JSON records keyed by a string (a stage name, a
// pid). Edits go to a pending copy; flush() publishes them with the fewest
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

    // --- pending edits, published by flush() ---
    // The whole set: keys not in it go.
    void replaceAll(const QMap<QString, QJsonObject> &records);
    // Merges fields into the record (creates it).
    void merge(const QString &key, const QJsonObject &fields);
    // Merges only into a record that exists.
    void mergeExisting(const QString &key, const QJsonObject &fields);
    void remove(const QString &key);
    void clear();

    // Publishes the pending edits now. Public for the tests.
    void flush();
    void setFlushInterval(int ms) { m_timer.setInterval(ms); }

    // --- the published rows ---
    QStringList keys() const { return m_order; }
    bool contains(const QString &key) const { return m_rows.contains(key); }
    QJsonObject record(const QString &key) const { return m_rows.value(key); }
    int rowOf(const QString &key) const { return int(m_order.indexOf(key)); }

Q_SIGNALS:
    // After every flush that changed something.
    void flushed();

protected:
    // Column titles (translated).
    virtual QStringList headers() const = 0;
    // One cell; role is DisplayRole, SortRole, ToolTipRole, TextAlignmentRole...
    virtual QVariant cell(const QString &key, const QJsonObject &record, int column, int role) const = 0;
    // Whether the row wants the operator's eye (HighlightRole, and a background).
    virtual bool highlighted(const QJsonObject &record) const;
    // Called with the pending record before it replaces `previous` (empty for
    // a new row); may add derived fields. The default returns `next`.
    virtual QJsonObject derive(const QJsonObject &previous, const QJsonObject &next) const;

    // The pending state (for subclasses that read before they edit).
    const QMap<QString, QJsonObject> &pending() const { return m_pending; }

private:
    void touch();

    QMap<QString, QJsonObject> m_pending;
    QStringList m_order;                // published row order
    QHash<QString, QJsonObject> m_rows; // published records
    QTimer m_timer;
    bool m_dirty = false;
};

// Formatting shared by the models.
QString formatDuration(qint64 ms);
QString formatRate(double perSecond);

} // namespace pepsi::console
