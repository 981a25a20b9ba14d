// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "control/commandtable.h"
#include "control/lineframer.h"
#include "control/peercredentials.h"

#include <QByteArray>
#include <QObject>
#include <optional>

class QLocalSocket;

namespace pepsi {

class ControlServer;

// One client of the control socket: reads JSON lines (a half line waits, a
// line over the limit closes this connection), answers each request in order,
// and queues events for it if it subscribed. Nothing here blocks: a client
// that does not read fills its output queue and is dropped at the cap.
class ControlConnection : public QObject
{
    Q_OBJECT

public:
    // Takes `socket` over (it becomes a child).
    ControlConnection(QLocalSocket *socket, ControlServer &server);
    ~ControlConnection() override;

    const std::optional<PeerCredentials> &peer() const { return m_peer; }
    const Subscription &subscription() const { return m_subscription; }
    // A serialized event line ("...}\n"), sent if this client asked for `name`.
    void deliver(const QString &name, const QByteArray &line);
    qint64 queuedOutput() const;

Q_SIGNALS:
    // The socket is gone or being closed; the server forgets this connection.
    void closed(pepsi::ControlConnection *connection);

private:
    void onReadyRead();
    void handleLine(const QByteArray &line);
    void send(const QByteArray &line);
    // send() once Qt has closed the socket under a request still being answered.
    void sendLate(const QByteArray &line);
    // Sends `why` as a last error line, then closes once it is written.
    void closeWith(const QString &why);
    void drop(const QString &why);
    void finish();
    QString describe() const;

    QLocalSocket *m_socket;
    ControlServer &m_server;
    std::optional<PeerCredentials> m_peer;
    Subscription m_subscription;
    protocol::LineFramer m_framer;
    QByteArray m_unread;      // read while a request was answered, not yet framed
    bool m_answering = false; // a request is being answered; the next ones wait
    bool m_peerGone = false;  // Qt closed the socket while a request was answered
    int m_lateReplyFd = -1;   // a duplicate of the socket, for the replies owed then
    bool m_closing = false;
    bool m_finished = false;
};

} // namespace pepsi
