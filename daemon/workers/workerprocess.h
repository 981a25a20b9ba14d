// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "model/snapshots.h"
#include "model/ticket.h"
#include "protocol/statusline.h"
#include "workers/inputpipe.h"
#include "workers/linesplitter.h"
#include "workers/outputpipe.h"

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
    QString program;       // resolved path
    QStringList arguments; // [-c FILE] worker
    QProcessEnvironment environment;
    std::chrono::milliseconds maxRuntime{0};
    std::chrono::milliseconds terminateGrace{std::chrono::seconds(2)};
    // A worker that has not begun to read its input this long after exec is
    // stopped as a start failure (MAX_RUNTIME does not run before that).
    std::chrono::milliseconds startTimeout{std::chrono::seconds(60)};
};

struct WorkerExit
{
    enum class Kind {
        Clean,         // exited 0 holding nothing
        Stopped,       // ended by us (idle, recycle, shutdown, condemned), holding ids it never ran
        Died,          // crashed, or exited holding ids after answering: the head fails
        FailedToStart, // never ran, or exited with a status before answering anything
    };
    Kind kind = Kind::Clean;
    QString cause;          // "crashed: signal 9", "exited with status 2 without answering", "failed to start: ..."
    QString lastStderrLine; // the last line it wrote to stderr, cut for the log; empty: none
};

// One stage program process speaking the worker protocol: it writes ids,
// matches status lines to them in order, times the head-of-line message and
// escalates terminate -> kill. It reads what the process writes in bounded
// memory, whatever it writes. It only reports; the pool decides what follows.
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
    // Killed for a timeout or a protocol violation (its head is settled).
    bool isCondemned() const { return m_condemned; }
    void retire() { m_retiring = true; }
    bool isRetiring() const { return m_retiring; }
    bool accepting() const { return !m_retiring && (m_state == State::Starting || m_state == State::Running); }

Q_SIGNALS:
    void started(pepsi::WorkerProcess *worker);
    // A status line for the head-of-line ticket; busyUsec from when it reached the head.
    void answered(pepsi::WorkerProcess *worker, pepsi::Ticket ticket, const pepsi::StatusLine &status, qint64 busyUsec);
    // A line outside the grammar (or one with nothing outstanding): the worker is being replaced.
    void protocolViolation(pepsi::WorkerProcess *worker, pepsi::Ticket ticket, const QString &reason);
    // The head-of-line message outlived MAX_RUNTIME: the worker is being terminated.
    void timedOut(pepsi::WorkerProcess *worker, pepsi::Ticket ticket);
    // The process is gone; `unanswered` are the tickets it still held, head first.
    void exited(pepsi::WorkerProcess *worker, const pepsi::Tickets &unanswered, const pepsi::WorkerExit &exit);

private:
    void onStdout();
    bool consumeStdout();
    void onStderr();
    void onInputBroken(const QString &why);
    void onGraceOver();
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void onErrorOccurred(QProcess::ProcessError error);
    void onWatchdog();
    void probeStart();
    void becomeReady();
    void handleLine(QByteArrayView line, bool cut);
    void violation(const QString &reason);
    void headChanged();
    void finish(const WorkerExit &exit);
    void logStderrLine(QByteArrayView line, bool cut);
    void logDroppedStderr();
    WorkerExit classifyExit(int exitCode, QProcess::ExitStatus status) const;

    WorkerLaunch m_launch;
    QProcess m_process;
    InputPipe m_input;   // its stdin
    OutputPipe m_output; // its stdout; QProcess reads its stderr
    QTimer m_watchdog;
    QTimer m_killTimer;
    QTimer m_graceTimer;
    QTimer m_startProbe;
    QTimer m_startDeadline;
    QTimer m_stderrWindow;
    QElapsedTimer m_headClock;
    std::deque<Ticket> m_inFlight;
    LineSplitter m_stdout;
    LineSplitter m_stderr;
    QByteArray m_lastStderrLine;
    QString m_inputLost; // why its stdin no longer takes our writes; empty: it does
    QByteArray m_writeBuffer;
    qint64 m_pid = 0;
    qint64 m_answered = 0;
    qint64 m_bytesSent = 0; // ids written to its stdin, in bytes, ever
    int m_stderrLinesInWindow = 0;
    qint64 m_stderrDropped = 0;
    int m_signalSent = 0; // the last signal we sent it (SIGTERM, SIGKILL), 0: none
    State m_state = State::Starting;
    bool m_ready = false;
    bool m_startTimedOut = false;
    bool m_condemned = false; // a protocol violation or timeout: further output is dropped
    bool m_retiring = false;  // gets no new ids; stops once what it holds is answered

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
