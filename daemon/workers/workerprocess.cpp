// SPDX-License-Identifier: AGPL-3.0-or-later
#include "workers/workerprocess.h"

#include "model/logcategories.h"

#include <csignal>
#include <fcntl.h>
#include <linux/close_range.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <unistd.h>

namespace pepsi {

namespace {

// The head of a status line that is kept: a failure keeps 1000 bytes of its
// reason; a success line with its fused-stage reports stays far below this.
constexpr qsizetype MaxStatusLineBytes = qsizetype(16) * 1024;
// stderr: a logged line shows at most this much of the worker's line ...
constexpr qsizetype MaxStderrLineBytes = 2000;
// ... and at most this many lines a second are logged per worker; the rest
// are counted and the count logged.
constexpr int MaxStderrLinesPerSecond = 50;
constexpr std::chrono::milliseconds StderrWindow{1000};
// While a new worker has not read its first ids (configuration, database
// connection), nothing it holds is timed; this is how often it is looked at.
constexpr std::chrono::milliseconds StartProbeInterval{50};

void prepareChild()
{
    // Between fork and exec: async-signal-safe calls only.
    // Workers get stdin, stdout and stderr and nothing else of ours (Qt 6.4
    // QProcess does not close inherited descriptors by itself).
    ::close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
    // A worker must not outlive the dispatcher, even one killed with SIGKILL.
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    // The dispatcher ignores SIGPIPE; ignored signals survive exec.
    (void)::signal(SIGPIPE, SIG_DFL);
    // A Ctrl-C on the dispatcher's terminal is for the dispatcher, which then
    // stops its workers in order; it must not reach them directly.
    ::setpgid(0, 0);
}

// Bytes written to the worker's stdin that it has not read yet; -1 when that
// cannot be told. The pipe is reached through /proc (we gave our read end to
// the child); opening a read end for FIONREAD consumes nothing.
int unreadInput(qint64 pid)
{
    const QByteArray path = "/proc/" + QByteArray::number(pid) + "/fd/0";
    const int fd = ::open(path.constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int unread = -1;
    if (::ioctl(fd, FIONREAD, &unread) != 0)
        unread = -1;
    ::close(fd);
    return unread;
}

} // namespace

WorkerProcess::WorkerProcess(const WorkerLaunch &launch, QObject *parent)
    : QObject(parent)
    , m_launch(launch)
    , m_stdout(MaxStatusLineBytes)
    , m_stderr(MaxStderrLineBytes)
{
    m_watchdog.setSingleShot(true);
    m_killTimer.setSingleShot(true);
    m_graceTimer.setSingleShot(true);
    m_stderrWindow.setSingleShot(true);
    m_startProbe.setInterval(StartProbeInterval);
    connect(&m_watchdog, &QTimer::timeout, this, &WorkerProcess::onWatchdog);
    connect(&m_killTimer, &QTimer::timeout, this, [this] {
        m_signalSent = SIGKILL;
        m_process.kill();
    });
    connect(&m_graceTimer, &QTimer::timeout, this, &WorkerProcess::onGraceOver);
    connect(&m_startProbe, &QTimer::timeout, this, &WorkerProcess::probeStart);
    m_startDeadline.setSingleShot(true);
    connect(&m_startDeadline, &QTimer::timeout, this, [this] {
        if (m_ready || m_state == State::Exited)
            return;
        qCWarning(lcWorker).noquote() << "stage" << m_launch.stage << "pid" << m_pid << "has not read its input"
                                      << m_launch.startTimeout.count() << "ms after it started; terminating it";
        m_startTimedOut = true;
        terminate();
    });
    connect(&m_stderrWindow, &QTimer::timeout, this, &WorkerProcess::logDroppedStderr);
    connect(&m_input, &InputPipe::broken, this, &WorkerProcess::onInputBroken);
    connect(&m_process, &QProcess::started, this, [this] {
        if (m_state == State::Starting)
            m_state = State::Running;
        // Only now: its first answers are often in the pipe already when the
        // event loop sees the end of QProcess's start-up pipe, and the
        // dispatcher may hand out our notifier first. Answers taken while
        // Starting made neither an idle worker nor a recycled one (the pool
        // looks at that once per answer), and said what ran before it started.
        m_output.watch();
        qCDebug(lcWorker).noquote() << "stage" << m_launch.stage << "pid" << m_pid << "started";
        Q_EMIT started(this);
        if (!m_inFlight.empty())
            m_startProbe.start();
        if (!m_ready && m_launch.startTimeout.count() > 0)
            m_startDeadline.start(m_launch.startTimeout);
    });
    connect(&m_output, &OutputPipe::readyRead, this, &WorkerProcess::onStdout);
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
    QString error;
    const bool input = m_input.open(&error);
    if (!input || !m_output.open(&error)) {
        WorkerExit exit;
        exit.kind = WorkerExit::Kind::FailedToStart;
        exit.cause = QStringLiteral("failed to start: no pipe for its %1: ")
                         .arg(input ? QLatin1String("output") : QLatin1String("input"))
            + error;
        // Reported from the event loop, as QProcess reports a failed exec.
        QMetaObject::invokeMethod(
            this, [this, exit] { finish(exit); }, Qt::QueuedConnection);
        return;
    }
    m_process.setStandardInputFile(QProcess::nullDevice());
    m_process.setStandardOutputFile(QProcess::nullDevice());
    m_process.setChildProcessModifier([input = m_input.childEnd(), output = m_output.childEnd()] {
        InputPipe::adoptAsStdin(input);
        OutputPipe::adoptAsStdout(output);
        prepareChild();
    });
    m_process.start(QIODevice::ReadOnly | QIODevice::Unbuffered);
    m_input.releaseChildEnd();
    m_output.releaseChildEnd();
    // QProcess knows the pid once it has forked; started() comes later, from
    // the event loop, and a snapshot taken in between must not say pid 0.
    m_pid = m_process.processId();
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
    m_input.write(m_writeBuffer);
    m_bytesSent += m_writeBuffer.size();
    if (!m_ready && m_state == State::Running && !m_startProbe.isActive())
        m_startProbe.start();
    if (wasIdle)
        headChanged();
}

void WorkerProcess::probeStart()
{
    if (m_ready || m_inFlight.empty() || m_state == State::Exited) {
        m_startProbe.stop();
        return;
    }
    // It has taken bytes out of its stdin: it is past its start-up and reading.
    // (Ids the pipe did not take yet are still ours; a worker may read one
    // line at a time.)
    const qint64 inPipe = m_bytesSent - m_input.bytesToWrite();
    const int unread = unreadInput(m_pid);
    if (unread < 0 || (inPipe > 0 && unread < inPipe))
        becomeReady();
}

void WorkerProcess::becomeReady()
{
    if (m_ready)
        return;
    m_ready = true;
    m_startProbe.stop();
    m_startDeadline.stop();
    qCDebug(lcWorker).noquote() << "stage" << m_launch.stage << "pid" << m_pid << "is reading its input";
    if (!m_inFlight.empty())
        headChanged();
}

void WorkerProcess::onStdout() { consumeStdout(); }

bool WorkerProcess::consumeStdout()
{
    // At most a pipe's worth arrives per call; what follows a decision to
    // kill the worker is dropped, never kept.
    const QByteArrayView data = m_output.read();
    if (m_condemned)
        return !data.isEmpty();
    m_stdout.feed(data, [this](QByteArrayView line, bool cut) {
        handleLine(line, cut);
        return !m_condemned;
    });
    if (m_condemned) {
        m_stdout.clear();
        return true;
    }
    // A line still being written that cannot become a status line (or that
    // comes with nothing outstanding) is a violation now: its newline may never come.
    const QByteArrayView partial = m_stdout.pending();
    if (!partial.isEmpty() && (m_inFlight.empty() || !couldBeStatusLine(partial)))
        handleLine(partial, m_stdout.pendingCut());
    return !data.isEmpty();
}

void WorkerProcess::handleLine(QByteArrayView line, bool cut)
{
    if (m_condemned)
        return;
    if (m_inFlight.empty()) {
        const QString reason =
            QStringLiteral("protocol error: unexpected line \"%1\" with no message outstanding").arg(quoteForLog(line));
        m_condemned = true;
        m_stdout.clear();
        Q_EMIT protocolViolation(this, Ticket{}, reason);
        terminate();
        return;
    }
    auto status = parseStatusLine(line);
    if (status && cut && status->succeeded()) // its fused-stage reports are not all here
        status = QStringLiteral("\"%1\" (a success line of more than %2 bytes)")
                     .arg(quoteForLog(line))
                     .arg(MaxStatusLineBytes);
    if (!status) {
        violation(QStringLiteral("protocol error: ") + status.error());
        return;
    }
    // Unknown (0) for a first answer that came before its start was seen.
    const qint64 busyUsec = m_headClock.isValid() ? m_headClock.nsecsElapsed() / 1000 : 0;
    const Ticket head = m_inFlight.front();
    m_inFlight.pop_front();
    ++m_answered;
    m_ready = true;
    m_startProbe.stop();
    m_startDeadline.stop();
    headChanged();
    Q_EMIT answered(this, head, status.value(), busyUsec);
}

void WorkerProcess::violation(const QString &reason)
{
    const Ticket head = m_inFlight.front();
    m_inFlight.pop_front();
    m_condemned = true;
    m_stdout.clear();
    m_watchdog.stop();
    Q_EMIT protocolViolation(this, head, reason);
    terminate();
}

void WorkerProcess::headChanged()
{
    if (m_inFlight.empty() || !m_ready) {
        m_watchdog.stop();
        m_headClock.invalidate();
        return;
    }
    m_headClock.start();
    // Armed once and left running: a new head only moves the clock, and the
    // timer, when it fires, re-arms itself for what the head has left.
    // Restarted for every answer, it cost a timer unregistration and
    // registration per message (QTimer::start: 3-4 % of the daemon's samples).
    if (m_launch.maxRuntime.count() > 0 && !m_watchdog.isActive())
        m_watchdog.start(m_launch.maxRuntime);
}

void WorkerProcess::onWatchdog()
{
    if (m_inFlight.empty() || m_condemned || !m_headClock.isValid())
        return;
    const qint64 left = m_launch.maxRuntime.count() - m_headClock.elapsed();
    if (left > 0) {
        m_watchdog.start(int(left));
        return;
    }
    m_condemned = true;
    m_stdout.clear();
    const Ticket head = m_inFlight.front();
    m_inFlight.pop_front();
    Q_EMIT timedOut(this, head);
    terminate();
}

void WorkerProcess::onStderr()
{
    const QByteArray data = m_process.readAllStandardError();
    m_stderr.feed(data, [this](QByteArrayView line, bool cut) {
        logStderrLine(line, cut);
        return true;
    });
}

void WorkerProcess::logStderrLine(QByteArrayView line, bool cut)
{
    m_lastStderrLine = line.first(std::min<qsizetype>(line.size(), 200)).toByteArray();
    if (!m_stderrWindow.isActive()) {
        m_stderrWindow.start(StderrWindow);
        m_stderrLinesInWindow = 0;
    }
    if (++m_stderrLinesInWindow > MaxStderrLinesPerSecond) {
        ++m_stderrDropped;
        return;
    }
    qCInfo(lcWorker).noquote() << "stage" << m_launch.stage << "pid" << m_pid << "stderr:"
                               << quoteForLog(line, MaxStderrLineBytes) + (cut ? QStringLiteral("…") : QString());
}

void WorkerProcess::logDroppedStderr()
{
    if (m_stderrDropped == 0)
        return;
    qCWarning(lcWorker).noquote() << "stage" << m_launch.stage << "pid" << m_pid << "stderr:" << m_stderrDropped
                                  << "lines dropped (more than" << MaxStderrLinesPerSecond << "a second)";
    m_stderrDropped = 0;
}

} // namespace pepsi
