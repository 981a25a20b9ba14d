// SPDX-License-Identifier: AGPL-3.0-or-later
#include "loop/timerschedule.h"

#include <QCoreApplication>
#include <QTimerEvent>

#include <algorithm>
#include <climits>
#include <vector>

namespace pepsi {

void TimerSchedule::add(int id, std::chrono::milliseconds interval, Qt::TimerType type, QObject *object,
                        Clock::time_point now)
{
    remove(id); // an id Qt reuses must not leave its old deadline behind
    Timer timer{interval, type, object, m_deadlines.emplace(now + interval, id)};
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
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(found->second.deadline->first - now);
    return int(std::clamp<qint64>(left.count(), 0, INT_MAX));
}

std::optional<int> TimerSchedule::waitMs(Clock::time_point now) const
{
    if (m_deadlines.empty())
        return std::nullopt;
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(m_deadlines.begin()->first - now);
    return int(std::clamp<qint64>(left.count(), 0, INT_MAX));
}

void TimerSchedule::reschedule(Timer &timer, int id, Clock::time_point now)
{
    // As Qt does: the next period follows the last deadline, so a repeating
    // timer keeps its rhythm; one that fell a period behind restarts from now.
    Clock::time_point next = timer.deadline->first + timer.interval;
    if (next < now)
        next = now + timer.interval;
    m_deadlines.erase(timer.deadline);
    timer.deadline = m_deadlines.emplace(next, id);
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
