// SPDX-License-Identifier: AGPL-3.0-or-later
#include "core/roundscheduler.h"

#include <algorithm>

namespace pepsi {

using namespace std::chrono;

RoundScheduler::RoundScheduler(QObject *parent)
    : QObject(parent)
{
    m_round.setSingleShot(true);
    m_round.setInterval(0);
    m_retry.setSingleShot(true);
    m_errorRetry.setSingleShot(true);
    m_errorRetry.setInterval(StatementRetry);
    m_skippedLook.setSingleShot(true);
    m_skippedLook.setInterval(SkippedLook);
    connect(&m_round, &QTimer::timeout, this, &RoundScheduler::roundDue);
    connect(&m_retry, &QTimer::timeout, this, &RoundScheduler::request);
    connect(&m_errorRetry, &QTimer::timeout, this, &RoundScheduler::errorRetryDue);
    connect(&m_heartbeat, &QTimer::timeout, this, &RoundScheduler::heartbeat);
    connect(&m_skippedLook, &QTimer::timeout, this, &RoundScheduler::request);
}

void RoundScheduler::setPollInterval(milliseconds interval)
{
    m_pollInterval = interval;
    m_heartbeat.setInterval(interval);
}

void RoundScheduler::stop()
{
    m_heartbeat.stop();
    m_retry.stop();
    m_errorRetry.stop();
    m_skippedLook.stop();
}

void RoundScheduler::request()
{
    m_statementDue = true;
    requestForRoom();
}

void RoundScheduler::requestForRoom()
{
    if (!m_round.isActive())
        m_round.start();
}

void RoundScheduler::statementSkipped()
{
    // Not restarted: rooms freed every few ms must not put the look off for ever.
    if (!m_skippedLook.isActive())
        m_skippedLook.start();
}

void RoundScheduler::retryAfterError()
{
    if (!m_errorRetry.isActive())
        m_errorRetry.start();
}

std::optional<milliseconds> RoundScheduler::retryDelay(std::optional<qint64> nextPausedInMs, bool skippedLocked,
                                                       milliseconds pollInterval)
{
    // A locked row is looked at again soon rather than at the heartbeat, so
    // it is taken once the lock goes.
    if (skippedLocked)
        nextPausedInMs = std::min<qint64>(nextPausedInMs.value_or(LockedRowRetry.count()), LockedRowRetry.count());
    if (!nextPausedInMs)
        return std::nullopt;
    // The heartbeat covers anything further away than the poll interval.
    return milliseconds(std::clamp<qint64>(*nextPausedInMs, 0, pollInterval.count()));
}

void RoundScheduler::roundRan(std::optional<qint64> nextPausedInMs, bool skippedLocked)
{
    m_skippedLook.stop(); // this statement looked
    const auto delay = retryDelay(nextPausedInMs, skippedLocked, m_pollInterval);
    if (!delay)
        m_retry.stop();
    else
        m_retry.start(int(delay->count()));
}

} // namespace pepsi
