// SPDX-License-Identifier: AGPL-3.0-or-later
#include "model/dispatchboard.h"

namespace pepsi {

void DispatchBoard::setPublishRequest(std::function<void()> request)
{
    const QMutexLocker lock(&m_mutex);
    m_requestPublish = std::move(request);
}

void DispatchBoard::publish(DispatchPicture picture)
{
    const QMutexLocker lock(&m_mutex);
    m_picture = std::move(picture);
    m_pictureAge.start();
    m_stale = false;
    ++m_generation;
    m_published.wakeAll();
}

void DispatchBoard::invalidate()
{
    const QMutexLocker lock(&m_mutex);
    m_stale = true;
}

bool DispatchBoard::isWatched() const
{
    const QMutexLocker lock(&m_mutex);
    return m_lastAsked.isValid() && m_lastAsked.elapsed() < WatchedForMs;
}

DispatchPicture DispatchBoard::picture() const
{
    QMutexLocker lock(&m_mutex);
    m_lastAsked.start();
    if (m_requestPublish && (m_stale || !m_pictureAge.isValid() || m_pictureAge.elapsed() > m_maxAgeMs)) {
        const quint64 seen = m_generation;
        const std::function<void()> request = m_requestPublish;
        QDeadlineTimer deadline(MaxWaitMs);
        lock.unlock();
        request();
        lock.relock();
        while (m_generation == seen && m_published.wait(&m_mutex, deadline)) { }
    }
    return m_picture;
}

DispatchPicture DispatchBoard::published() const
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
