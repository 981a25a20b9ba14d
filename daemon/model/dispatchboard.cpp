// SPDX-License-Identifier: AGPL-3.0-or-later
#include "model/dispatchboard.h"

namespace pepsi {

void DispatchBoard::publish(DispatchPicture picture)
{
    const QMutexLocker lock(&m_mutex);
    m_picture = std::move(picture);
}

DispatchPicture DispatchBoard::picture() const
{
    const QMutexLocker lock(&m_mutex);
    return m_picture;
}

void DispatchBoard::setCounts(std::optional<QueueCounts> counts)
{
    const QMutexLocker lock(&m_mutex);
    m_counts = std::move(counts);
    m_countsAge.start();
}

std::optional<DispatchBoard::AgedCounts> DispatchBoard::counts() const
{
    const QMutexLocker lock(&m_mutex);
    if (!m_counts)
        return std::nullopt;
    return AgedCounts{*m_counts, m_countsAge.elapsed()};
}

} // namespace pepsi
