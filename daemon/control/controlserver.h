// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "control/protocol.h"
#include "model/dispatchport.h"

#include <QList>
#include <QLocalServer>
#include <QLockFile>
#include <QObject>
#include <QTimer>
#include <chrono>
#include <memory>
#include <optional>

namespace pepsi {

class ControlConnection;
class DispatchBoard;
class OperatorQueries;

// The bounds of doc/control-protocol.rst, "Limits"; tests shrink them.
struct ControlLimits
{
    qsizetype maxLine = protocol::MaxLine; // bytes, the newline included
    int maxClients = 64;
    qint64 maxQueuedOutput = qint64(1024) * 1024; // bytes queued for one client
    std::chrono::milliseconds tick{1000};
};

// The daemon's control socket (doc/control-protocol.rst): listens on a local
// socket guarded by a lock file beside it, accepts up to maxClients
// connections, numbers and fans out the dispatcher's events to subscribers,
// and sends one `tick` a second while anyone wants it. It sees the daemon
// only through the board it reads, the port it acts through and the
// operator's queries; all three outlive it.
class ControlServer : public QObject
{
    Q_OBJECT

public:
    ControlServer(const DispatchBoard &board, DispatchPort &port, OperatorQueries &operatorQueries,
                  QObject *parent = nullptr);
    ~ControlServer() override;

    void setLimits(const ControlLimits &limits) { m_limits = limits; }
    const ControlLimits &limits() const { return m_limits; }
    // Peers allowed admin commands; by default root and the daemon's own uid.
    void setAdminUids(const QList<uint> &uids) { m_adminUids = uids; }
    bool isAdmin(uint uid) const { return m_adminUids.contains(uid); }

    // Takes the lock beside `path` (a live daemon's socket is never taken; a
    // dead one's is replaced), listens, and sets the socket's mode to 0660.
    // The error says what is in the way.
    std::optional<QString> listen(const QString &path);
    bool isListening() const { return m_server.isListening(); }
    QString socketPath() const { return m_path; }
    void close();

    int clientCount() const { return int(m_connections.size()); }
    quint64 lastSeq() const { return m_seq; }
    const DispatchBoard &board() const { return m_board; }
    DispatchPort &port() { return m_port; }
    OperatorQueries &operatorQueries() { return m_operatorQueries; }

    // Numbers the event and sends it to every subscriber that wants it.
    void publish(const pepsi::DispatchEvent &event);
    // The subscription of some connection changed: start or stop the tick.
    void subscriptionsChanged();

Q_SIGNALS:
    void clientCountChanged(int count);

private:
    void onNewConnection();
    void onClosed(ControlConnection *connection);
    void onTick();
    QJsonObject composeTick();

    const DispatchBoard &m_board;
    DispatchPort &m_port;
    OperatorQueries &m_operatorQueries;
    ControlLimits m_limits;
    QList<uint> m_adminUids;
    QLocalServer m_server;
    std::unique_ptr<QLockFile> m_lock;
    QString m_path;
    QList<ControlConnection *> m_connections; // children
    QTimer m_tick;
    quint64 m_seq = 0;
    std::optional<StatsSnapshot> m_lastTick;
};

// Before the privilege drop: as root, creates the socket's directory when it
// is missing (0750, owned by `account`) so that the daemon can listen there
// as that account. An error names the directory.
std::optional<QString> prepareControlDirectory(const QString &socketPath, const QString &account);

} // namespace pepsi
