// SPDX-License-Identifier: AGPL-3.0-or-later
// ControlClient: why a connection could not be made or was lost, in words
// for the operator, and what follows (a reconnect, a backoff).
#include "controlclient.h"

#include "policy/backoff.h"
#include "transport/controlchannel.h"

#include <QFile>
#include <QProcess>
#include <sys/stat.h>

namespace pepsi::console {

namespace {

// What `pepsi-ctl bridge` exits with when no daemon answers on the far socket
// (doc/man/pepsi-ctl.rst): the daemon is away, ssh itself did its part.
constexpr int BridgeFoundNoDaemon = 69;

} // namespace

QString ControlClient::checkPath() const
{
    struct stat st
    {
    };
    if (::stat(QFile::encodeName(m_target.socketPath).constData(), &st) != 0)
        return {}; // missing: the connection attempt says so (the daemon may come)
    if (S_ISDIR(st.st_mode))
        return tr("Cannot talk to the daemon on %1: it is a directory, not a socket (the daemon's socket is "
                  "CONTROL_SOCKET, dispatch.sock in its runtime directory)")
            .arg(m_target.text);
    if (S_ISREG(st.st_mode))
        return tr("Cannot talk to the daemon on %1: it is a regular file, not a socket").arg(m_target.text);
    if (!S_ISSOCK(st.st_mode))
        return tr("Cannot talk to the daemon on %1: it is not a socket").arg(m_target.text);
    return {};
}

void ControlClient::backOff()
{
    using std::chrono::milliseconds;
    m_retryMs = int(
        Backoff{2 * milliseconds(m_baseInterval), milliseconds(MaxBackoffMs)}.after(milliseconds(m_retryMs)).count());
}

void ControlClient::failWrongPeer(const QString &message)
{
    backOff();
    // The same message again is not news; the backoff grew all the same.
    if (message == m_lastError)
        return;
    Q_EMIT wrongPeer(message);
    fail(message);
}

void ControlClient::failSsh(const QString &why)
{
    // Host keys and authorized keys are not mended in a second: sshd need
    // not hear from us that often.
    backOff();
    const QString message = tr("Cannot reach the daemon through %1: %2").arg(m_target.text, why);
    if (message == m_lastError)
        return;
    Q_EMIT sshFailed(message);
    fail(message);
}

QString ControlClient::describe(State state)
{
    switch (state) {
    case State::Disconnected:
        return tr("Disconnected");
    case State::Connecting:
        return tr("Connecting");
    case State::Handshaking:
        return tr("Connecting (handshake)");
    case State::Connected:
        return tr("Connected");
    case State::Incompatible:
        return tr("Incompatible daemon");
    }
    return {};
}

void ControlClient::onClosed(const QString &why)
{
    if (m_state == State::Incompatible || m_state == State::Disconnected)
        return;
    // What the peer said before it hung up is read first: it tells what the peer is.
    if (m_channel->device()->bytesAvailable() > 0) {
        onReadyRead();
        if (m_state == State::Incompatible || m_state == State::Disconnected)
            return;
    }
    const auto *ssh = qobject_cast<const QProcess *>(m_channel->device());
    if (ssh && !m_peerSpoke && ssh->exitCode() != BridgeFoundNoDaemon)
        // Nothing came from the far side: ssh (or the far shell) stopped us.
        failSsh(why.isEmpty() ? tr("ssh ended before the far side answered") : why);
    else if (ssh && !m_peerSpoke)
        fail(tr("Cannot talk to the daemon through %1: %2").arg(m_target.text, why));
    else if (m_state == State::Handshaking && !m_peerSpoke)
        // Our daemon answers `version` first thing; a peer that hangs up on
        // it speaks another protocol (PostgreSQL closes on our first line).
        failWrongPeer(tr("%1 closed the connection before answering 'version': not a pepsi-dispatch control "
                         "socket (PostgreSQL's, say)?")
                          .arg(m_target.text));
    else if (m_state == State::Connected || m_state == State::Handshaking)
        fail(tr("The daemon closed the connection on %1.").arg(m_target.text));
    scheduleReconnect();
}

void ControlClient::onChannelFailed(const QString &why)
{
    if (m_target.isSsh()) {
        failSsh(why); // ssh did not start
        scheduleReconnect();
    } else if (const auto *socket = qobject_cast<const QLocalSocket *>(m_channel->device())) {
        onSocketError(socket->error());
    }
}

void ControlClient::onSocketError(QLocalSocket::LocalSocketError error)
{
    if (m_state == State::Incompatible)
        return;
    if (error == QLocalSocket::PeerClosedError) {
        onClosed({});
        return;
    }
    // Qt's own strings for these are about its API ("Invalid name"), not the situation.
    QString why;
    switch (error) {
    case QLocalSocket::ServerNotFoundError:
        why = tr("no such socket (is pepsi-dispatch running, with this CONTROL_SOCKET?)");
        break;
    case QLocalSocket::ConnectionRefusedError:
        why = tr("nothing listens on it (a daemon that died left it behind?)");
        break;
    case QLocalSocket::SocketAccessError:
        // Retrying will not change our groups: back off.
        failWrongPeer(tr("Cannot talk to the daemon on %1: permission denied (the socket is for root, the "
                         "service account and its group)")
                          .arg(m_target.text));
        scheduleReconnect();
        return;
    default:
        why = m_channel->device()->errorString();
        break;
    }
    fail(tr("Cannot talk to the daemon on %1: %2").arg(m_target.text, why));
    scheduleReconnect();
}

} // namespace pepsi::console
