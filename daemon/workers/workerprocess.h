// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "model/snapshots.h"
#include "model/ticket.h"
#include "protocol/statusline.h"
#include "workers/inputpipe.h"
#include "workers/linesplitter.h"
#include "workers/outputpipe.h"
#include "workers/workerending.h"
#include "workers/workerexit.h"
#include "workers/workerstderr.h"

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

// One stage program process speaking the worker protocol: it writes ids,
// matches status lines to them in order, times the head-of-line message and
// has it stopped (WorkerEnding). It reads what the process writes in bounded
// memory, whatever it writes (its stderr: WorkerStderr). It only reports;
// the pool decides what follows (WorkerExit says what its exit means).
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

    WorkerLaunch m_launch;
    QProcess m_process;
    InputPipe m_input;   // its stdin
    OutputPipe m_output; // its stdout; QProcess reads its stderr
    WorkerEnding m_ending;
    WorkerStderr m_stderr;
    QTimer m_watchdog;
    QTimer m_startProbe;
    QTimer m_startDeadline;
    QElapsedTimer m_headClock;
    std::deque<Ticket> m_inFlight;
    LineSplitter m_stdout;
    QByteArray m_writeBuffer;
    qint64 m_pid = 0;
    qint64 m_answered = 0;
    qint64 m_bytesSent = 0; // ids written to its stdin, in bytes, ever
    State m_state = State::Starting;
    bool m_ready = false;
    bool m_startTimedOut = false;
    bool m_condemned = false; // a protocol violation or timeout: further output is dropped
    bool m_retiring = false;  // gets no new ids; stops once what it holds is answered

    // --- read by the control socket (model/snapshots.h) ---
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
