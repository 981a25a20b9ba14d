// SPDX-License-Identifier: AGPL-3.0-or-later
#include "workers/workerprocess.h"

#include "model/logcategories.h"
#include "workers/processgroup.h"
#include "workers/workerchild.h"

#include <csignal>

namespace pepsi {

namespace {

// The head of a status line that is kept: a failure keeps 1000 bytes of its
// reason; a success line with its fused-stage reports stays far below this.
constexpr qsizetype MaxStatusLineBytes = qsizetype(16) * 1024;
// At its exit, what a worker wrote is read up to this many pipe's worths:
// more can only come from a process of its own that still holds its stdout.
constexpr int MaxChunksAtExit = 16;
// While a new worker has not read its first ids (configuration, database
// connection), nothing it holds is timed; this is how often it is looked at.
constexpr std::chrono::milliseconds StartProbeInterval{50};

} // namespace

WorkerProcess::WorkerProcess(const WorkerLaunch &launch, QObject *parent)
    : QObject(parent)
    , m_launch(launch)
    , m_ending(m_process, launch.terminateGrace, this)
    , m_stderr(launch.stage, this)
    , m_stdout(MaxStatusLineBytes)
{
    m_watchdog.setSingleShot(true);
    m_startProbe.setInterval(StartProbeInterval);
    connect(&m_watchdog, &QTimer::timeout, this, &WorkerProcess::onWatchdog);
    connect(&m_ending, &WorkerEnding::graceOver, this, &WorkerProcess::onGraceOver);
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
    connect(&m_input, &InputPipe::broken, this, [this](const QString &why) {
        // Most often it is exiting (a crash, a failed start) and finished() is
        // on its way: that says what happened. One that lives on without its
        // input can never answer what it holds; the grace decides which it was.
        if (m_state != State::Exited)
            m_ending.inputLost(why);
    });
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
    connect(&m_process, &QProcess::readyReadStandardError, this,
            [this] { m_stderr.feed(m_process.readAllStandardError()); });
    connect(&m_process, &QProcess::finished, this, &WorkerProcess::onFinished);
    connect(&m_process, &QProcess::errorOccurred, this, &WorkerProcess::onErrorOccurred);
}

WorkerProcess::~WorkerProcess()
{
    // Only reached for a live process when the daemon is torn down without a
    // shutdown (QProcess then kills and reaps it); its reports go nowhere.
    // Its group first, while the leader is still unreaped.
    m_process.disconnect(this);
    if (m_process.state() != QProcess::NotRunning)
        processgroup::signal(m_pid, SIGKILL);
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
        workerchild::prepare();
    });
    m_process.start(QIODevice::ReadOnly | QIODevice::Unbuffered);
    m_input.releaseChildEnd();
    m_output.releaseChildEnd();
    // QProcess knows the pid once it has forked; started() comes later, from
    // the event loop, and a snapshot taken in between must not say pid 0.
    m_pid = m_process.processId();
    processgroup::adopt(m_pid);
    m_stderr.setPid(m_pid);
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
    const int unread = workerchild::unreadInput(m_pid);
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

void WorkerProcess::closeInput(std::chrono::milliseconds grace)
{
    if (m_state == State::Exited)
        return;
    m_state = State::Stopping;
    m_input.close();
    m_ending.allowGrace(grace);
}

void WorkerProcess::terminate()
{
    if (m_state == State::Exited || m_ending.isTerminating())
        return;
    m_state = State::Stopping;
    m_ending.terminate();
}

void WorkerProcess::onGraceOver()
{
    if (!m_ending.inputLostReason().isEmpty() && m_state != State::Exited)
        qCWarning(lcWorker).noquote()
            << "stage" << m_launch.stage << "pid" << m_pid
            << QStringLiteral("stopped reading its input (%1) and did not exit within").arg(m_ending.inputLostReason())
            << m_launch.terminateGrace.count() << "ms; stopping it";
    terminate();
}

void WorkerProcess::onFinished(int exitCode, QProcess::ExitStatus status)
{
    // What it started goes with it, however it ended (a crash, our signal, a
    // clean exit after its input closed): a helper left behind would hold its
    // pipes and run on unsupervised. Now, in QProcess's reap's call chain
    // (processgroup.cpp says why that is safe).
    if (processgroup::signal(m_pid, SIGKILL))
        qCInfo(lcWorker).noquote() << "stage" << m_launch.stage << "pid" << m_pid
                                   << "left processes in its process group; killed them";
    // Lines that arrived together with the exit.
    for (int chunk = 0; chunk < MaxChunksAtExit && consumeStdout(); ++chunk) { }
    m_stderr.feed(m_process.readAllStandardError());
    m_stderr.finish();
    WorkerExit::Facts facts;
    facts.exitCode = exitCode;
    facts.crashed = status == QProcess::CrashExit;
    facts.heldIds = !m_inFlight.empty();
    facts.answered = m_answered;
    facts.startTimedOut = m_startTimedOut;
    facts.condemned = m_condemned;
    facts.signalled = m_ending.signalSent() != 0;
    facts.inputClosed = m_state == State::Stopping;
    facts.startTimeout = m_launch.startTimeout;
    facts.lastStderrLine = m_stderr.lastLine();
    finish(WorkerExit::classify(facts));
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
    m_ending.exited();
    m_startProbe.stop();
    m_startDeadline.stop();
    m_stderr.stop();
    m_output.close();
    const Tickets unanswered(m_inFlight.begin(), m_inFlight.end());
    m_inFlight.clear();
    qCDebug(lcWorker).noquote() << "stage" << m_launch.stage << "pid" << m_pid << "exited"
                                << (exit.cause.isEmpty() ? QStringLiteral("cleanly") : exit.cause);
    Q_EMIT exited(this, unanswered, exit);
}

WorkerSnapshot WorkerProcess::snapshot(qint64 maxRuntimeMs) const
{
    WorkerSnapshot snapshot;
    snapshot.pid = m_pid;
    snapshot.stage = m_launch.stage;
    switch (m_state) {
    case State::Starting:
        snapshot.state = WorkerSnapshot::State::Starting;
        break;
    case State::Running:
        snapshot.state = WorkerSnapshot::State::Running;
        break;
    case State::Stopping:
    case State::Exited:
        snapshot.state = WorkerSnapshot::State::Stopping;
        break;
    }
    snapshot.retiring = m_retiring;
    snapshot.messages = m_answered;
    snapshot.uptimeMs = m_life.timer.elapsed();
    for (const Ticket &ticket : m_inFlight)
        snapshot.ids.append(ticket.id);
    if (!m_inFlight.empty() && m_state == State::Running && m_headClock.isValid())
        snapshot.headAgeMs = m_headClock.elapsed();
    snapshot.maxRuntimeMs = maxRuntimeMs;
    return snapshot;
}

} // namespace pepsi
