// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>
#include <chrono>
#include <functional>

namespace pepsi {

// What systemd (Type=notify) hears of the daemon: READY=1 once it serves,
// a STATUS= line kept current at most once a second, RELOADING=1 and READY=1
// around a reload, WATCHDOG=1 from the event loop at half of WatchdogSec= (a
// wedged loop stops sending, and systemd kills it), STOPPING=1. Outside systemd every message is dropped by
// sd_notify and only the timers run.
class ServiceNotifier : public QObject
{
    Q_OBJECT

public:
    // The running daemon's numbers, read once a second.
    struct Figures
    {
        int workers = 0;
        int inFlight = 0;
        double runsPerSecond = 0; // over the last second or so: it shows a stall
    };
    using FigureSource = std::function<Figures()>;

    explicit ServiceNotifier(QObject *parent = nullptr);

    void setFigureSource(FigureSource source) { m_source = std::move(source); }

    // Serving: READY=1 the first time, then the status follows the figures.
    void ready();
    // A state in words that replaces the figures until ready() is called
    // again ("waiting for the lock held by ...", "database unreachable, retrying").
    void setStatus(const QString &status);
    void stopping();
    // A reload (SIGHUP) begins and ends: RELOADING=1, then READY=1. Only once
    // ready: before that systemd still waits for the first READY=1, which
    // must mean serving.
    void reloading();
    void reloaded();

private:
    std::chrono::milliseconds watchdogPeriod() const;
    // "running: 3 workers, 5 in flight, 120.5 runs/s"
    static QString runningStatus(const Figures &figures);
    void refresh();
    void sendStatus(const QString &status);

    FigureSource m_source;
    QTimer m_watchdog;
    QTimer m_refresh;  // once a second: the figures move without any event
    QTimer m_deferred; // a state change within a second of the last line
    QElapsedTimer m_lastSent;
    QString m_state; // empty: show the figures
    QString m_sent;
    bool m_ready = false;
    bool m_stopping = false;
    bool m_reloading = false;
};

} // namespace pepsi
