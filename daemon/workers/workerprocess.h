// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "core/snapshots.h"
#include "core/ticket.h"
#include "protocol/statusline.h"

#include <QElapsedTimer>
#include <QObject>
#include <QProcess>
#include <QTimer>
#include <chrono>
#include <deque>

namespace pepsi {

struct WorkerLaunch
{
    QString stage;
    QString program;           // resolved path
    QStringList arguments;     // [-c FILE] worker
    QProcessEnvironment environment;
    std::chrono::milliseconds maxRuntime{0};
    std::chrono::milliseconds terminateGrace{std::chrono::seconds(2)};
};

struct WorkerExit
{
    enum class Kind {
        Clean,         // exited 0 holding nothing
        Stopped,       // we closed its input or terminated it (idle, recycle, shutdown, condemned)
        Died,          // exited or was killed on its own while it could still work
        FailedToStart, // never ran: nothing it held was touched
    };
    Kind kind = Kind::Clean;
    QString cause; // "crashed: signal 9", "exited with status 2 without answering", "failed to start: ..."
};

// One stage program process speaking the worker protocol: it writes ids,
// matches status lines to them in order, times the head-of-line message and
// escalates terminate -> kill. It only reports; the pool decides what follows.
class WorkerProcess : public QObject
{
    Q_OBJECT

public:
    enum class State { Starting, Running, Stopping, Exited };

    WorkerProcess(const WorkerLaunch &launch, QObject *parent);
    ~WorkerProcess() override;

    void start();
    // Hands ids over in one write. The caller respects the queue limit.
    void send(const Tickets &tickets);
    // End of input: the worker finishes what it holds and exits.
    void closeInput(std::chrono::milliseconds grace);
    // SIGTERM now, SIGKILL after the grace.
    void terminate();

    qint64 pid() const { return m_pid; }
    State state() const { return m_state; }
    int outstanding() const { return int(m_inFlight.size()); }
    const std::deque<Ticket> &inFlight() const { return m_inFlight; }
    qint64 answeredCount() const { return m_answered; }
    bool hasAnswered() const { return m_answered > 0; }
    void retire() { m_retiring = true; }
    bool isRetiring() const { return m_retiring; }
    bool accepting() const { return !m_retiring && (m_state == State::Starting || m_state == State::Running); }

Q_SIGNALS:
    void started(pepsi::WorkerProcess *worker);
    // A status line for the head-of-line ticket; busyUsec from when it reached the head.
    void answered(pepsi::WorkerProcess *worker, pepsi::Ticket ticket, const pepsi::StatusLine &status,
                  qint64 busyUsec);
    // A line outside the grammar (or one with nothing outstanding): the worker is being replaced.
    void protocolViolation(pepsi::WorkerProcess *worker, pepsi::Ticket ticket, const QString &reason);
    // The head-of-line message outlived MAX_RUNTIME: the worker is being terminated.
    void timedOut(pepsi::WorkerProcess *worker, pepsi::Ticket ticket);
    // The process is gone; `unanswered` are the tickets it still held, head first.
    void exited(pepsi::WorkerProcess *worker, const pepsi::Tickets &unanswered, const pepsi::WorkerExit &exit);

private:
    void onStdout();
    void onStderr();
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void onErrorOccurred(QProcess::ProcessError error);
    void onWatchdog();
    void handleLine(QByteArrayView line);
    void headChanged();
    void finish(const QString &cause);
    void logStderrLine(QByteArrayView line);

    WorkerLaunch m_launch;
    QProcess m_process;
    QTimer m_watchdog;
    QTimer m_killTimer;
    QTimer m_graceTimer;
    QElapsedTimer m_headClock;
    std::deque<Ticket> m_inFlight;
    QByteArray m_stdout;
    QByteArray m_stderr;
    QByteArray m_writeBuffer;
    qint64 m_pid = 0;
    qint64 m_answered = 0;
    State m_state = State::Starting;
    bool m_condemned = false;
    bool m_retiring = false;  // gets no new ids; stops once what it holds is answered // a protocol violation or timeout: further lines are ignored

    // --- read by the control socket (core/snapshots.h); in workers/workersnapshots.cpp ---
public:
    WorkerSnapshot snapshot(qint64 maxRuntimeMs) const;

private:
    struct LifeClock
    {
        LifeClock() { timer.start(); }
        QElapsedTimer timer;
    };
    LifeClock m_life; // since this object, and so the process, was made
};

} // namespace pepsi
