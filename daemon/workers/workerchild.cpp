// SPDX-License-Identifier: AGPL-3.0-or-later
#include "workers/workerchild.h"

#include <QByteArray>
#include <QStringBuilder>
#include <csignal>
#include <fcntl.h>
#include <linux/close_range.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

namespace pepsi::workerchild {

namespace {

// Read between fork and exec: set once at start, before any worker.
rlimit g_startFileLimit{RLIM_INFINITY, RLIM_INFINITY};
bool g_fileLimitRaised = false;

} // namespace

qint64 raiseOpenFileLimit()
{
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= limit.rlim_max)
        return -1;
    const rlimit raised{limit.rlim_max, limit.rlim_max};
    if (::setrlimit(RLIMIT_NOFILE, &raised) != 0)
        return -1;
    g_startFileLimit = limit;
    g_fileLimitRaised = true;
    return qint64(limit.rlim_cur);
}

void prepare()
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
    if (g_fileLimitRaised)
        (void)::setrlimit(RLIMIT_NOFILE, &g_startFileLimit);
}

// The pipe is reached through /proc (we gave our read end to the child);
// opening a read end for FIONREAD consumes nothing.
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

} // namespace pepsi::workerchild
