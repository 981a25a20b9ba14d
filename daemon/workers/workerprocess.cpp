// SPDX-License-Identifier: AGPL-3.0-or-later
#include "workers/workerprocess.h"

#include "app/logging.h"

#include <csignal>
#include <linux/close_range.h>
#include <sys/prctl.h>
#include <unistd.h>

namespace pepsi {

namespace {

// A status line is short; a worker that writes this much without a newline is broken.
constexpr qsizetype MaxLineBytes = 64 * 1024;

void prepareChild()
{
    // Between fork and exec: async-signal-safe calls only.
    // Workers get stdin, stdout and stderr and nothing else of ours (Qt 6.4
    // QProcess does not close inherited descriptors by itself).
    ::close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
    // A worker must not outlive the dispatcher, even one killed with SIGKILL.
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    // The dispatcher ignores SIGPIPE; ignored signals survive exec.
    ::signal(SIGPIPE, SIG_DFL);
    // A Ctrl-C on the dispatcher's terminal is for the dispatcher, which then
    // stops its workers in order; it must not reach them directly.
    ::setpgid(0, 0);
}

} // namespace

WorkerProcess::WorkerProcess(const WorkerLaunch &launch, QObject *parent)
    : QObject(parent)
    , m_launch(launch)
{
    m_watchdog.setSingleShot(true);
    m_killTimer.setSingleShot(true);
    m_graceTimer.setSingleShot(true);
    connect(&m_watchdog, &QTimer::timeout, this, &WorkerProcess::onWatchdog);
    connect(&m_killTimer, &QTimer::timeout, this, [this] { m_process.kill(); });
    connect(&m_graceTimer, &QTimer::timeout, this, &WorkerProcess::terminate);
    connect(&m_process, &QProcess::started, this, [this] {
        m_pid = m_process.processId();
        if (m_state == State::Starting)
            m_state = State::Running;
        qCDebug(lcWorker).noquote() << "stage" << m_launch.stage << "pid" << m_pid << "started";
        Q_EMIT started(this);
    });
    connect(&m_process, &QProcess::readyReadStandardOutput, this, &WorkerProcess::onStdout);
    connect(&m_process, &QProcess::readyReadStandardError, this, &WorkerProcess::onStderr);
    connect(&m_process, &QProcess::finished, this, &WorkerProcess::onFinished);
    connect(&m_process, &QProcess::errorOccurred, this, &WorkerProcess::onErrorOccurred);
}

WorkerProcess::~WorkerProcess()
{
    // Only reached for a live process when the daemon is torn down without a
    // shutdown (QProcess then kills and reaps it); its reports go nowhere.
    m_process.disconnect(this);
}

void WorkerProcess::start()
{
    m_process.setProgram(m_launch.program);
    m_process.setArguments(m_launch.arguments);
    m_process.setProcessEnvironment(m_launch.environment);
    m_process.setChildProcessModifier(prepareChild);
    m_process.start(QIODevice::ReadWrite | QIODevice::Unbuffered);
}

void WorkerProcess::send(const Tickets &tickets)
{
    if (tickets.isEmpty())
        return;
    const bool wasIdle = m_inFlight.empty();
    m_writeBuffer.clear();
    for (const Ticket &ticket : tickets) {
        m_inFlight.push_back(ticket);
        m_writeBuffer.append(QByteArray::number(ticket.id)).append('\n');
    }
    m_process.write(m_writeBuffer);
    if (wasIdle)
        headChanged();
}

void WorkerProcess::closeInput(std::chrono::milliseconds grace)
{
    if (m_state == State::Exited)
        return;
    m_state = State::Stopping;
    m_process.closeWriteChannel();
    if (!m_graceTimer.isActive() && !m_killTimer.isActive())
        m_graceTimer.start(grace);
}

void WorkerProcess::terminate()
{
    if (m_state == State::Exited || m_killTimer.isActive())
        return;
    m_state = State::Stopping;
    m_graceTimer.stop();
    m_process.terminate();
    m_killTimer.start(m_launch.terminateGrace);
}

void WorkerProcess::onStdout()
{
    m_stdout.append(m_process.readAllStandardOutput());
    qsizetype from = 0;
    for (qsizetype nl; (nl = m_stdout.indexOf('\n', from)) >= 0; from = nl + 1)
        handleLine(QByteArrayView(m_stdout).sliced(from, nl - from));
    m_stdout.remove(0, from);
    if (m_stdout.size() > MaxLineBytes && !m_condemned) {
        handleLine(QByteArrayView(m_stdout).first(200));
        m_stdout.clear();
    }
}

void WorkerProcess::handleLine(QByteArrayView line)
{
    if (m_condemned)
        return;
    if (m_inFlight.empty()) {
        m_condemned = true;
        Q_EMIT protocolViolation(this, Ticket{},
                                 QStringLiteral("protocol error: unexpected line \"%1\" with no message outstanding")
                                     .arg(quoteForLog(line)));
        terminate();
        return;
    }
    const Ticket head = m_inFlight.front();
    auto status = parseStatusLine(line);
    m_inFlight.pop_front();
    if (!status) {
        m_condemned = true;
        m_watchdog.stop();
        Q_EMIT protocolViolation(this, head, QStringLiteral("protocol error: ") + status.error());
        terminate();
        return;
    }
    ++m_answered;
    const qint64 busyUsec = m_headClock.nsecsElapsed() / 1000;
    headChanged();
    Q_EMIT answered(this, head, status.value(), busyUsec);
}

void WorkerProcess::headChanged()
{
    if (m_inFlight.empty()) {
        m_watchdog.stop();
        return;
    }
    m_headClock.start();
    if (m_launch.maxRuntime.count() > 0)
        m_watchdog.start(m_launch.maxRuntime);
}

void WorkerProcess::onWatchdog()
{
    if (m_inFlight.empty() || m_condemned)
        return;
    m_condemned = true;
    const Ticket head = m_inFlight.front();
    m_inFlight.pop_front();
    Q_EMIT timedOut(this, head);
    terminate();
}

void WorkerProcess::onStderr()
{
    m_stderr.append(m_process.readAllStandardError());
    qsizetype from = 0;
    for (qsizetype nl; (nl = m_stderr.indexOf('\n', from)) >= 0; from = nl + 1)
        logStderrLine(QByteArrayView(m_stderr).sliced(from, nl - from));
    m_stderr.remove(0, from);
    if (m_stderr.size() > MaxLineBytes) {
        logStderrLine(m_stderr);
        m_stderr.clear();
    }
}

void WorkerProcess::logStderrLine(QByteArrayView line)
{
    qCInfo(lcWorker).noquote() << "stage" << m_launch.stage << "pid" << m_pid << "stderr:"
                               << quoteForLog(line, 2000);
}

void WorkerProcess::onFinished(int exitCode, QProcess::ExitStatus status)
{
    onStdout(); // lines that arrived together with the exit
    if (!m_stderr.isEmpty())
        logStderrLine(m_stderr);
    QString cause;
    if (status == QProcess::CrashExit)
        cause = QStringLiteral("crashed: signal %1").arg(exitCode);
    else if (!m_inFlight.empty() || exitCode != 0)
        cause = QStringLiteral("exited with status %1 without answering").arg(exitCode);
    finish(cause);
}

void WorkerProcess::onErrorOccurred(QProcess::ProcessError error)
{
    if (error == QProcess::FailedToStart) {
        m_state = State::Exited;
        m_watchdog.stop();
        const Tickets unanswered(m_inFlight.begin(), m_inFlight.end());
        m_inFlight.clear();
        Q_EMIT exited(this, unanswered,
                      WorkerExit{WorkerExit::Kind::FailedToStart,
                                 QStringLiteral("failed to start: ") + m_process.errorString()});
    }
    // Crashes and I/O errors are followed by finished().
}

void WorkerProcess::finish(const QString &cause)
{
    const bool stopping = m_state == State::Stopping || m_condemned;
    m_state = State::Exited;
    m_watchdog.stop();
    m_killTimer.stop();
    m_graceTimer.stop();
    const Tickets unanswered(m_inFlight.begin(), m_inFlight.end());
    m_inFlight.clear();
    WorkerExit exit;
    exit.cause = cause;
    if (stopping)
        exit.kind = WorkerExit::Kind::Stopped;
    else if (!unanswered.isEmpty() || !cause.isEmpty())
        exit.kind = WorkerExit::Kind::Died;
    qCDebug(lcWorker).noquote() << "stage" << m_launch.stage << "pid" << m_pid << "exited"
                                << (cause.isEmpty() ? QStringLiteral("cleanly") : cause);
    Q_EMIT exited(this, unanswered, exit);
}

} // namespace pepsi
