// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

// What the tests of InputPipe and OutputPipe do alike: take the child's end
// as the child does, and open a pipe while standard descriptors are closed.

#include <QString>

#include <fcntl.h>
#include <initializer_list>
#include <unistd.h>
#include <utility>
#include <vector>

namespace pipetest {

// Takes the child's end from `pipe` as the child does: a copy of its own,
// the pipe's released.
template<typename Pipe>
int takeChildEnd(Pipe &pipe)
{
    const int fd = ::fcntl(pipe.childEnd(), F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
    pipe.releaseChildEnd();
    return fd;
}

// Opens `pipe` and takes the child's end as the child does: that end, or -1
// (the reason warned) when the pipe did not open.
template<typename Pipe>
int openAndTakeChildEnd(Pipe &pipe)
{
    QString error;
    if (!pipe.open(&error)) {
        qWarning("opening the pipe failed: %s", qPrintable(error));
        return -1;
    }
    return takeChildEnd(pipe);
}

// Opens `pipe` while the standard descriptors `closed` are, so that the
// system's new pipe gets those numbers; puts them back before it returns.
template<typename Pipe>
bool openWhileClosed(Pipe &pipe, std::initializer_list<int> closed, QString *error)
{
    // All copied before any is closed: a copy would otherwise take the number
    // of one closed before it.
    std::vector<std::pair<int, int>> saved;
    for (const int fd : closed)
        saved.emplace_back(fd, ::fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1));
    for (const int fd : closed)
        ::close(fd);
    const bool opened = pipe.open(error);
    for (const auto &[fd, copy] : saved) {
        ::dup2(copy, fd);
        ::close(copy);
    }
    return opened;
}

} // namespace pipetest
