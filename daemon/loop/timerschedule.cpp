// SPDX-License-Identifier: AGPL-3.0-or-later
#include "loop/timerschedule.h"

#include <QCoreApplication>
#include <QTimerEvent>

#include <algorithm>
#include <array>
#include <climits>
#include <vector>

namespace pepsi {

namespace {

using std::chrono::milliseconds;
using namespace std::chrono_literals;

// Below this a coarse timer is a precise one, as in Qt.
constexpr milliseconds ShortestCoarse{20};
// The boundaries a coarse deadline may move to, the roundest first.
constexpr std::array<milliseconds, 7> Boundaries{1000ms, 500ms, 250ms, 200ms, 100ms, 50ms, 25ms};

// Whole milliseconds until `deadline`, rounded up as waitMs() promises; 0
// once it is past.
int msUntil(TimerSchedule::Clock::time_point deadline, TimerSchedule::Clock::time_point now)
{
    const auto left = std::chrono::ceil<milliseconds>(deadline - now);
    return int(std::clamp<qint64>(left.count(), 0, INT_MAX));
}

} // namespace

TimerSchedule::Clock::time_point TimerSchedule::aligned(Clock::time_point deadline, const Timer &timer)
{
    if (timer.type == Qt::PreciseTimer || timer.interval < ShortestCoarse)
        return deadline;
    const Clock::duration at = deadline.time_since_epoch();
    const Clock::duration slack = timer.type == Qt::VeryCoarseTimer ? Clock::duration(500ms) : timer.interval / 20;
    for (const milliseconds boundary : Boundaries) {
        const Clock::duration nearest = (at + boundary / 2) / boundary * boundary;
        if (nearest - at <= slack && at - nearest <= slack)
            return Clock::time_point(nearest);
    }
    return deadline;
}

void TimerSchedule::add(int id, std::chrono::milliseconds interval, Qt::TimerType type, QObject *object,
                        Clock::time_point now)
{
    remove(id); // an id Qt reuses must not leave its old deadline behind
    Timer timer{interval, type, object, {}};
    Clock::time_point at = aligned(now + interval, timer);
    if (at <= now) // a very coarse timer of less than half a second
        at = now + interval;
    timer.deadline = m_deadlines.emplace(at, id);
    m_timers.emplace(id, timer);
}

bool TimerSchedule::remove(int id)
{
    const auto found = m_timers.find(id);
    if (found == m_timers.end())
        return false;
    m_deadlines.erase(found->second.deadline);
    m_timers.erase(found);
    return true;
}

bool TimerSchedule::removeAllOf(const QObject *object)
{
    bool removed = false;
    for (auto it = m_timers.begin(); it != m_timers.end();) {
        if (it->second.object != object) {
            ++it;
            continue;
        }
        m_deadlines.erase(it->second.deadline);
        it = m_timers.erase(it);
        removed = true;
    }
    return removed;
}

QList<QAbstractEventDispatcher::TimerInfo> TimerSchedule::timersOf(const QObject *object) const
{
    QList<QAbstractEventDispatcher::TimerInfo> found;
    for (const auto &[id, timer] : m_timers) {
        if (timer.object == object)
            found.append({id, int(std::min<qint64>(timer.interval.count(), INT_MAX)), timer.type});
    }
    return found;
}

int TimerSchedule::remainingMs(int id, Clock::time_point now) const
{
    const auto found = m_timers.find(id);
    if (found == m_timers.end())
        return -1;
    return msUntil(found->second.deadline->first, now);
}

std::optional<int> TimerSchedule::waitMs(Clock::time_point now) const
{
    // Not for a timer whose handler runs a loop of its own: that loop would
    // wake for it (at once, for a zero timer) and never send it.
    for (const auto &[deadline, id] : m_deadlines) {
        if (m_timers.at(id).inHandler)
            continue;
        return msUntil(deadline, now);
    }
    return std::nullopt;
}

void TimerSchedule::reschedule(Timer &timer, int id, Clock::time_point now)
{
    // As Qt does: the next period follows the last deadline, so a repeating
    // timer keeps its rhythm; one that fell a period behind restarts from now.
    Clock::time_point next = timer.deadline->first + timer.interval;
    if (next < now)
        next = now + timer.interval;
    // Moved onto a boundary that is already past, it would fire again at once.
    Clock::time_point at = aligned(next, timer);
    if (at <= now)
        at = aligned(next + timer.interval, timer);
    if (at <= now)
        at = next;
    m_deadlines.erase(timer.deadline);
    timer.deadline = m_deadlines.emplace(at, id);
}

int TimerSchedule::fireDue(Clock::time_point now)
{
    // The handlers may start, stop and delete timers, this one's included,
    // and Qt hands a stopped timer's id to the next one started: the due ids
    // are taken first and each is looked up again before it is sent.
    std::vector<int> due;
    for (auto it = m_deadlines.begin(); it != m_deadlines.end() && it->first <= now; ++it)
        due.push_back(it->second);
    int sent = 0;
    for (const int id : due) {
        auto found = m_timers.find(id);
        if (found == m_timers.end() || found->second.deadline->first > now)
            continue;
        Timer &timer = found->second;
        reschedule(timer, id, now);
        if (timer.inHandler)
            continue;
        timer.inHandler = true;
        QTimerEvent event(id);
        QCoreApplication::sendEvent(timer.object, &event);
        ++sent;
        if (found = m_timers.find(id); found != m_timers.end())
            found->second.inHandler = false;
    }
    return sent;
}

} // namespace pepsi
