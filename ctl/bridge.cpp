// SPDX-License-Identifier: AGPL-3.0-or-later
#include "bridge.h"

#include "commandline.h"
#include "output.h"

#include <QSocketNotifier>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace pepsi::ctl {

namespace {

// How far one side may run ahead of the other before the bridge stops
// reading it: the slower side's own buffers then hold the rest.
constexpr qsizetype Backlog = 4 * protocol::MaxLine;
constexpr qsizetype ReadChunk = qsizetype(16) * 1024;

QString tooLong(const QString &from)
{
    return QStringLiteral("bridge: %1 sent a line longer than %2 bytes; the bridge ends")
        .arg(from)
        .arg(protocol::MaxLine);
}

} // namespace

Bridge::Bridge(SocketLocation where, QObject *parent)
    : QObject(parent)
    , m_where(std::move(where))
{ }

Bridge::~Bridge() { m_socket.disconnect(this); }

void Bridge::start()
{
    // A client gone (ssh's session ended) is EPIPE on stdout, handled as its end.
    (void)std::signal(SIGPIPE, SIG_IGN);
    // stdout is ssh's pipe, written when it takes more; a terminal stays as it is.
    if (!::isatty(STDOUT_FILENO))
        (void)::fcntl(STDOUT_FILENO, F_SETFL, ::fcntl(STDOUT_FILENO, F_GETFL) | O_NONBLOCK);
    m_socket.setReadBufferSize(protocol::MaxLine);
    connect(&m_socket, &QLocalSocket::connected, this, [this] {
        m_connected = true;
        m_in = new QSocketNotifier(STDIN_FILENO, QSocketNotifier::Read, this);
        connect(m_in, &QSocketNotifier::activated, this, &Bridge::onStdinReadable);
    });
    connect(&m_socket, &QLocalSocket::readyRead, this, &Bridge::onSocketReadable);
    connect(&m_socket, &QLocalSocket::bytesWritten, this, [this] {
        if (m_in && !m_stdinEnded && m_socket.bytesToWrite() < Backlog)
            m_in->setEnabled(true);
    });
    connect(&m_socket, &QLocalSocket::disconnected, this, &Bridge::onSocketGone);
    connect(&m_socket, &QLocalSocket::errorOccurred, this, [this](QLocalSocket::LocalSocketError error) {
        if (!m_connected)
            return finish(ExitUnavailable, QStringLiteral("bridge: ") + describeConnectFailure(m_where));
        if (error != QLocalSocket::PeerClosedError)
            return finish(
                ExitUnavailable,
                QStringLiteral("bridge: the connection to %1 failed: %2").arg(m_where.path, m_socket.errorString()));
        onSocketGone();
    });
    m_out = new QSocketNotifier(STDOUT_FILENO, QSocketNotifier::Write, this);
    m_out->setEnabled(false);
    connect(m_out, &QSocketNotifier::activated, this, &Bridge::onStdoutWritable);
    m_socket.connectToServer(m_where.path);
}

void Bridge::onStdinReadable()
{
    char buffer[ReadChunk];
    // One read after the notifier said so never blocks.
    const ssize_t got = ::read(STDIN_FILENO, buffer, sizeof buffer);
    if (got < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (got <= 0) {
        // The client is done: what it sent goes out, then the socket closes.
        m_stdinEnded = true;
        m_in->setEnabled(false);
        m_socket.disconnectFromServer();
        return;
    }
    const auto outcome = m_fromClient.feed(QByteArrayView(buffer, got), [this](QByteArrayView line) {
        m_socket.write(line.data(), line.size());
        m_socket.write("\n", 1);
        return true;
    });
    if (outcome == protocol::LineFramer::Outcome::TooLong)
        return finish(ExitDataError, tooLong(QStringLiteral("the client (stdin)")));
    if (m_socket.bytesToWrite() >= Backlog)
        m_in->setEnabled(false);
}

void Bridge::onSocketReadable()
{
    for (;;) {
        while (!m_done && m_socket.bytesAvailable() > 0 && m_toClient.size() < Backlog) {
            const QByteArray bytes = m_socket.read(protocol::MaxLine);
            const auto outcome = m_fromDaemon.feed(bytes, [this](QByteArrayView line) {
                m_toClient.append(line.data(), line.size());
                m_toClient.append('\n');
                return true;
            });
            if (outcome == protocol::LineFramer::Outcome::TooLong)
                return finish(ExitDataError, tooLong(QStringLiteral("the daemon on %1").arg(m_where.path)));
        }
        writeOut();
        // Blocked on stdout: the notifier resumes; drained: read on.
        if (m_done || !m_toClient.isEmpty() || m_socket.bytesAvailable() == 0)
            break;
    }
    finishOnceFlushed();
}

void Bridge::onStdoutWritable()
{
    writeOut();
    if (m_toClient.isEmpty())
        onSocketReadable();
}

void Bridge::writeOut()
{
    while (!m_done && !m_toClient.isEmpty()) {
        const ssize_t written = ::write(STDOUT_FILENO, m_toClient.constData(), size_t(m_toClient.size()));
        if (written > 0) {
            m_toClient.remove(0, written);
            continue;
        }
        if (written < 0 && errno == EINTR)
            continue;
        if (written < 0 && errno == EAGAIN) {
            m_out->setEnabled(true);
            return;
        }
        // EPIPE: the client went away in the middle of a reply or an event
        // stream. Under ssh nobody may be left to read this; run by hand, it says why.
        return finish(ExitIoError,
                      QStringLiteral("bridge: the client stopped reading (standard output: %1) with %2 bytes of the "
                                     "daemon's lines undelivered; the bridge ends")
                          .arg(QString::fromLocal8Bit(std::strerror(errno)))
                          .arg(m_toClient.size()));
    }
    m_out->setEnabled(false);
}

void Bridge::onSocketGone()
{
    if (m_socketGone)
        return;
    m_socketGone = true;
    if (m_in)
        m_in->setEnabled(false);
    // What the daemon sent before it closed still goes out.
    onSocketReadable();
}

void Bridge::finishOnceFlushed()
{
    if (m_socketGone && m_toClient.isEmpty() && m_socket.bytesAvailable() == 0)
        finish(ExitOk);
}

void Bridge::finish(int status, const QString &error)
{
    if (m_done)
        return;
    m_done = true;
    if (!error.isEmpty())
        printError(error);
    if (m_in)
        m_in->setEnabled(false);
    m_out->setEnabled(false);
    m_socket.disconnect(this);
    m_socket.abort();
    Q_EMIT finished(status);
}

} // namespace pepsi::ctl
