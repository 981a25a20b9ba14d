// SPDX-License-Identifier: AGPL-3.0-or-later
#include "model/ratemeter.h"

namespace pepsi {

namespace {
constexpr qint64 ShortestSpanMs = 500;
} // namespace

RateMeter::RateMeter(std::size_t kept)
    : m_kept(kept > 0 ? kept : 1)
{ }

void RateMeter::sample(qint64 atMs, Counts counts)
{
    m_samples.push_back(Sample{atMs, std::move(counts)});
    while (m_samples.size() > m_kept)
        m_samples.pop_front();
}

const RateMeter::Sample *RateMeter::baseFor(qint64 nowMs, std::chrono::milliseconds window) const
{
    const Sample *base = nullptr;
    for (auto it = m_samples.crbegin(); it != m_samples.crend(); ++it) {
        base = &*it;
        if (nowMs - it->atMs >= window.count())
            break;
    }
    return base;
}

double RateMeter::perSecond(qint64 runs, qint64 spanMs)
{
    return spanMs < ShortestSpanMs ? 0.0 : double(runs) * 1000.0 / double(spanMs);
}

double RateMeter::rate(qint64 nowMs, std::chrono::milliseconds window, qint64 current) const
{
    const Sample *base = baseFor(nowMs, window);
    return base ? perSecond(current - base->counts.runs, nowMs - base->atMs) : 0.0;
}

double RateMeter::stageRate(qint64 nowMs, std::chrono::milliseconds window, const QString &stage, qint64 current) const
{
    const Sample *base = baseFor(nowMs, window);
    return base ? perSecond(current - base->counts.stageRuns.value(stage), nowMs - base->atMs) : 0.0;
}

} // namespace pepsi
