// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "control/lineframer.h"
#include "socketlocation.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QObject>
#include <QQueue>
#include <QTimer>
#include <chrono>
#include <functional>

namespace pepsi::transport {
class ControlChannel;
}

namespace pepsi::ctl {

// One connection to the daemon's control socket for one pepsi-ctl run, local
// or through ssh (transport::ControlChannel): connect, then requests answered in order (JSON lines through the shared
// LineFramer), and events once subscribed. Every wait is bounded: connecting
// and each reply must come within the timeout; only the events that follow
// a subscription are waited for without end. Anything that is not a proper
// reply (the connection refused, closed or timed out, a line that is not a
// protocol message or is too long) is failed(), once; the client is done then.
class Client : public QObject
{
    Q_OBJECT

public:
    struct Reply
    {
        bool ok = false;
        QJsonValue result;
        QString error;
    };
    using ReplyHandler = std::function<void(const Reply &)>;

    Client(SocketLocation where, std::chrono::milliseconds timeout, QObject *parent = nullptr);
    ~Client() override;

    const SocketLocation &location() const { return m_where; }
    void connectToDaemon();
    // Sends {"id": N, "cmd": cmd, ...arguments}; onReply gets the answer. The
    // request is refused here (failed()) if its line would pass the limit.
    void request(const QString &cmd, const QJsonObject &arguments, ReplyHandler onReply);
    // After a subscription: no deadline while no request is outstanding.
    void setFollowing(bool following);

Q_SIGNALS:
    void connected();
    void eventReceived(const QJsonObject &event);
    // The connection is unusable; `message` is one line for stderr.
    void failed(const QString &message);

private:
    void onReadyRead();
    void onClosed(const QString &why);
    void onFailed(const QString &why);
    bool handleLine(QByteArrayView line);
    void fail(const QString &message);
    void armDeadline();
    QString pendingCommand() const;

    SocketLocation m_where;
    std::chrono::milliseconds m_timeout;
    transport::ControlChannel *m_channel;
    QTimer m_deadline;
    protocol::LineFramer m_framer;
    struct Pending
    {
        qint64 id;
        QString cmd;
        ReplyHandler onReply;
    };
    QQueue<Pending> m_pending;
    qint64 m_nextId = 1;
    bool m_connected = false;
    bool m_gotLine = false; // a whole line came: the peer speaks a line protocol
    bool m_failed = false;
    bool m_following = false;
};

} // namespace pepsi::ctl
