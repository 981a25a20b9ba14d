// SPDX-License-Identifier: AGPL-3.0-or-later
#include "service/servicenotifier.h"

#include "model/logcategories.h"
#include "service/sdnotify.h"

#include <algorithm>

namespace pepsi {

using namespace std::chrono;

namespace {
// systemd keeps the last STATUS=; more than one a second only costs wake-ups.
constexpr milliseconds StatusSpacing = 1s;
} // namespace

ServiceNotifier::ServiceNotifier(QObject *parent)
    : QObject(parent)
{
    m_refresh.setInterval(StatusSpacing);
    m_deferred.setSingleShot(true);
    connect(&m_refresh, &QTimer::timeout, this, &ServiceNotifier::refresh);
    connect(&m_deferred, &QTimer::timeout, this, &ServiceNotifier::refresh);

    if (const milliseconds period = watchdogPeriod(); period > 0ms) {
        // From the event loop on purpose: a loop stuck in a statement or a
        // busy worker read stops the keep-alives, and systemd restarts us.
        m_watchdog.setTimerType(Qt::PreciseTimer);
        m_watchdog.setInterval(period);
        connect(&m_watchdog, &QTimer::timeout, this, [] { sdNotify("WATCHDOG=1"); });
        m_watchdog.start();
        qCInfo(lcMain) << "systemd watchdog: keep-alive every" << period.count() << "ms";
    }
}

milliseconds ServiceNotifier::watchdogPeriod() const
{
    const microseconds interval = sdWatchdogInterval();
    if (interval <= 0us)
        return 0ms;
    return std::max(1ms, duration_cast<milliseconds>(interval / 2));
}

void ServiceNotifier::ready()
{
    if (m_stopping)
        return;
    m_state.clear();
    if (!m_ready) {
        m_ready = true;
        const QString status = runningStatus(m_source ? m_source() : Figures{});
        sdNotify("READY=1\nSTATUS=" + status.toUtf8());
        m_sent = status;
        m_lastSent.start();
    } else {
        refresh();
    }
    m_refresh.start();
}

void ServiceNotifier::setStatus(const QString &status)
{
    if (m_stopping)
        return;
    m_state = status;
    refresh();
}

void ServiceNotifier::stopping()
{
    if (m_stopping)
        return;
    m_stopping = true;
    m_refresh.stop();
    m_deferred.stop();
    sdNotify("STOPPING=1\nSTATUS=stopping: letting workers finish what they hold");
}

void ServiceNotifier::reloading()
{
    if (!m_ready || m_stopping || m_reloading)
        return;
    m_reloading = true;
    // MONOTONIC_USEC lets systemd tell this reload from an older one (sd_notify(3)).
    // steady_clock is CLOCK_MONOTONIC on Linux.
    const auto now = duration_cast<microseconds>(steady_clock::now().time_since_epoch());
    sdNotify("RELOADING=1\nMONOTONIC_USEC=" + QByteArray::number(qint64(now.count())));
}

void ServiceNotifier::reloaded()
{
    if (!m_reloading || m_stopping)
        return;
    m_reloading = false;
    sdNotify("READY=1");
}

void ServiceNotifier::refresh()
{
    if (m_stopping)
        return;
    QString status = m_state;
    if (status.isEmpty()) {
        if (!m_ready)
            return;
        status = runningStatus(m_source ? m_source() : Figures{});
    }
    if (status == m_sent)
        return;
    if (m_lastSent.isValid() && m_lastSent.elapsed() < StatusSpacing.count()) {
        if (!m_deferred.isActive())
            m_deferred.start(StatusSpacing - milliseconds(m_lastSent.elapsed()));
        return;
    }
    sendStatus(status);
}

void ServiceNotifier::sendStatus(const QString &status)
{
    sdNotify("STATUS=" + status.toUtf8());
    m_sent = status;
    m_lastSent.start();
}

QString ServiceNotifier::runningStatus(const Figures &figures)
{
    return QStringLiteral("running: %1 %2, %3 in flight, %4 runs/s")
        .arg(figures.workers)
        .arg(figures.workers == 1 ? QStringLiteral("worker") : QStringLiteral("workers"))
        .arg(figures.inFlight)
        .arg(figures.runsPerSecond, 0, 'f', 1);
}

} // namespace pepsi
