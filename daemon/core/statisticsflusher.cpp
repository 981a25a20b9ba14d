// SPDX-License-Identifier: AGPL-3.0-or-later
#include "core/statisticsflusher.h"

#include "storage/databasesession.h"

namespace pepsi {

using namespace std::chrono;

StatisticsFlusher::StatisticsFlusher(QObject *parent, Clock clock)
    : QObject(parent)
    , m_clock(std::move(clock))
{
    m_since.start();
    m_lastFlushAt = now();
    m_idleFlush.setSingleShot(true);
    connect(&m_interval, &QTimer::timeout, this, &StatisticsFlusher::flush);
    connect(&m_idleFlush, &QTimer::timeout, this, &StatisticsFlusher::flushWhenIdle);
    // Nothing has run at start: the first rates are counted from here.
    m_rates.sample(now(), {});
    m_rateSampler.setInterval(1s);
    connect(&m_rateSampler, &QTimer::timeout, this, &StatisticsFlusher::sampleRates);
    m_rateSampler.start();
}

milliseconds StatisticsFlusher::idleFlushWait(milliseconds sinceLast)
{
    return sinceLast >= IdleFlushSpacing ? 0ms : IdleFlushSpacing - sinceLast;
}

void StatisticsFlusher::flush()
{
    if (!m_stats.hasDelta() || !m_mayWrite || !m_session || !m_session->isUp())
        return;
    const StatsDelta delta = m_stats.takeDelta();
    m_lastFlushAt = now();
    if (!m_session->stats().add(delta)) {
        m_stats.giveBack(delta);
        Q_EMIT writeFailed(m_session->stats().lastError());
    }
}

void StatisticsFlusher::flushWhenIdle()
{
    if ((m_inFlight && m_inFlight() > 0) || !m_stats.hasDelta())
        return;
    const milliseconds wait = idleFlushWait(milliseconds(now() - m_lastFlushAt));
    if (wait == 0ms)
        flush();
    else if (!m_idleFlush.isActive())
        m_idleFlush.start(wait);
}

void StatisticsFlusher::sampleRates()
{
    const StatsDelta &totals = m_stats.totals();
    RateMeter::Counts counts{totals.stageRuns, {}};
    for (auto it = totals.stages.cbegin(); it != totals.stages.cend(); ++it)
        counts.stageRuns.insert(it.key(), it.value().runs);
    m_rates.sample(now(), std::move(counts));
}

double StatisticsFlusher::runRate(milliseconds window) const
{
    return m_rates.rate(now(), window, m_stats.totals().stageRuns);
}

double StatisticsFlusher::stageRunRate(const QString &stage, milliseconds window) const
{
    return m_rates.stageRate(now(), window, stage, m_stats.totals().stages.value(stage).runs);
}

} // namespace pepsi
