// SPDX-License-Identifier: AGPL-3.0-or-later
#include "control/controlconnection.h"

#include "control/controllog.h"
#include "control/controlserver.h"

#include <QJsonDocument>
#include <QLocalSocket>
#include <QTimer>
#include <fcntl.h>
#include <memory>
#include <sys/socket.h>
#include <unistd.h>

namespace pepsi {
namespace field = protocol::field;

ControlConnection::ControlConnection(QLocalSocket *socket, ControlServer &server)
    : QObject(&server)
    , m_socket(socket)
    , m_server(server)
    , m_peer(PeerCredentials::ofSocket(socket->socketDescriptor()))
    , m_framer(server.limits().maxLine)
{
    m_socket->setParent(this);
    // Qt reads no further ahead than one line may be long: a flood waits in
    // the kernel, not in this process.
    m_socket->setReadBufferSize(m_server.limits().maxLine);
    // Our own handle on the socket: Qt closes its descriptor when the client
    // half-closes (echo ... | socat), and a request answered later (by the
    // dispatch loop, by the database) is still owed its reply then.
    m_lateReplyFd = int(::fcntl(int(socket->socketDescriptor()), F_DUPFD_CLOEXEC, 3));
    connect(m_socket, &QLocalSocket::readyRead, this, &ControlConnection::onReadyRead);
    connect(m_socket, &QLocalSocket::disconnected, this, &ControlConnection::finish);
    connect(m_socket, &QLocalSocket::errorOccurred, this, [this](QLocalSocket::LocalSocketError error) {
        if (error != QLocalSocket::PeerClosedError)
            qCDebug(lcControl).noquote() << describe() << "socket error:" << m_socket->errorString();
        finish();
    });
    qCDebug(lcControl).noquote() << describe() << "connected";
}

ControlConnection::~ControlConnection()
{
    // Destroying the socket may still signal; this object is no longer there to hear it.
    m_socket->disconnect(this);
    if (m_lateReplyFd >= 0)
        ::close(m_lateReplyFd);
}

QString ControlConnection::describe() const
{
    if (!m_peer)
        return QStringLiteral("client (peer unknown)");
    return QStringLiteral("client uid %1 pid %2").arg(m_peer->uid).arg(m_peer->pid);
}

qint64 ControlConnection::queuedOutput() const { return m_socket->bytesToWrite(); }

void ControlConnection::onReadyRead()
{
    // While a request is answered later, the lines after it
    // wait: in the socket's bounded buffer, then in the kernel, so that the
    // replies keep the order of the requests and a flood costs the client
    // time, not the daemon memory.
    if (m_closing || m_answering)
        return;
    // Bytes that came while a request was answered are fed first; the socket
    // is read only once they hold no whole line, so that what this
    // connection keeps stays under two lines whatever the client sends.
    QByteArray input = std::exchange(m_unread, {});
    if (!m_peerGone && !input.contains('\n'))
        input += m_socket->readAll();
    const auto outcome = m_framer.feed(input, [this](QByteArrayView line) {
        handleLine(line.toByteArray());
        return !m_closing && !m_answering;
    });
    // A line over the limit, or one that cannot end within it any more.
    if (outcome == protocol::LineFramer::Outcome::TooLong)
        return closeWith(QStringLiteral("request line longer than %1 bytes; closing").arg(m_framer.maxLine()));
    if (m_closing)
        return;
    if (outcome == protocol::LineFramer::Outcome::Stopped) {
        m_unread = input.mid(m_framer.consumed());
    } else if (m_peerGone) {
        finish(); // every whole line it sent is answered
    } else if (m_socket->bytesAvailable() > 0) {
        // Left in the socket's buffer while whole lines waited here: no
        // readyRead will announce it again.
        QTimer::singleShot(0, this, &ControlConnection::onReadyRead);
    }
}

void ControlConnection::handleLine(const QByteArray &line)
{
    if (line.trimmed().isEmpty())
        return;
    const bool wasActive = m_subscription.active;
    const QSet<QString> wasEvents = m_subscription.events;
    CommandContext context{m_server.board(),
                           m_server.port(),
                           m_server.operatorQueries(),
                           m_peer.value_or(PeerCredentials{uint(-1), 0}),
                           m_peer && m_server.isAdmin(m_peer->uid),
                           m_subscription,
                           m_server.lastSeq(),
                           this,
                           m_server.limits().maxLine};
    m_answering = true;
    const auto later = std::make_shared<bool>(false);
    runRequest(line, context, [this, later](const QByteArray &reply) {
        send(reply);
        m_answering = false;
        // An answer that came later: go on with what the client sent meanwhile.
        if (*later)
            QTimer::singleShot(0, this, &ControlConnection::onReadyRead);
    });
    *later = true;
    if (wasActive != m_subscription.active || wasEvents != m_subscription.events)
        m_server.subscriptionsChanged();
}

void ControlConnection::deliver(const QString &name, const QByteArray &line)
{
    // A client that went gets the replies it is owed, not events.
    if (!m_closing && !m_peerGone && m_subscription.wants(name))
        send(line);
}

void ControlConnection::send(const QByteArray &line)
{
    if (m_closing)
        return;
    if (m_peerGone)
        return sendLate(line);
    if (m_socket->bytesToWrite() + line.size() > m_server.limits().maxQueuedOutput)
        return drop(
            QStringLiteral("does not read its replies or events (%1 bytes queued)").arg(m_socket->bytesToWrite()));
    m_socket->write(line);
    // Now rather than at the next loop pass: a client that half-closes after
    // its request (echo ... | socat) makes Qt close the socket on that EOF,
    // and what was still buffered would be lost. flush() does not block.
    m_socket->flush();
}

void ControlConnection::sendLate(const QByteArray &line)
{
    // Never waits: every other client of this thread would wait with it. A
    // half-closed client that still reads has room in its socket for a
    // reply; once a line does not go out whole, nothing more follows it.
    if (m_lateReplyFd < 0)
        return;
    const ssize_t sent = ::send(m_lateReplyFd, line.constData(), size_t(line.size()), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (sent != ssize_t(line.size())) {
        ::close(m_lateReplyFd);
        m_lateReplyFd = -1;
    }
}

void ControlConnection::closeWith(const QString &why)
{
    qCWarning(lcControl).noquote() << describe() << why;
    const QJsonObject reply{{field::Id, QJsonValue::Null}, {field::Ok, false}, {field::Error, why}};
    send(QJsonDocument(reply).toJson(QJsonDocument::Compact) + '\n');
    m_closing = true;
    m_framer.reset();
    m_socket->disconnectFromServer();
    if (m_socket->state() == QLocalSocket::UnconnectedState)
        return finish();
    // The last line waits for the client to read it, but not for ever.
    QTimer::singleShot(std::chrono::seconds(1), this, [this] {
        m_socket->abort();
        finish();
    });
}

void ControlConnection::drop(const QString &why)
{
    qCWarning(lcControl).noquote() << describe() << why << "; dropping it";
    m_closing = true;
    m_framer.reset();
    m_socket->abort();
    finish();
}

void ControlConnection::finish()
{
    if (m_finished)
        return;
    // The client stopped sending (or went) with requests not yet answered:
    // answer them (Qt has closed its descriptor; ours is still open), then finish.
    const bool owed = m_answering || !m_unread.isEmpty() || m_socket->bytesAvailable() > 0;
    if (owed && !m_closing && m_lateReplyFd >= 0 && m_socket->bytesToWrite() == 0) {
        if (!m_peerGone) {
            m_unread += m_socket->readAll();
            m_peerGone = true;
            if (!m_answering)
                QTimer::singleShot(0, this, &ControlConnection::onReadyRead);
        }
        if (m_answering || !m_unread.isEmpty())
            return;
    }
    m_finished = true;
    m_closing = true;
    qCDebug(lcControl).noquote() << describe() << "gone";
    Q_EMIT closed(this);
}

} // namespace pepsi
