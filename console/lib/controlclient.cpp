// SPDX-License-Identifier: AGPL-3.0-or-later
#include "controlclient.h"

#include "policy/backoff.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonParseError>
#include <sys/stat.h>

namespace pepsi::console {

namespace cmd = protocol::cmd;
namespace field = protocol::field;

ControlClient::ControlClient(QObject *parent)
    : QObject(parent)
    , m_socket(new QLocalSocket(this))
{
    // Qt reads no further ahead than a line may be long: a daemon that floods
    // us waits in the kernel, not in this process.
    m_socket->setReadBufferSize(protocol::MaxLine);
    m_reconnect.setSingleShot(true);
    connect(&m_reconnect, &QTimer::timeout, this, &ControlClient::start);
    connect(m_socket, &QLocalSocket::connected, this, &ControlClient::onConnected);
    connect(m_socket, &QLocalSocket::disconnected, this, &ControlClient::onDisconnected);
    connect(m_socket, &QLocalSocket::errorOccurred, this, &ControlClient::onSocketError);
    connect(m_socket, &QLocalSocket::readyRead, this, &ControlClient::onReadyRead);
}

ControlClient::~ControlClient()
{
    // The socket's signals must not reach a half-destroyed client.
    m_socket->disconnect(this);
}

void ControlClient::start()
{
    m_wanted = true;
    m_reconnect.stop();
    if (m_state == State::Connecting || m_state == State::Handshaking || m_state == State::Connected)
        return;
    m_framer.reset();
    m_socket->abort();
    m_peerSpoke = false;
    setState(State::Connecting);
    if (const QString why = checkPath(); !why.isEmpty()) {
        failWrongPeer(why);
        scheduleReconnect();
        return;
    }
    m_socket->connectToServer(m_path);
}

QString ControlClient::checkPath() const
{
    struct stat st
    {
    };
    if (::stat(QFile::encodeName(m_path).constData(), &st) != 0)
        return {}; // missing: the connection attempt says so (the daemon may come)
    if (S_ISDIR(st.st_mode))
        return tr("Cannot talk to the daemon on %1: it is a directory, not a socket (the daemon's socket is "
                  "CONTROL_SOCKET, dispatch.sock in its runtime directory)")
            .arg(m_path);
    if (S_ISREG(st.st_mode))
        return tr("Cannot talk to the daemon on %1: it is a regular file, not a socket").arg(m_path);
    if (!S_ISSOCK(st.st_mode))
        return tr("Cannot talk to the daemon on %1: it is not a socket").arg(m_path);
    return {};
}

void ControlClient::failWrongPeer(const QString &message)
{
    using std::chrono::milliseconds;
    m_retryMs = int(
        Backoff{2 * milliseconds(m_baseInterval), milliseconds(MaxBackoffMs)}.after(milliseconds(m_retryMs)).count());
    // The same message again is not news; the backoff grew all the same.
    if (message == m_lastError)
        return;
    Q_EMIT wrongPeer(message);
    fail(message);
}

void ControlClient::stop()
{
    m_wanted = false;
    m_reconnect.stop();
    setState(State::Disconnected); // first: abort() below reports a disconnect
    m_socket->abort();
    abandonPending(tr("the connection to the daemon was lost"));
}

void ControlClient::abandonPending(const QString &why)
{
    // Whoever waits for an answer gets one: the request is lost with the connection.
    const auto pending = std::exchange(m_pending, {});
    for (const Pending &each : pending) {
        if (each.reply)
            each.reply->finish(false, {}, why);
    }
}

bool ControlClient::isAdmin() const
{
    return m_state == State::Connected && m_version.value(field::Peer).toObject().value(field::Admin).toBool();
}

ControlReply *ControlClient::send(const QString &cmd, const QJsonObject &arguments)
{
    if (m_state != State::Handshaking && m_state != State::Connected)
        return nullptr;
    const qint64 id = m_nextId++;
    QJsonObject request = arguments;
    request.insert(field::Id, id);
    request.insert(field::Cmd, cmd);
    auto *reply = new ControlReply(id, cmd, this);
    m_pending.insert(id, Pending{cmd, reply});
    m_socket->write(QJsonDocument(request).toJson(QJsonDocument::Compact) + '\n');
    return reply;
}

bool ControlClient::post(const QString &cmd, const QJsonObject &arguments)
{
    ControlReply *reply = send(cmd, arguments);
    if (!reply)
        return false;
    connect(reply, &ControlReply::finished, reply, &QObject::deleteLater);
    return true;
}

void ControlClient::refresh()
{
    post(cmd::Status);
    post(cmd::Stages);
    requestWorkers();
}

void ControlClient::setWorkersWanted(bool wanted, bool ids)
{
    m_workersWanted = wanted;
    m_workerIds = ids;
}

bool ControlClient::requestWorkers()
{
    if (!m_workersWanted)
        return false;
    // A daemon that does not know "ids" ignores it and sends them anyway.
    return post(cmd::Workers, m_workerIds ? QJsonObject() : QJsonObject{{field::Ids, false}});
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

void ControlClient::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
    Q_EMIT stateChanged(state);
}

void ControlClient::onConnected()
{
    setState(State::Handshaking);
    post(cmd::Version);
}

void ControlClient::onDisconnected()
{
    if (m_state == State::Incompatible || m_state == State::Disconnected)
        return;
    // What the peer said before it hung up is read first: it tells what the peer is.
    if (m_socket->bytesAvailable() > 0) {
        onReadyRead();
        if (m_state == State::Incompatible || m_state == State::Disconnected)
            return;
    }
    if (m_state == State::Handshaking && !m_peerSpoke)
        // Our daemon answers `version` first thing; a peer that hangs up on
        // it speaks another protocol (PostgreSQL closes on our first line).
        failWrongPeer(tr("%1 closed the connection before answering 'version': not a pepsi-dispatch control "
                         "socket (PostgreSQL's, say)?")
                          .arg(m_path));
    else if (m_state == State::Connected || m_state == State::Handshaking)
        fail(tr("The daemon closed the connection on %1.").arg(m_path));
    scheduleReconnect();
}

void ControlClient::onSocketError(QLocalSocket::LocalSocketError error)
{
    if (m_state == State::Incompatible)
        return;
    if (error == QLocalSocket::PeerClosedError) {
        onDisconnected();
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
                          .arg(m_path));
        scheduleReconnect();
        return;
    default:
        why = m_socket->errorString();
        break;
    }
    fail(tr("Cannot talk to the daemon on %1: %2").arg(m_path, why));
    scheduleReconnect();
}

