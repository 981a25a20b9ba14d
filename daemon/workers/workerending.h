// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QObject>
#include <QProcess>
#include <QString>
#include <QTimer>
#include <chrono>

namespace pepsi {

// How a worker's process is brought to its end: the grace it has to exit on
// its own once its input is closed (or broke), then SIGTERM, then SIGKILL
// after the terminate grace, each to its whole process group (processgroup). It remembers what it did, for the exit's
// classification (WorkerExit). Never waits: every step is a timer.
class WorkerEnding : public QObject
{
    Q_OBJECT

public:
    WorkerEnding(QProcess &process, std::chrono::milliseconds terminateGrace, QObject *parent);

    // Its input was closed: it has `grace` to exit on its own, unless a grace
    // or a signal is already under way.
    void allowGrace(std::chrono::milliseconds grace);
    // Its input broke under it: most often it is exiting and its exit says
    // why; the terminate grace decides. Ignored while already being stopped.
    void inputLost(const QString &why);
    // SIGTERM now, SIGKILL after the terminate grace.
    void terminate();
    // The process is gone: nothing more to send.
    void exited();

    bool isTerminating() const { return m_killTimer.isActive(); }
    // Why its input broke; empty: it did not.
    const QString &inputLostReason() const { return m_inputLost; }
    // The last signal we sent it (SIGTERM, SIGKILL); 0: none.
    int signalSent() const { return m_signalSent; }

Q_SIGNALS:
    // The grace is over and it has not exited: the owner terminates it.
    void graceOver();

private:
    QProcess &m_process;
    std::chrono::milliseconds m_terminateGrace;
    QTimer m_graceTimer;
    QTimer m_killTimer;
    QString m_inputLost;
    int m_signalSent = 0;
};

} // namespace pepsi
