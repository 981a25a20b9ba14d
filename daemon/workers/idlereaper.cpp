// SPDX-License-Identifier: AGPL-3.0-or-later
#include "workers/idlereaper.h"

#include <algorithm>

namespace pepsi {

IdleReaper::IdleReaper(std::chrono::milliseconds timeout, QObject *parent)
    : QObject(parent)
    , m_timeout(timeout)
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &IdleReaper::reap);
}

void IdleReaper::markIdle(QObject *worker)
{
    if (m_since.contains(worker))
        return;
    m_since[worker].start();
    arm();
}

void IdleReaper::forget(QObject *worker)
{
    if (m_since.remove(worker))
        arm();
}

void IdleReaper::clear()
{
    m_timer.stop();
    m_since.clear();
}

void IdleReaper::arm()
{
    qint64 soonest = -1;
    for (auto it = m_since.cbegin(); it != m_since.cend(); ++it) {
        const qint64 left = std::max<qint64>(0, m_timeout.count() - it.value().elapsed());
        soonest = soonest < 0 ? left : std::min(soonest, left);
    }
    if (soonest < 0)
        m_timer.stop();
    else if (!m_timer.isActive() || m_timer.remainingTime() > soonest)
        m_timer.start(int(soonest));
}

void IdleReaper::reap()
{
    QList<QObject *> expiredWorkers;
    for (auto it = m_since.begin(); it != m_since.end();) {
        if (it.value().elapsed() >= m_timeout.count()) {
            expiredWorkers.append(it.key());
            it = m_since.erase(it);
        } else {
            ++it;
        }
    }
    arm();
    // Last: a receiver may mark or forget workers in turn.
    for (QObject *worker : std::as_const(expiredWorkers))
        Q_EMIT expired(worker);
}

} // namespace pepsi
