// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

// What the tests of EpollDispatcher share: a main() that runs the test on
// it, as pepsi-dispatch's main() does, and a pipe to watch.

#include "loop/epolldispatcher.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QTest>

#include <fcntl.h>
#include <unistd.h>

namespace epolltest {

// Both ends of a pipe, closed with the test; -1 once closed.
struct Pipe
{
    int read = -1;
    int write = -1;
    Pipe()
    {
        int fds[2];
        if (::pipe2(fds, O_CLOEXEC | O_NONBLOCK) == 0) {
            read = fds[0];
            write = fds[1];
        }
    }
    ~Pipe()
    {
        closeRead();
        closeWrite();
    }
    void closeRead() { closeEnd(read); }
    void closeWrite() { closeEnd(write); }
    static void closeEnd(int &fd)
    {
        if (fd >= 0)
            ::close(fd);
        fd = -1;
    }
    void fill() const
    {
        const QByteArray block(4096, 'x');
        while (::write(write, block.constData(), size_t(block.size())) > 0) { }
    }
    void drain() const
    {
        char buffer[4096];
        while (::read(read, buffer, sizeof buffer) > 0) { }
    }
};

} // namespace epolltest

// QTEST_GUILESS_MAIN with the dispatcher installed before the application.
#define PEPSI_EPOLL_TEST_MAIN(TestObject)                                                                              \
    int main(int argc, char **argv)                                                                                    \
    {                                                                                                                  \
        QCoreApplication::setEventDispatcher(new pepsi::EpollDispatcher);                                              \
        QCoreApplication app(argc, argv);                                                                              \
        TestObject test;                                                                                               \
        QTEST_SET_MAIN_SOURCE_PATH                                                                                     \
        return QTest::qExec(&test, argc, argv);                                                                        \
    }
