// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "control/snapshots.h"

#include <QAbstractTableModel>
#include <QList>
#include <QPointer>
#include <QString>

namespace pepsi::console {

class ControlClient;
class ControlReply;

// The reasons of one stage's messages in one status with their true counts
// over the whole status (`messages` with "reasons": true), the most frequent
// first. The first row is "All reasons" with the total.
class ReasonModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { Reason, Count, Oldest, Newest, ColumnCount };
    // The row's reason as the daemon's "reason" filter takes it ("" for none);
    // a null QVariant on the "All reasons" row.
    static constexpr int ReasonRole = Qt::UserRole + 1;

    explicit ReasonModel(ControlClient *client, QObject *parent = nullptr);

    // Counts the reasons of `stage` in `status` anew.
    void setQuery(const QString &stage, const QString &status);
    void refresh();
    QString stage() const { return m_stage; }
    QString status() const { return m_status; }

    // Messages in every reason, the ones the daemon left off the list too.
    qint64 total() const { return m_total; }
    // The count of `reason` ("" for the rows without one); -1 when not listed.
    qint64 count(const QString &reason) const;
    // The daemon left off rarer reasons (the total still counts their rows).
    bool hasMore() const { return m_more; }
    bool isLoaded() const { return m_loaded; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    void loaded();
    void failed(const QString &message);

private:
    void onCounts(const ControlReply &reply);

    ControlClient *m_client;
    QString m_stage;
    QString m_status;
    QList<ReasonCount> m_entries;
    qint64 m_total = 0;
    bool m_more = false;
    bool m_loaded = false;
    QPointer<ControlReply> m_waiting;
};

} // namespace pepsi::console
