// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "keyedtablemodel.h"

namespace pepsi::console {

// The worker pool of every stage (status → stages), kept current by `tick`,
// cooldown and drain events between snapshots. Highlighted: in cooldown.
class PoolModel : public KeyedTableModel
{
    Q_OBJECT

public:
    enum Column {
        Stage,
        Busy,
        Idle,
        Starting,
        Retiring,
        Workers,
        Parallelism,
        QueueLimit,
        InFlight,
        Capacity,
        State,
        ColumnCount
    };

    using KeyedTableModel::KeyedTableModel;

    void applyStatus(const QJsonObject &status);
    void applyEvent(const QJsonObject &event);

    // "drained", "cooldown", "retired" or "" (the State column's words, untranslated).
    static QString stateOf(const QJsonObject &record);

protected:
    QStringList headers() const override;
    QVariant cell(const QString &key, const QJsonObject &record, int column, int role) const override;
    bool highlighted(const QJsonObject &record) const override;
};

} // namespace pepsi::console
