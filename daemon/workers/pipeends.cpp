// SPDX-License-Identifier: AGPL-3.0-or-later
#include "workers/pipeends.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace pepsi {

namespace {

QString failed(const char *step)
{
    return QStringLiteral("%1 failed: %2").arg(QLatin1String(step), QString::fromLocal8Bit(std::strerror(errno)));
}

// Moves `fd` above the standard descriptors (the copy close-on-exec too);
// -1 when it cannot, with `fd` closed either way.
int aboveStandard(int fd)
{
    if (fd > STDERR_FILENO)
        return fd;
    const int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
    const int savedErrno = errno;
    ::close(fd);
    errno = savedErrno;
    return moved;
}

void closeFd(int &fd)
{
    if (fd >= 0)
        ::close(fd);
    fd = -1;
}

} // namespace

PipeEnds::~PipeEnds()
{
    closeChild();
    closeOurs();
}

bool PipeEnds::open(Ours ours, QString *error)
{
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        *error = failed("pipe2()");
        return false;
    }
    const int readFd = aboveStandard(fds[0]);
    const int writeFd = aboveStandard(fds[1]);
    m_ours = ours == Ours::ReadEnd ? readFd : writeFd;
    m_child = ours == Ours::ReadEnd ? writeFd : readFd;
    if (readFd < 0 || writeFd < 0) {
        *error = failed("moving a pipe end above descriptor 2");
        closeChild();
        closeOurs();
        return false;
    }
    if (::fcntl(m_ours, F_SETFL, O_NONBLOCK) != 0) {
        *error = failed("making our end of the pipe non-blocking");
        closeChild();
        closeOurs();
        return false;
    }
    return true;
}

void PipeEnds::closeChild() { closeFd(m_child); }

void PipeEnds::closeOurs() { closeFd(m_ours); }

} // namespace pepsi
