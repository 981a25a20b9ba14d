// SPDX-License-Identifier: AGPL-3.0-or-later
#include "controlclient.h"

#include "transport/controlchannel.h"

#include <QJsonDocument>
#include <QJsonParseError>

namespace pepsi::console {

namespace cmd = protocol::cmd;
namespace field = protocol::field;

ControlClient::ControlClient(QObject *parent)
    : QObject(parent)
{
    m_reconnect.setSingleShot(true);
    connect(&m_reconnect, &QTimer::timeout, this, &ControlClient::start);
}

ControlClient::~ControlClient()
{
    // The channel's signals must not reach a half-destroyed client.
    if (m_channel)
        m_channel->disconnect(this);
}

void ControlClient::dropChannel()
{
    if (!m_channel)
        return;
    m_channel->disconnect(this);
    m_channel->abort();
    // Later: this may run inside one of its signals.
    m_channel->deleteLater();
    m_channel = nullptr;
}

void ControlClient::start()
{
    m_wanted = true;
    m_reconnect.stop();
    if (m_state == State::Connecting || m_state == State::Handshaking || m_state == State::Connected)
        return;
    m_framer.reset();
    dropChannel();
    m_peerSpoke = false;
    setState(State::Connecting);
    if (const QString why = m_target.isSsh() ? QString() : checkPath(); !why.isEmpty()) {
        failWrongPeer(why);
        scheduleReconnect();
        return;
    }
    m_channel = new transport::ControlChannel(m_target, this);
    // A closed system's ssh ends in the background: the GUI does not wait for it.
    m_channel->setTeardown(transport::ControlChannel::Teardown::Background);
    connect(m_channel, &transport::ControlChannel::connected, this, &ControlClient::onConnected);
    connect(m_channel, &transport::ControlChannel::readyRead, this, &ControlClient::onReadyRead);
    connect(m_channel, &transport::ControlChannel::closed, this, &ControlClient::onClosed);
    connect(m_channel, &transport::ControlChannel::failed, this, &ControlClient::onChannelFailed);
    m_channel->open();
}

void ControlClient::stop()
{
    m_wanted = false;
    m_reconnect.stop();
    setState(State::Disconnected);
    dropChannel();
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
    m_channel->device()->write(QJsonDocument(request).toJson(QJsonDocument::Compact) + '\n');
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

void ControlClient::scheduleReconnect()
{
    if (m_state != State::Incompatible)
        setState(State::Disconnected);
    dropChannel();
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
    while (m_channel && m_channel->device()->bytesAvailable() > 0) {
        const QByteArray bytes = m_channel->device()->read(protocol::MaxLine);
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
                              .arg(m_target.text, why, text));
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
        dropChannel();
        fail(tr("%1 is not a pepsi-dispatch control socket: its version reply names no protocol.").arg(m_target.text));
        return;
    }
    const int theirs = protocolValue.toInt();
    if (theirs != protocol::Version) {
        setState(State::Incompatible);
        dropChannel();
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
