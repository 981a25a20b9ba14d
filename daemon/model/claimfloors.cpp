// SPDX-License-Identifier: AGPL-3.0-or-later
#include "model/claimfloors.h"

#include <algorithm>

namespace pepsi {

void ClaimFloors::lower(const QString &stage, qint64 id)
{
    // Absent means Start already, and awake: nothing to record.
    if (const auto it = m_floors.find(stage); it != m_floors.end())
        *it = Walk{std::min(it->floor, id), false};
}

void ClaimFloors::lower(const QStringList &stages, qint64 id)
{
    for (const QString &stage : stages)
        lower(stage, id);
}

void ClaimFloors::lowerAll(qint64 id)
{
    for (Walk &walk : m_floors)
        walk = Walk{std::min(walk.floor, id), false};
}

void ClaimFloors::advance(const QString &stage, qint64 from, std::optional<qint64> unclaimed, qint64 highestClaimed)
{
    // Lowered since the round began: a row below may be pending, keep it.
    if (floor(stage) < from)
        return;
    // Every pending row from `from` up to the first one left was claimed; with
    // none left, every one the round could see was.
    const qint64 next = unclaimed ? *unclaimed : highestClaimed == Start ? from : std::max(from, highestClaimed + 1);
    m_floors.insert(stage, Walk{std::max(from, next), !unclaimed});
}

} // namespace pepsi
