// SPDX-License-Identifier: AGPL-3.0-or-later
#include "workers/workerending.h"

#include "workers/processgroup.h"

#include <csignal>

namespace pepsi {

WorkerEnding::WorkerEnding(QProcess &process, std::chrono::milliseconds terminateGrace, QObject *parent)
    : QObject(parent)
    , m_process(process)
    , m_terminateGrace(terminateGrace)
{
    m_killTimer.setSingleShot(true);
    m_graceTimer.setSingleShot(true);
    connect(&m_killTimer, &QTimer::timeout, this, [this] {
        m_signalSent = SIGKILL;
        processgroup::signal(m_process.processId(), SIGKILL);
    });
    connect(&m_graceTimer, &QTimer::timeout, this, &WorkerEnding::graceOver);
}

void WorkerEnding::allowGrace(std::chrono::milliseconds grace)
{
    if (!m_graceTimer.isActive() && !m_killTimer.isActive())
        m_graceTimer.start(grace);
}

void WorkerEnding::inputLost(const QString &why)
{
    // Already being stopped (its input closed, or a signal sent): that
    // grace, and its own account, stand.
    if (m_graceTimer.isActive() || m_killTimer.isActive())
        return;
    m_inputLost = why;
    m_graceTimer.start(m_terminateGrace);
}

void WorkerEnding::terminate()
{
    m_graceTimer.stop();
    m_signalSent = SIGTERM;
    processgroup::signal(m_process.processId(), SIGTERM);
    m_killTimer.start(m_terminateGrace);
}

void WorkerEnding::exited()
{
    m_killTimer.stop();
    m_graceTimer.stop();
}

} // namespace pepsi