void ControlClient::scheduleReconnect()
{
    if (m_state != State::Incompatible)
        setState(State::Disconnected); // first: abort() below reports a disconnect
    m_socket->abort();
    m_framer.reset();
    abandonPending(tr("the connection to the daemon was lost"));
    m_haveSeq = false;
    if (m_wanted && m_state != State::Incompatible)
        m_reconnect.start(retryInterval());
}

void ControlClient::fail(const QString &message)
{
    // A daemon that stays away would repeat the same message every second.
    if (message == m_lastError)
        return;
    m_lastError = message;
    Q_EMIT errorOccurred(message);
}

void ControlClient::onReadyRead()
{
    // Whether a long line came in one read or several must not matter: the
    // framer counts across reads.
    while (m_socket->bytesAvailable() > 0) {
        const QByteArray bytes = m_socket->read(protocol::MaxLine);
        const auto outcome = m_framer.feed(bytes, [this](QByteArrayView line) { return handleLine(line); });
        if (outcome == protocol::LineFramer::Outcome::TooLong)
            return failLongLine();
        if (outcome == protocol::LineFramer::Outcome::Stopped)
            return; // the line ended the connection; the rest of what came went with it
    }
}

void ControlClient::failLongLine()
{
    fail(tr("The daemon sent a line longer than %1 bytes; reconnecting.").arg(protocol::MaxLine));
    scheduleReconnect();
}

