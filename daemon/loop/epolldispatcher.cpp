// SPDX-License-Identifier: AGPL-3.0-or-later
#include "loop/epolldispatcher.h"

#include <QCoreApplication>
#include <QSocketNotifier>
#include <QtDebug>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

namespace pepsi {

namespace {

using Clock = TimerSchedule::Clock;

// What a notifier of each QSocketNotifier::Type waits for.
constexpr std::array<unsigned, 3> EventsOfType{EPOLLIN, EPOLLOUT, EPOLLPRI};
// A hang-up or an error is news for every notifier of the descriptor: a read
// sees the end, a write its error (and poll(2) reports both to all).
constexpr unsigned WakesEveryType = EPOLLHUP | EPOLLERR;
// The most events one pass takes; more wait for the next (epoll is
// level-triggered, nothing is lost).
constexpr int MaxEventsPerPass = 1024;

// Adds, changes or (with no events) removes fd's entry in the epoll set.
int changeWatch(int epoll, int op, int fd, unsigned events)
{
    epoll_event event{};
    event.events = events;
    event.data.fd = fd;
    return ::epoll_ctl(epoll, op, fd, op == EPOLL_CTL_DEL ? nullptr : &event);
}

const char *typeName(int type)
{
    static const char *const names[] = {"Read", "Write", "Exception"};
    return names[type];
}

} // namespace

unsigned EpollDispatcher::Watch::events() const
{
    unsigned events = 0;
    for (int type = 0; type < 3; ++type) {
        if (notifiers[type])
            events |= EventsOfType[type];
    }
    return events;
}

EpollDispatcher::EpollDispatcher(QObject *parent)
    : QAbstractEventDispatcher(parent)
    , m_epoll(::epoll_create1(EPOLL_CLOEXEC))
    , m_wake(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK))
{
    if (!isValid()) {
        m_error = QStringLiteral("%1: %2").arg(m_epoll < 0 ? QLatin1String("epoll_create1") : QLatin1String("eventfd"),
                                               QString::fromLocal8Bit(std::strerror(errno)));
        return;
    }
    if (changeWatch(m_epoll, EPOLL_CTL_ADD, m_wake, EPOLLIN) != 0) {
        m_error = QStringLiteral("epoll_ctl: ") + QString::fromLocal8Bit(std::strerror(errno));
        ::close(m_wake);
        m_wake = -1;
    }
}

EpollDispatcher::~EpollDispatcher()
{
    if (m_wake >= 0)
        ::close(m_wake);
    if (m_epoll >= 0)
        ::close(m_epoll);
}

bool EpollDispatcher::processEvents(QEventLoop::ProcessEventsFlags flags)
{
    m_interrupted.store(false, std::memory_order_relaxed);
    Q_EMIT awake();
    QCoreApplication::sendPostedEvents();
    if (m_interrupted.load(std::memory_order_relaxed))
        return false;

    const bool withTimers = !flags.testFlag(QEventLoop::X11ExcludeTimers);
    const bool withNotifiers = !flags.testFlag(QEventLoop::ExcludeSocketNotifiers);
    int handled = waitForEvents(flags.testFlag(QEventLoop::WaitForMoreEvents), withTimers, withNotifiers);
    if (withNotifiers)
        handled += activatePending();
    if (withTimers)
        handled += m_timers.fireDue(Clock::now());
    return handled > 0;
}

int EpollDispatcher::waitForEvents(bool mayWait, bool withTimers, bool withNotifiers)
{
    int timeout = 0;
    if (mayWait && !m_interrupted.load(std::memory_order_relaxed) && (!withNotifiers || !anyAlwaysReady())) {
        const std::optional<int> untilTimer = withTimers ? m_timers.waitMs(Clock::now()) : std::nullopt;
        timeout = untilTimer.value_or(-1);
    }
    if (timeout != 0)
        Q_EMIT aboutToBlock();

    if (!withNotifiers) {
        // The notifiers' descriptors are in the epoll set, and one that is
        // ready would end every wait at once: only the wake descriptor counts.
        pollfd wake{m_wake, POLLIN, 0};
        if (::poll(&wake, 1, timeout) <= 0)
            return 0;
        drainWake();
        return 1;
    }

    m_ready.resize(std::clamp<size_t>(m_watches.size() + 1, 16, MaxEventsPerPass));
    const int count = ::epoll_wait(m_epoll, m_ready.data(), int(m_ready.size()), timeout);
    if (count < 0) {
        // A signal (the daemon's own are read from a pipe, and come round as
        // a notifier on the next pass).
        if (errno != EINTR)
            qWarning("EpollDispatcher: epoll_wait: %s", std::strerror(errno));
        return 0;
    }
    int handled = 0;
    const bool leftOver = !m_pending.isEmpty(); // a nested loop's, rarely
    for (int i = 0; i < count; ++i) {
        const epoll_event &event = m_ready[size_t(i)];
        if (event.data.fd == m_wake) {
            drainWake();
            ++handled;
            continue;
        }
        // Gone when an earlier notifier of this pass was unregistered before
        // its descriptor's event was looked at.
        if (const auto found = m_watches.find(event.data.fd); found != m_watches.end())
            markPending(found->second, event.events, leftOver);
    }
    if (m_alwaysReady > 0) {
        for (const auto &[fd, watch] : m_watches) {
            if (watch.alwaysReady)
                markPending(watch, EPOLLIN | EPOLLOUT, true);
        }
    }
    return handled;
}

