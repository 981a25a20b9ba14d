// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QHash>
#include <QString>
#include <QStringList>
#include <limits>
#include <optional>

namespace pepsi {

// Where each stage's claim starts its walk of workqueue_pending: the lowest id
// that may still be pending at the stage. Below it the index holds only rows
// that left the stage, and a snapshot held elsewhere keeps every one of them
// there; the walk would visit each.
//
// The floor only rises after a round saw the stage (advance), and whatever
// makes a row pending lowers it to that row's id before the next round:
// a stage's "0" (its NEXT stages), a requeue we wrote, a paused row the round
// resumed, an insert announced by the trigger. What nobody announces (an
// operator's own UPDATE, a notification lost with the connection) is found
// by reset(): the heartbeat and every reconnect start each stage from the
// lowest id there can be (Start), as does a stage it knows nothing of.
//
// A stage whose last walk found nothing left to claim is quiet: nothing is
// pending there from its floor up either, and the round leaves it out (its
// walk, its parameters, its row of the answer) until something lowers its
// floor, which wakes it. So a round costs what the stages with work cost,
// however many stages the graph has.
class ClaimFloors
{
public:
    // Below every id, whatever an operator inserted by hand.
    static constexpr qint64 Start = std::numeric_limits<qint64>::min();

    qint64 floor(const QString &stage) const { return m_floors.value(stage).floor; }
    // Nothing pending at the stage since its last walk: no round need look.
    bool isQuiet(const QString &stage) const { return m_floors.value(stage).quiet; }

    // A row at `id` may be pending at these stages now.
    void lower(const QString &stage, qint64 id);
    void lower(const QStringList &stages, qint64 id);
    // It may be pending at any stage (a requeue: a fused worker may hold the
    // row at another stage than its pool's).
    void lowerAll(qint64 id);
    // Every stage from the start: a full walk next round.
    void reset() { m_floors.clear(); }

    // A round walked `stage` from `from` (its floor, unchanged since) and
    // left `unclaimed` as the lowest pending id it did not claim, or none
    // (then the stage is quiet); `highestClaimed` is the highest id it
    // claimed there (Start: none). Rows that became pending after the
    // round's snapshot lower the floor later, and wake the stage.
    void advance(const QString &stage, qint64 from, std::optional<qint64> unclaimed, qint64 highestClaimed);

private:
    struct Walk
    {
        qint64 floor = Start;
        bool quiet = false;
    };
    QHash<QString, Walk> m_floors;
};

} // namespace pepsi
