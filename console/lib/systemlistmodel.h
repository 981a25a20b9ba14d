// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "control/snapshots.h"

#include <QAbstractTableModel>
#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <optional>

namespace pepsi::console {

class ControlClient;

// The overview of every system the console watches, a row each in the order
// they were added: its short name (SystemNames; the full target in the
// tooltip), whether it is connected (or since when not),
// and from its latest `status` snapshot the daemon's own figures: runs per
// second, the stages it calls failing, the oldest pending message, busy
// workers of all and messages in flight of the capacity. Nothing the daemon
// computes is computed again here; the clients are not owned.
class SystemListModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { SystemColumn, ConnectionColumn, RateColumn, FailingColumn, OldestColumn, BusyColumn, InFlightColumn };
    static constexpr int ColumnCount = InFlightColumn + 1;
    // A row's system is failing or away (a bool), for the view's colours and the tests.
    static constexpr int TroubleRole = Qt::UserRole + 1;

    explicit SystemListModel(QObject *parent = nullptr);

    void addSystem(ControlClient *client);
    // Its row goes; the client is no longer heard.
    void removeSystem(ControlClient *client);
    ControlClient *client(int row) const { return m_rows.value(row).client; }
    int rowOf(const ControlClient *client) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        ControlClient *client = nullptr;
        std::optional<StatusSnapshot> status;
        QDateTime lostAt; // invalid: connected, or never was
        QString database; // as its daemon's `version` names it
        QString name;
    };
    void onState(ControlClient *client);
    void onVersion(ControlClient *client, const QJsonObject &version);
    // Every row's name again: one row's may have made another's ambiguous.
    void updateNames();
    void onStatus(ControlClient *client, const StatusSnapshot &status);
    void changed(int row);
    QString connectionText(const Row &row) const;
    static QStringList failingStages(const StatusSnapshot &status);
    static std::optional<qint64> oldestPendingMs(const StatusSnapshot &status);

    QList<Row> m_rows;
};

} // namespace pepsi::console
