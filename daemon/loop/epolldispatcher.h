// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "loop/timerschedule.h"

#include <QAbstractEventDispatcher>
#include <QList>
#include <QString>

#include <array>
#include <atomic>
#include <unordered_map>
#include <vector>

struct epoll_event;

namespace pepsi {

// The dispatch thread's event loop, on epoll. Qt's own loop polls every
// descriptor it watches on each pass; a pool of 500 workers is three per
// worker (its answers, its stderr, QProcess's pidfd), and walking them was
// the part of the daemon's cost per hop that grew with the pool. epoll is
// told of a descriptor once and reports only those that are ready, so a pass
// costs what happened in it. Everything else is Qt's contract for an event
// dispatcher: posted events first, then ready notifiers (level-triggered,
// hang-ups and errors wake every type, as poll(2) does), then due timers;
// wakeUp() from any thread; interrupt() ends a wait.
class EpollDispatcher final : public QAbstractEventDispatcher
{
    Q_OBJECT

public:
    explicit EpollDispatcher(QObject *parent = nullptr);
    ~EpollDispatcher() override;
    EpollDispatcher(const EpollDispatcher &) = delete;
    EpollDispatcher &operator=(const EpollDispatcher &) = delete;

    // False when the kernel gave no epoll or eventfd descriptor (none left);
    // error() says why.
    bool isValid() const { return m_epoll >= 0 && m_wake >= 0; }
    QString error() const { return m_error; }

    bool processEvents(QEventLoop::ProcessEventsFlags flags) override;

    void registerSocketNotifier(QSocketNotifier *notifier) override;
    void unregisterSocketNotifier(QSocketNotifier *notifier) override;

    void registerTimer(int timerId, qint64 interval, Qt::TimerType timerType, QObject *object) override;
    bool unregisterTimer(int timerId) override;
    bool unregisterTimers(QObject *object) override;
    QList<TimerInfo> registeredTimers(QObject *object) const override;
    int remainingTime(int timerId) override;

    void wakeUp() override;
    void interrupt() override;

private:
    // The notifiers of one descriptor, by QSocketNotifier::Type.
    struct Watch
    {
        std::array<QSocketNotifier *, 3> notifiers{};
        // epoll refuses what cannot be polled (a regular file); poll(2) calls
        // such a descriptor always ready, and so does this loop.
        bool alwaysReady = false;
        bool isEmpty() const { return !notifiers[0] && !notifiers[1] && !notifiers[2]; }
        unsigned events() const;
    };

    int waitForEvents(bool mayWait, bool withTimers, bool withNotifiers);
    bool anyAlwaysReady() const;
    void markPending(const Watch &watch, unsigned ready, bool mayRepeat);
    int activatePending();
    void drainWake();

    int m_epoll = -1;
    int m_wake = -1; // an eventfd: wakeUp() from any thread
    QString m_error;
    std::atomic<bool> m_wakePending{false};
    std::atomic<bool> m_interrupted{false};
    std::unordered_map<int, Watch> m_watches;
    int m_alwaysReady = 0; // how many watches are
    QList<QSocketNotifier *> m_pending;
    std::vector<epoll_event> m_ready;
    TimerSchedule m_timers;
};

} // namespace pepsi