bool EpollDispatcher::anyAlwaysReady() const
{
    if (m_alwaysReady == 0)
        return false;
    // As poll(2) has a regular file: readable and writable, never exceptional.
    return std::any_of(m_watches.begin(), m_watches.end(), [](const auto &entry) {
        const Watch &watch = entry.second;
        return watch.alwaysReady && (watch.notifiers[QSocketNotifier::Read] || watch.notifiers[QSocketNotifier::Write]);
    });
}

void EpollDispatcher::markPending(const Watch &watch, unsigned ready, bool mayRepeat)
{
    for (int type = 0; type < 3; ++type) {
        QSocketNotifier *notifier = watch.notifiers[type];
        if (!notifier || !(ready & (EventsOfType[type] | WakesEveryType)))
            continue;
        if (mayRepeat && m_pending.contains(notifier))
            continue;
        m_pending.append(notifier);
    }
}

int EpollDispatcher::activatePending()
{
    // One at a time from the front: a handler may unregister (or delete) a
    // notifier still waiting here, which takes it out of the list, or run a
    // nested loop that activates the rest.
    int activated = 0;
    QEvent event(QEvent::SockAct);
    while (!m_pending.isEmpty()) {
        QSocketNotifier *notifier = m_pending.takeFirst();
        QCoreApplication::sendEvent(notifier, &event);
        ++activated;
    }
    return activated;
}

void EpollDispatcher::drainWake()
{
    eventfd_t count = 0;
    (void)::eventfd_read(m_wake, &count);
    // After the read: a wakeUp() between the two writes nothing, and what it
    // announced is sent by the next pass's sendPostedEvents().
    m_wakePending.store(false, std::memory_order_release);
}

void EpollDispatcher::registerSocketNotifier(QSocketNotifier *notifier)
{
    const int fd = int(notifier->socket());
    const int type = int(notifier->type());
    Watch &watch = m_watches[fd];
    if (watch.notifiers[type] && watch.notifiers[type] != notifier)
        qWarning("QSocketNotifier: Multiple socket notifiers for same socket %d and type %s", fd, typeName(type));
    const bool added = watch.isEmpty();
    watch.notifiers[type] = notifier;
    if (watch.alwaysReady)
        return;
    const unsigned events = watch.events();
    if (changeWatch(m_epoll, added ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, fd, events) == 0)
        return;
    // A descriptor closed while its notifier was enabled left the set by
    // itself (or stayed, while a copy of it lived on in a child between fork
    // and exec), and its number may be a new file's now.
    if ((errno == EEXIST && changeWatch(m_epoll, EPOLL_CTL_MOD, fd, events) == 0)
        || (errno == ENOENT && changeWatch(m_epoll, EPOLL_CTL_ADD, fd, events) == 0))
        return;
    if (errno == EPERM) { // a regular file, say
        watch.alwaysReady = true;
        ++m_alwaysReady;
        return;
    }
    qWarning("QSocketNotifier: socket %d with type %s cannot be watched: %s", fd, typeName(type), std::strerror(errno));
}

void EpollDispatcher::unregisterSocketNotifier(QSocketNotifier *notifier)
{
    const int fd = int(notifier->socket());
    const int type = int(notifier->type());
    // First, whatever the watch holds: a notifier whose descriptor's number
    // went to another one's may still wait here, and may be deleted next.
    if (!m_pending.isEmpty())
        m_pending.removeOne(notifier);
    const auto found = m_watches.find(fd);
    if (found == m_watches.end() || found->second.notifiers[type] != notifier)
        return;
    Watch &watch = found->second;
    watch.notifiers[type] = nullptr;
    if (watch.alwaysReady) {
        if (watch.isEmpty()) {
            --m_alwaysReady;
            m_watches.erase(found);
        }
        return;
    }
    // Errors are not ours to report: a descriptor closed before its notifier
    // was disabled has left the set by itself.
    if (watch.isEmpty()) {
        (void)changeWatch(m_epoll, EPOLL_CTL_DEL, fd, 0);
        m_watches.erase(found);
        return;
    }
    (void)changeWatch(m_epoll, EPOLL_CTL_MOD, fd, watch.events());
}

void EpollDispatcher::registerTimer(int timerId, qint64 interval, Qt::TimerType timerType, QObject *object)
{
    if (timerId < 1 || interval < 0 || !object) {
        qWarning("EpollDispatcher::registerTimer: invalid arguments");
        return;
    }
    m_timers.add(timerId, std::chrono::milliseconds(interval), timerType, object, Clock::now());
}

bool EpollDispatcher::unregisterTimer(int timerId) { return m_timers.remove(timerId); }

bool EpollDispatcher::unregisterTimers(QObject *object) { return m_timers.removeAllOf(object); }

QList<QAbstractEventDispatcher::TimerInfo> EpollDispatcher::registeredTimers(QObject *object) const
{
    return m_timers.timersOf(object);
}

int EpollDispatcher::remainingTime(int timerId) { return m_timers.remainingMs(timerId, Clock::now()); }

void EpollDispatcher::wakeUp()
{
    if (!m_wakePending.exchange(true, std::memory_order_acq_rel))
        (void)::eventfd_write(m_wake, 1);
}

void EpollDispatcher::interrupt()
{
    m_interrupted.store(true, std::memory_order_relaxed);
    wakeUp();
}

} // namespace pepsi
