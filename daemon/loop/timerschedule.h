// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QAbstractEventDispatcher>
#include <QList>

#include <chrono>
#include <map>
#include <optional>
#include <unordered_map>

class QObject;

namespace pepsi {

// The Qt timers of one thread, ordered by when they are due: what
// EpollDispatcher needs to know how long it may sleep and which QTimerEvents
// to send. Qt's own list is a sorted array searched from the front, so each
// start, stop and remainingTime() costs a walk over every timer, and a pool
// of 500 workers has over a thousand; here each costs a logarithm.
//
// A precise timer fires when it is due, never before. A coarse one (Qt's
// default) moves its deadline onto the roundest boundary of the clock within
// 5 % of its interval (a very coarse one onto the nearest whole second), as
// Qt's own loop does: timers of one period wake the loop together, not each
// on its own (an idle daemon's rate sampler and heartbeat, say).
class TimerSchedule
{
public:
    using Clock = std::chrono::steady_clock;

    void add(int id, std::chrono::milliseconds interval, Qt::TimerType type, QObject *object, Clock::time_point now);
    bool remove(int id);
    bool removeAllOf(const QObject *object);
    QList<QAbstractEventDispatcher::TimerInfo> timersOf(const QObject *object) const;
    // -1 for an id that is not registered; 0 for one overdue.
    int remainingMs(int id, Clock::time_point now) const;
    // How long until the next timer is due, rounded up to whole milliseconds
    // (rounded down, a wait would end just before it and the loop would spin);
    // nothing when no timer is registered.
    std::optional<int> waitMs(Clock::time_point now) const;
    bool isEmpty() const { return m_timers.empty(); }

    // Sends a QTimerEvent for every timer due at now, each at most once per
    // call (one its handler restarts waits for the next pass), and returns
    // how many were sent.
    int fireDue(Clock::time_point now);

private:
    using Deadlines = std::multimap<Clock::time_point, int>;

    struct Timer
    {
        std::chrono::milliseconds interval;
        Qt::TimerType type;
        QObject *object;
        Deadlines::iterator deadline;
        // Set while its QTimerEvent is being handled: a loop its handler runs
        // reschedules it but does not send it again.
        bool inHandler = false;
    };

    void reschedule(Timer &timer, int id, Clock::time_point now);
    static Clock::time_point aligned(Clock::time_point deadline, const Timer &timer);

    std::unordered_map<int, Timer> m_timers;
    Deadlines m_deadlines;
};

} // namespace pepsi
