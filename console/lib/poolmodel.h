// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "control/snapshots.h"
#include "keyedtablemodel.h"

#include <QJsonObject>

namespace pepsi::console {

// The worker pool of every stage (status → stages), kept current by `tick`,
// cooldown and drain events between snapshots. Highlighted: in cooldown.
// Every figure is the daemon's, as the snapshot or the last tick brought it.
// PARALLELISM and QUEUE_LIMIT say where they come from (`stages` → sources):
// a value set live in config_overlay is marked, and its tooltip says what
// the file has under it.
class PoolModel : public RecordTableModel<PoolSnapshot>
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

    using RecordTableModel::RecordTableModel;

    void applyStatus(const StatusSnapshot &status);
    void applyTick(const TickSnapshot &tick);
    // Where each stage's options come from (the `stages` reply).
    void applyStages(const StagesSnapshot &stages);
    // Drains and cooldowns; other events change nothing here.
    void applyEvent(const QJsonObject &event);

    // "drained", "cooldown", "retired" or "" (the State column's words, untranslated).
    static QString stateOf(const PoolSnapshot &pool);

protected:
    QStringList headers() const override;
    QVariant cell(const QString &key, const PoolSnapshot &pool, int column, int role) const override;
    bool highlighted(const PoolSnapshot &pool) const override;

private:
    // The source of a Parallelism or QueueLimit cell, for its tooltip.
    QString sourceText(const OptionProvenance &provenance) const;

    QHash<QString, OptionSources> m_sources; // by stage
};

} // namespace pepsi::console
