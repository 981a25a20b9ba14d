// SPDX-License-Identifier: AGPL-3.0-or-later
#include "workers/outputpipe.h"

#include <QSocketNotifier>
#include <cerrno>
#include <unistd.h>

namespace pepsi {

namespace {

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
    if (!m_ends.open(PipeEnds::Ours::ReadEnd, error))
        return false;
    m_readable = new QSocketNotifier(m_ends.ours(), QSocketNotifier::Read, this);
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

void OutputPipe::releaseChildEnd() { m_ends.closeChild(); }

QByteArrayView OutputPipe::read()
{
    if (m_ends.ours() < 0)
        return {};
    ssize_t n;
    do {
        n = ::read(m_ends.ours(), sharedBuffer, sizeof sharedBuffer);
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
    m_ends.closeOurs();
}

} // namespace pepsi
