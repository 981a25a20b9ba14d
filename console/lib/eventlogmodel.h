// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QAbstractTableModel>
#include <QJsonObject>
#include <QList>
#include <QTimer>

namespace pepsi::console {

// The event log: every subscribed event but `tick`, newest last, at most
// MaxRows, in words (EventText). Appends are buffered and inserted by flush()
// (a timer, or the tests) as one rowsInserted. SortRole is the arrival order
// in every column, so a sorting proxy keeps the log's order through filters.
class EventLogModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { Time, Event, Stage, Pid, Details, ColumnCount };
    enum Role {
        SortRole = Qt::UserRole + 1,     // as KeyedTableModel::SortRole: the arrival number
        ProblemRole = Qt::UserRole + 10, // true: something failed
        KindRole,                        // EventText::Kind, as an int
    };
    static constexpr int MaxRows = 5000;

    explicit EventLogModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void applyEvent(const QJsonObject &event);
    // A line of the console's own (connection lost, a command failed...).
    void addNote(const QString &text, bool problem);
    void flush();
    void setFlushInterval(int ms) { m_timer.setInterval(ms); }

    QJsonObject eventAt(int row) const { return m_rows.value(row); }
    static bool isProblem(const QString &eventName);

private:
    QList<QJsonObject> m_rows;
    QList<QJsonObject> m_buffer;
    QTimer m_timer;
    qint64 m_arrivals = 0;
};

} // namespace pepsi::console
