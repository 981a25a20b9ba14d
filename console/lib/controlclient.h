// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "control/lineframer.h"
#include "control/snapshotcodec.h" // the snapshots it decodes
#include "control/snapshots.h"
#include "controlreply.h"
#include "transport/target.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QLocalSocket>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>

namespace pepsi::transport {
class ControlChannel;
}

namespace pepsi::console {

// The console's connection to one daemon (doc/control-protocol.rst): reaches
// its target, a socket path or an ssh:// one, through a ControlChannel of
// its own (a new one for each attempt), speaks JSON lines, asks `version` first and refuses a
// daemon of another protocol, subscribes, and fetches a new `status` when the
// event sequence shows a gap. When the connection goes, it tries again every
// reconnect interval until stop(). A path that is not our daemon's socket (a
// directory, a regular file, a socket we may not open, one whose peer does
// not speak the protocol, PostgreSQL's say) is named as such, and tried again
// with a backoff that doubles up to MaxBackoffMs: such a peer should not hear
// from us every second. So is an ssh that fails before the far bridge
// answers (an unknown host key, a refused key, no pepsi-ctl on the far host),
// with ssh's own message; an ssh whose bridge finds no daemon, or one lost
// later, is a daemon that went away, retried every reconnect interval.
// Nothing here blocks.
class ControlClient : public QObject
{
    Q_OBJECT

public:
    enum class State {
        Disconnected, // not connected; a reconnect is scheduled unless stopped
        Connecting,   // connectToServer() sent
        Handshaking,  // connected, waiting for the `version` reply
        Connected,    // version accepted, subscribed
        Incompatible, // the daemon speaks another protocol; not retried
    };
    Q_ENUM(State)

    static constexpr int MaxBackoffMs = 60000;

    explicit ControlClient(QObject *parent = nullptr);
    ~ControlClient() override;

    void setTarget(const transport::Target &target) { m_target = target; }
    const transport::Target &target() const { return m_target; }
    void setSocketPath(const QString &path) { m_target = transport::Target::localSocket(path); }
    // The target as given (a socket's path, an ssh:// URL), for people.
    QString socketPath() const { return m_target.text; }
    void setReconnectInterval(int ms) { m_baseInterval = ms; }
    // How long until the next attempt after the last failure (ms).
    int retryInterval() const { return m_retryMs > 0 ? m_retryMs : m_baseInterval; }
    // The target led to something that is not our daemon, or ssh failed: the retries back off.
    bool isBackingOff() const { return m_retryMs > 0; }

    // Connects, and keeps reconnecting until stop().
    void start();
    void stop();

    State state() const { return m_state; }
    // The last `version` result; empty before the first handshake.
    QJsonObject daemonVersion() const { return m_version; }
    // The daemon accepts admin commands from us (`version` → peer.admin).
    bool isAdmin() const;
    // Why the last connection failed or ended; empty while all is well.
    QString lastError() const { return m_lastError; }
    quint64 lastSeq() const { return m_lastSeq; }

    // Sends a command; its answer comes to the ControlReply returned (the
    // caller's to deleteLater() once finished), and to no one else. nullptr,
    // and nothing sent, when not connected.
    ControlReply *send(const QString &cmd, const QJsonObject &arguments = {});
    // Sends a command whose answer no one waits for (a snapshot the signals
    // below bring to everyone); false when not connected.
    bool post(const QString &cmd, const QJsonObject &arguments = {});
    // Asks for `status`, `stages` and (if wanted) `workers` again.
    void refresh();
    // Whether `workers` is worth asking for (someone shows them), and with
    // each worker's ids or only its `held` count. Wanted, with ids, by default.
    void setWorkersWanted(bool wanted, bool ids);
    bool workersWanted() const { return m_workersWanted; }
    // Asks for `workers` if wanted; whether it did.
    bool requestWorkers();

    // A line for the user: "connected to …", "reconnecting to …" and so on.
    static QString describe(State state);

Q_SIGNALS:
    void stateChanged(pepsi::console::ControlClient::State state);
    void versionReceived(const QJsonObject &version);
    // The snapshots, whoever asked for them (every view shows the latest),
    // decoded by the protocol's codec.
    void statusReceived(const pepsi::StatusSnapshot &status);
    void stagesReceived(const pepsi::StagesSnapshot &stages);
    void workersReceived(const QList<pepsi::WorkerSnapshot> &workers);
    void eventReceived(const QJsonObject &event);
    // Something went wrong that the user should see (connection, protocol, a
    // failed internal request).
    void errorOccurred(const QString &message);
    // The socket is not a pepsi-dispatch control socket (a directory, a file,
    // PostgreSQL's): errorOccurred() too, and the client retries all the same.
    void wrongPeer(const QString &message);
    // ssh failed before the far side answered (ssh's own message): errorOccurred()
    // too, and the client retries with the backoff of wrongPeer().
    void sshFailed(const QString &message);

private:
    void setState(State state);
    void onConnected();
    void onClosed(const QString &why);
    void onChannelFailed(const QString &why);
    void onSocketError(QLocalSocket::LocalSocketError error);
    // ssh did not bring us to the far bridge: say so with ssh's words, and back off.
    void failSsh(const QString &why);
    // The current channel, gone: its signals no longer reach us.
    void dropChannel();
    void onReadyRead();
    // False when the line ended the connection.
    bool handleLine(QByteArrayView line);
    void handleReply(const QJsonObject &reply);
    void handleEvent(const QJsonObject &event);
    void handleVersion(const QJsonObject &version);
    void fail(const QString &message);
    // The target does not lead to our daemon: say why, and back off.
    void failWrongPeer(const QString &message);
    void backOff();
    // Why the socket path cannot be our socket, from the file system ("" when it may be).
    QString checkPath() const;
    void failLongLine();
    void scheduleReconnect();
    // Every request still waiting finishes with `why`.
    void abandonPending(const QString &why);

    transport::ControlChannel *m_channel = nullptr;
    QTimer m_reconnect;
    int m_baseInterval = 1000;
    int m_retryMs = 0;        // > 0: backing off from a peer that is not our daemon
    bool m_peerSpoke = false; // this connection brought a protocol line
    transport::Target m_target;
    State m_state = State::Disconnected;
    bool m_wanted = false;
    protocol::LineFramer m_framer;
    qint64 m_nextId = 1;
    struct Pending
    {
        QString cmd;
        QPointer<ControlReply> reply; // null: the asker gave up on it
    };
    QHash<qint64, Pending> m_pending;
    QJsonObject m_version;
    QString m_lastError;
    quint64 m_lastSeq = 0;
    bool m_haveSeq = false;
    bool m_workersWanted = true;
    bool m_workerIds = true;
};

} // namespace pepsi::console
