// SPDX-License-Identifier: AGPL-3.0-or-later
#include "workers/inputpipe.h"

#include <QSocketNotifier>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <unistd.h>

namespace pepsi {

namespace {

// A write to a pipe whose reader is gone must be an EPIPE, not a signal that
// ends the daemon. The daemon ignores SIGPIPE from its start; QProcess, which
// wrote to the workers before, sets the same once for any program using it.
void ignoreSigpipe()
{
    static const bool done = [] {
        struct sigaction ignore = {};
        ignore.sa_handler = SIG_IGN;
        return ::sigaction(SIGPIPE, &ignore, nullptr) == 0;
    }();
    (void)done;
}

} // namespace

InputPipe::InputPipe(QObject *parent)
    : QObject(parent)
{ }

InputPipe::~InputPipe()
{
    releaseChildEnd();
    closeWriteEnd();
}

bool InputPipe::open(QString *error)
{
    ignoreSigpipe();
    return m_ends.open(PipeEnds::Ours::WriteEnd, error);
}

void InputPipe::adoptAsStdin(int fd)
{
    // dup2 leaves the new descriptor without FD_CLOEXEC, so it survives exec.
    (void)::dup2(fd, STDIN_FILENO);
}

void InputPipe::releaseChildEnd() { m_ends.closeChild(); }

void InputPipe::write(const QByteArray &data)
{
    if (m_ends.ours() < 0 || m_closeWhenFlushed)
        return;
    m_pending += data;
    flush();
}

void InputPipe::close()
{
    m_closeWhenFlushed = true;
    if (m_pending.isEmpty())
        closeWriteEnd();
}

void InputPipe::flush()
{
    while (!m_pending.isEmpty()) {
        const ssize_t n = ::write(m_ends.ours(), m_pending.constData(), size_t(m_pending.size()));
        if (n == m_pending.size()) { // the usual case: all of it at once
            m_pending.clear();
            break;
        }
        if (n > 0) {
            m_pending.remove(0, n);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN) {
            // The reader is behind: wait until the pipe takes more.
            if (!m_writable) {
                m_writable = new QSocketNotifier(m_ends.ours(), QSocketNotifier::Write, this);
                connect(m_writable, &QSocketNotifier::activated, this, &InputPipe::flush);
            }
            m_writable->setEnabled(true);
            return;
        }
        const QString why = QString::fromLocal8Bit(std::strerror(n < 0 ? errno : EIO));
        m_pending.clear();
        closeWriteEnd();
        Q_EMIT broken(why);
        return;
    }
    if (m_writable)
        m_writable->setEnabled(false);
    if (m_closeWhenFlushed)
        closeWriteEnd();
}

void InputPipe::closeWriteEnd()
{
    if (m_writable) {
        m_writable->setEnabled(false);
        m_writable->deleteLater(); // this may run in its own activated()
        m_writable = nullptr;
    }
    m_ends.closeOurs();
}

} // namespace pepsi
