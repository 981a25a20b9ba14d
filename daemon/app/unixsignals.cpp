// SPDX-License-Identifier: AGPL-3.0-or-later
#include "app/unixsignals.h"

#include <cerrno>
#include <csignal>
#include <sys/socket.h>
#include <unistd.h>

namespace pepsi {

namespace {

int g_writeFd = -1;

void onSignal(int signalNumber)
{
    const int savedErrno = errno;
    const unsigned char byte = static_cast<unsigned char>(signalNumber);
    [[maybe_unused]] ssize_t ignored = ::write(g_writeFd, &byte, 1);
    errno = savedErrno;
}

} // namespace

UnixSignals::UnixSignals(QObject *parent)
    : QObject(parent)
{ }

UnixSignals::~UnixSignals()
{
    if (m_fds[0] >= 0) {
        for (int sig : {SIGTERM, SIGINT, SIGHUP})
            (void)::signal(sig, SIG_DFL);
        g_writeFd = -1;
        ::close(m_fds[0]);
        ::close(m_fds[1]);
    }
}

bool UnixSignals::install()
{
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, m_fds) != 0)
        return false;
    g_writeFd = m_fds[0];
    m_notifier = std::make_unique<QSocketNotifier>(m_fds[1], QSocketNotifier::Read);
    connect(m_notifier.get(), &QSocketNotifier::activated, this, &UnixSignals::onReadable);

    struct sigaction action = {};
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    for (int sig : {SIGTERM, SIGINT, SIGHUP}) {
        if (::sigaction(sig, &action, nullptr) != 0)
            return false;
    }
    return true;
}

void UnixSignals::onReadable()
{
    unsigned char buffer[64];
    ssize_t count;
    while ((count = ::read(m_fds[1], buffer, sizeof buffer)) > 0) {
        for (ssize_t i = 0; i < count; ++i) {
            if (buffer[i] == SIGHUP)
                Q_EMIT hangup();
            else
                Q_EMIT terminateRequested(buffer[i]);
        }
    }
}

} // namespace pepsi
