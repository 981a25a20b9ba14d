// SPDX-License-Identifier: AGPL-3.0-or-later
#include "workers/outputpipe.h"

#include <QSocketNotifier>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace pepsi {

namespace {

// As InputPipe's: a pipe end that were 1 would be replaced by QProcess's own
// redirection in the child before we adopt it.
int aboveStandard(int fd)
{
    if (fd > STDERR_FILENO)
        return fd;
    const int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
    ::close(fd);
    return moved;
}

// Shared: a buffer per worker would add 64 KiB to the daemon for each.
char sharedBuffer[OutputPipe::ChunkBytes];

} // namespace

OutputPipe::OutputPipe(QObject *parent)
    : QObject(parent)
{ }

OutputPipe::~OutputPipe()
{
    releaseChildEnd();
    close();
}

bool OutputPipe::open(QString *error)
{
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        *error = QString::fromLocal8Bit(std::strerror(errno));
        return false;
    }
    m_readFd = aboveStandard(fds[0]);
    m_writeFd = aboveStandard(fds[1]);
    if (m_readFd < 0 || m_writeFd < 0 || ::fcntl(m_readFd, F_SETFL, O_NONBLOCK) != 0) {
        *error = QString::fromLocal8Bit(std::strerror(errno));
        releaseChildEnd();
        close();
        return false;
    }
    m_readable = new QSocketNotifier(m_readFd, QSocketNotifier::Read, this);
    m_readable->setEnabled(false);
    connect(m_readable, &QSocketNotifier::activated, this, &OutputPipe::readyRead);
    return true;
}

void OutputPipe::watch()
{
    if (m_readable)
        m_readable->setEnabled(true);
}

void OutputPipe::adoptAsStdout(int fd)
{
    // dup2 leaves the new descriptor without FD_CLOEXEC, so it survives exec.
    (void)::dup2(fd, STDOUT_FILENO);
}

void OutputPipe::releaseChildEnd()
{
    if (m_writeFd >= 0)
        ::close(m_writeFd);
    m_writeFd = -1;
}

QByteArrayView OutputPipe::read()
{
    if (m_readFd < 0)
        return {};
    ssize_t n;
    do {
        n = ::read(m_readFd, sharedBuffer, sizeof sharedBuffer);
    } while (n < 0 && errno == EINTR);
    if (n > 0)
        return QByteArrayView(sharedBuffer, n);
    // The end (0) or an error other than EAGAIN: nothing more will come, and
    // a notifier left on would fire on every pass of the event loop.
    if (n == 0 || errno != EAGAIN)
        m_readable->setEnabled(false);
    return {};
}

void OutputPipe::close()
{
    if (m_readable) {
        m_readable->setEnabled(false);
        m_readable->deleteLater(); // this may run in its own activated()
        m_readable = nullptr;
    }
    if (m_readFd >= 0)
        ::close(m_readFd);
    m_readFd = -1;
}

} // namespace pepsi
