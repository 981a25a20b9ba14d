// SPDX-License-Identifier: AGPL-3.0-or-later
#include "workers/inputpipe.h"

#include <QSocketNotifier>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace pepsi {

namespace {

// Moves `fd` above the standard descriptors: a pipe end that were 0 would be
// replaced by QProcess's own redirection in the child before we adopt it.
int aboveStandard(int fd)
{
    if (fd > STDERR_FILENO)
        return fd;
    const int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
    ::close(fd);
    return moved;
}

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
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        *error = QString::fromLocal8Bit(std::strerror(errno));
        return false;
    }
    m_readFd = aboveStandard(fds[0]);
    m_writeFd = aboveStandard(fds[1]);
    if (m_readFd < 0 || m_writeFd < 0 || ::fcntl(m_writeFd, F_SETFL, O_NONBLOCK) != 0) {
        *error = QString::fromLocal8Bit(std::strerror(errno));
        releaseChildEnd();
        closeWriteEnd();
        return false;
    }
    return true;
}

void InputPipe::adoptAsStdin(int fd)
{
    // dup2 leaves the new descriptor without FD_CLOEXEC, so it survives exec.
    (void)::dup2(fd, STDIN_FILENO);
}

void InputPipe::releaseChildEnd()
{
    if (m_readFd >= 0)
        ::close(m_readFd);
    m_readFd = -1;
}

void InputPipe::write(const QByteArray &data)
{
    if (m_writeFd < 0 || m_closeWhenFlushed)
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
        const ssize_t n = ::write(m_writeFd, m_pending.constData(), size_t(m_pending.size()));
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
                m_writable = new QSocketNotifier(m_writeFd, QSocketNotifier::Write, this);
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
    if (m_writeFd >= 0)
        ::close(m_writeFd);
    m_writeFd = -1;
}

} // namespace pepsi