bool ControlClient::handleLine(QByteArrayView line)
{
    if (line.trimmed().isEmpty())
        return true;
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(line.toByteArray(), &error);
    if (!document.isObject()) {
        const QString why = error.error != QJsonParseError::NoError ? error.errorString() : tr("not a JSON object");
        const QString text = QString::fromUtf8(line.first(std::min<qsizetype>(line.size(), 200)));
        if (m_state == State::Handshaking)
            failWrongPeer(tr("%1 is not a pepsi-dispatch control socket: its first line is not ours (%2): %3")
                              .arg(m_path, why, text));
        else
            fail(tr("The daemon sent a line that is not a protocol message (%1): %2").arg(why, text));
        scheduleReconnect();
        return false;
    }
    const QJsonObject object = document.object();
    m_peerSpoke = true;
    if (object.contains(field::Event))
        handleEvent(object);
    else
        handleReply(object);
    return m_state == State::Handshaking || m_state == State::Connected;
}

void ControlClient::handleReply(const QJsonObject &reply)
{
    const qint64 id = reply.value(field::Id).toInteger();
    const Pending pending = m_pending.take(id);
    const QString &cmd = pending.cmd;
    const bool ok = reply.value(field::Ok).toBool();
    const QJsonValue result = reply.value(field::Result);
    const QString error = reply.value(field::Error).toString();
    if (cmd.isEmpty()) {
        // An error line without our id: the daemon refused the connection (too many clients).
        if (!ok && !error.isEmpty())
            fail(tr("The daemon says: %1").arg(error));
        return;
    }
    if (pending.reply)
        pending.reply->finish(ok, result, error);
    if (!ok) {
        if (cmd == cmd::Version || cmd == cmd::Status || cmd == cmd::Stages || cmd == cmd::Workers
            || cmd == cmd::Subscribe)
            fail(tr("The daemon refused '%1': %2").arg(cmd, error));
        return;
    }
    if (cmd == cmd::Version)
        handleVersion(result.toObject());
    else if (cmd == cmd::Subscribe) {
        m_lastSeq = quint64(result.toObject().value(field::Seq).toInteger());
        m_haveSeq = true;
    } else if (cmd == cmd::Status) {
        Q_EMIT statusReceived(protocol::statusFromJson(result.toObject()));
    } else if (cmd == cmd::Stages) {
        Q_EMIT stagesReceived(protocol::stagesFromJson(result.toObject()));
    } else if (cmd == cmd::Workers) {
        QList<WorkerSnapshot> workers;
        for (const QJsonValue each : result.toArray())
            workers.append(protocol::workerFromJson(each.toObject()));
        Q_EMIT workersReceived(workers);
    }
}

void ControlClient::handleVersion(const QJsonObject &version)
{
    const QJsonValue protocolValue = version.value(field::Protocol);
    if (!protocolValue.isDouble()) {
        setState(State::Incompatible);
        m_socket->abort();
        fail(tr("%1 is not a pepsi-dispatch control socket: its version reply names no protocol.").arg(m_path));
        return;
    }
    const int theirs = protocolValue.toInt();
    if (theirs != protocol::Version) {
        setState(State::Incompatible);
        m_socket->abort();
        m_version = version;
        const QString daemon = version.value(field::Daemon).toString();
        if (theirs < protocol::Version)
            fail(tr("The daemon is older than this console: pepsi-dispatch %1 speaks control protocol %2, "
                    "this console needs %3. Update pepsi-dispatch or use an older console.")
                     .arg(daemon)
                     .arg(theirs)
                     .arg(protocol::Version));
        else
            fail(tr("This console is older than the daemon: pepsi-dispatch %1 speaks control protocol %2, "
                    "this console knows %3. Update pepsi-console.")
                     .arg(daemon)
                     .arg(theirs)
                     .arg(protocol::Version));
        return;
    }
    m_version = version;
    m_lastError.clear();
    m_retryMs = 0;
    setState(State::Connected);
    Q_EMIT versionReceived(version);
    post(cmd::Subscribe);
    refresh();
}

void ControlClient::handleEvent(const QJsonObject &event)
{
    const QJsonValue seqValue = event.value(field::Seq);
    if (seqValue.isDouble()) {
        const auto seq = quint64(seqValue.toInteger());
        // A gap: events were lost (or the daemon dropped some for us), so the
        // picture built from them is stale; a snapshot puts it right.
        const bool gap = m_haveSeq && seq > m_lastSeq + 1;
        m_lastSeq = seq;
        m_haveSeq = true;
        if (gap) {
            post(cmd::Status);
            requestWorkers();
        }
    }
    Q_EMIT eventReceived(event);
}

} // namespace pepsi::console
