// SPDX-License-Identifier: AGPL-3.0-or-later
// How a worker's process ends: its input closed, the signals and their
// graces, and what its exit means for the ids it held (WorkerExit).
#include "workers/workerprocess.h"

#include "model/logcategories.h"

#include <csignal>

namespace pepsi {

namespace {

// At its exit, what a worker wrote is read up to this many pipe's worths:
// more can only come from a process of its own that still holds its stdout.
constexpr int MaxChunksAtExit = 16;

} // namespace

void WorkerProcess::closeInput(std::chrono::milliseconds grace)
{
    if (m_state == State::Exited)
        return;
    m_state = State::Stopping;
    m_input.close();
    if (!m_graceTimer.isActive() && !m_killTimer.isActive())
        m_graceTimer.start(grace);
}

void WorkerProcess::terminate()
{
    if (m_state == State::Exited || m_killTimer.isActive())
        return;
    m_state = State::Stopping;
    m_graceTimer.stop();
    m_signalSent = SIGTERM;
    m_process.terminate();
    m_killTimer.start(m_launch.terminateGrace);
}

void WorkerProcess::onInputBroken(const QString &why)
{
    // Already being stopped (its input closed, or a signal sent): that
    // grace, and its own account, stand.
    if (m_state == State::Exited || m_graceTimer.isActive() || m_killTimer.isActive())
        return;
    // Most often it is exiting (a crash, a failed start) and finished() is on
    // its way: that says what happened. One that lives on without its input
    // can never answer what it holds; the grace decides which it was.
    m_inputLost = why;
    m_graceTimer.start(m_launch.terminateGrace);
}

void WorkerProcess::onGraceOver()
{
    if (!m_inputLost.isEmpty() && m_state != State::Exited)
        qCWarning(lcWorker).noquote()
            << "stage" << m_launch.stage << "pid" << m_pid
            << QStringLiteral("stopped reading its input (%1) and did not exit within").arg(m_inputLost)
            << m_launch.terminateGrace.count() << "ms; stopping it";
    terminate();
}

WorkerExit WorkerProcess::classifyExit(int exitCode, QProcess::ExitStatus status) const
{
    const bool crashed = status == QProcess::CrashExit;
    WorkerExit exit;
    exit.lastStderrLine = quoteForLog(m_lastStderrLine);
    if (crashed)
        exit.cause = QStringLiteral("crashed: signal %1").arg(exitCode);
    else if (!m_inFlight.empty() || exitCode != 0)
        exit.cause = QStringLiteral("exited with status %1 without answering").arg(exitCode);

    if (m_startTimedOut && m_answered == 0) {
        // It never got to its input: no message is to blame.
        exit.kind = WorkerExit::Kind::FailedToStart;
        exit.cause =
            QStringLiteral("did not read its input within %1 ms of starting").arg(m_launch.startTimeout.count());
    } else if (m_condemned || m_signalSent != 0) {
        // Condemned: its head was settled then, the rest never ran. Signalled
        // by us: however it ended, it was told to; what it held goes back.
        exit.kind = WorkerExit::Kind::Stopped;
    } else if (crashed) { // NOLINT(bugprone-branch-clone): the order of the tests decides, not the bodies
        // Stopping (input closed) or not: a crash fails the head.
        exit.kind = WorkerExit::Kind::Died;
    } else if (m_answered == 0 && (exitCode != 0 || !m_inFlight.empty())) {
        // It never got as far as answering: its configuration, a library, the
        // program itself. No message is to blame.
        exit.kind = WorkerExit::Kind::FailedToStart;
        exit.cause = QStringLiteral("exited with status %1 before answering anything").arg(exitCode);
    } else if (exitCode != 0) {
        exit.kind = WorkerExit::Kind::Died;
    } else if (!m_inFlight.empty()) {
        // Exit 0 holding ids: after we closed its input, what it did not run
        // goes back; on its own, the head is its last message.
        exit.kind = m_state == State::Stopping ? WorkerExit::Kind::Stopped : WorkerExit::Kind::Died;
    }
    return exit;
}

void WorkerProcess::onFinished(int exitCode, QProcess::ExitStatus status)
{
    // Lines that arrived together with the exit.
    for (int chunk = 0; chunk < MaxChunksAtExit && consumeStdout(); ++chunk) { }
    onStderr();
    if (!m_stderr.pending().isEmpty())
        logStderrLine(m_stderr.pending(), m_stderr.pendingCut());
    m_stderr.clear();
    logDroppedStderr();
    finish(classifyExit(exitCode, status));
}

void WorkerProcess::onErrorOccurred(QProcess::ProcessError error)
{
    if (error == QProcess::FailedToStart) {
        WorkerExit exit;
        exit.kind = WorkerExit::Kind::FailedToStart;
        exit.cause = QStringLiteral("failed to start: ") + m_process.errorString();
        finish(exit);
    }
    // Crashes and I/O errors are followed by finished().
}

void WorkerProcess::finish(const WorkerExit &exit)
{
    m_state = State::Exited;
    m_watchdog.stop();
    m_killTimer.stop();
    m_graceTimer.stop();
    m_startProbe.stop();
    m_startDeadline.stop();
    m_stderrWindow.stop();
    m_output.close();
    const Tickets unanswered(m_inFlight.begin(), m_inFlight.end());
    m_inFlight.clear();
    qCDebug(lcWorker).noquote() << "stage" << m_launch.stage << "pid" << m_pid << "exited"
                                << (exit.cause.isEmpty() ? QStringLiteral("cleanly") : exit.cause);
    Q_EMIT exited(this, unanswered, exit);
}

} // namespace pepsi
