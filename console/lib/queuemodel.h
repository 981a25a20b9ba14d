// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "control/snapshots.h"
#include "keyedtablemodel.h"

namespace pepsi::console {

// A stage's queue counts as the last snapshot brought them, and how its
// backlog moved over the snapshots before (ours, not the daemon's).
struct QueueRow
{
    StageQueue queue;
    int growth = 0;   // snapshots in a row with a larger backlog
    qint64 delta = 0; // pending now minus pending at the snapshot before

    bool operator==(const QueueRow &) const = default;
};

// Row counts per stage and status (status → stages.*.queue). A stage whose
// pending backlog grew in each of the last GrowthSnapshots snapshots is
// highlighted once it holds at least GrowthFloor messages: the stage does not keep up.
// PendingAges shows how long the pending rows have waited at their stage, in
// qshape's buckets (protocol::pendingAgeBuckets(): 1s 10s 1m 10m 1h older).
class QueueModel : public RecordTableModel<QueueRow>
{
    Q_OBJECT

public:
    enum Column { Stage, Pending, Running, Paused, Failed, Timeout, OldestPending, PendingAges, Trend, ColumnCount };
    static constexpr int GrowthSnapshots = 2;
    // A backlog smaller than this is noise (a stage's own batch), not a trend.
    static constexpr qint64 GrowthFloor = 1000;

    using RecordTableModel::RecordTableModel;

    void applyStatus(const StatusSnapshot &status);
    // Why the counts are missing (the database is down); empty when they are there.
    QString queuesError() const { return m_error; }

    // Rows of `stage` with `status` ("failed", "timeout"...) in the last snapshot.
    qint64 count(const QString &stage, const QString &status) const;
    bool isGrowing(const QString &stage) const;

protected:
    QStringList headers() const override;
    QVariant cell(const QString &key, const QueueRow &row, int column, int role) const override;
    bool highlighted(const QueueRow &row) const override;

private:
    QString m_error;
};

} // namespace pepsi::console
