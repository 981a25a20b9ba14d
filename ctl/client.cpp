// SPDX-License-Identifier: AGPL-3.0-or-later
#include "client.h"

#include "control/protocol.h"
#include "transport/controlchannel.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonParseError>

namespace pepsi::ctl {

namespace field = protocol::field;

namespace {

// The commands whose effect is in doubt when their reply never comes.
bool changesState(const QString &cmd)
{
    namespace c = protocol::cmd;
    return cmd == c::Drain || cmd == c::Resume || cmd == c::Requeue || cmd == c::Set || cmd == c::Reload;
}

// A peer that hangs up on the first request without a line of its own speaks
// another protocol: PostgreSQL's socket (a server's .s.PGSQL.PORT, given as
// --socket) reads our line as a bad startup packet and closes.
QString notOurSocket(const QString &path, const QString &cmd)
{
    if (QFileInfo(path).fileName().startsWith(QLatin1String(".s.PGSQL.")))
        return QStringLiteral("%1 is PostgreSQL's socket, not pepsi-dispatch's control socket: it closed the "
                              "connection on '%2' (the daemon's socket is CONTROL_SOCKET in its configuration, "
                              "dispatch.sock in its runtime directory)")
            .arg(path, cmd);
    return QStringLiteral("%1 closed the connection before it answered '%2': not a pepsi-dispatch control socket "
                          "(PostgreSQL's, say)?")
        .arg(path, cmd);
}

} // namespace

Client::Client(SocketLocation where, std::chrono::milliseconds timeout, QObject *parent)
    : QObject(parent)
    , m_where(std::move(where))
    , m_timeout(timeout)
    , m_channel(new transport::ControlChannel(m_where.target(), this))
{
    m_deadline.setSingleShot(true);
    connect(&m_deadline, &QTimer::timeout, this, [this] {
        if (!m_connected)
            return fail(QStringLiteral("no daemon at %1: connecting took longer than %2 ms")
                            .arg(m_where.path)
                            .arg(m_timeout.count()));
        fail(QStringLiteral("the daemon on %1 did not answer '%2' within %3 ms")
                 .arg(m_where.path, pendingCommand())
                 .arg(m_timeout.count()));
    });
    connect(m_channel, &transport::ControlChannel::connected, this, [this] {
        m_connected = true;
        m_deadline.stop();
        Q_EMIT connected();
    });
    connect(m_channel, &transport::ControlChannel::readyRead, this, &Client::onReadyRead);
    connect(m_channel, &transport::ControlChannel::closed, this, &Client::onClosed);
    connect(m_channel, &transport::ControlChannel::failed, this, &Client::onFailed);
}

Client::~Client() { m_channel->disconnect(this); }

void Client::connectToDaemon()
{
    m_deadline.start(m_timeout);
    m_channel->open();
}

void Client::request(const QString &cmd, const QJsonObject &arguments, ReplyHandler onReply)
{
    if (m_failed)
        return;
    const qint64 id = m_nextId++;
    QJsonObject request = arguments;
    request.insert(field::Id, id);
    request.insert(field::Cmd, cmd);
    const QByteArray line = QJsonDocument(request).toJson(QJsonDocument::Compact);
    if (!protocol::fitsInLine(line.size()))
        return fail(QStringLiteral("the '%1' request would be %2 bytes, more than a line may carry (%3)")
                        .arg(cmd)
                        .arg(line.size() + 1)
                        .arg(protocol::MaxLine));
    m_pending.enqueue({id, cmd, std::move(onReply)});
    m_channel->device()->write(line + '\n');
    armDeadline();
}

void Client::setFollowing(bool following)
{
    m_following = following;
    armDeadline();
}

void Client::armDeadline()
{
    if (m_pending.isEmpty() && m_following)
        m_deadline.stop();
    else if (!m_pending.isEmpty())
        m_deadline.start(m_timeout);
}

QString Client::pendingCommand() const { return m_pending.isEmpty() ? QString() : m_pending.head().cmd; }

void Client::onReadyRead()
{
    QIODevice *device = m_channel->device();
    while (!m_failed && device->bytesAvailable() > 0) {
        const QByteArray bytes = device->read(protocol::MaxLine);
        const auto outcome = m_framer.feed(bytes, [this](QByteArrayView line) { return handleLine(line); });
        if (outcome == protocol::LineFramer::Outcome::TooLong)
            return fail(QStringLiteral("the daemon on %1 sent a line longer than %2 bytes")
                            .arg(m_where.path)
                            .arg(protocol::MaxLine));
        if (outcome == protocol::LineFramer::Outcome::Stopped)
            return;
    }
}

bool Client::handleLine(QByteArrayView line)
{
    m_gotLine = true;
    if (line.trimmed().isEmpty())
        return true;
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(line.toByteArray(), &error);
    if (!document.isObject()) {
        fail(QStringLiteral("%1 does not speak the pepsi control protocol (it sent: %2)")
                 .arg(m_where.path, QString::fromUtf8(line.first(std::min<qsizetype>(line.size(), 120))).simplified()));
        return false;
    }
    const QJsonObject object = document.object();
    if (object.contains(field::Event)) {
        Q_EMIT eventReceived(object);
        return !m_failed;
    }
    const QJsonValue id = object.value(field::Id);
    if (m_pending.isEmpty() || id.toInteger(-1) != m_pending.head().id) {
        // A refusal without our id: the daemon turned the connection away (too many clients).
        const QString said = object.value(field::Error).toString();
        fail(said.isEmpty() ? QStringLiteral("the daemon on %1 sent a reply to no request of ours").arg(m_where.path)
                            : QStringLiteral("the daemon on %1 refused the connection: %2").arg(m_where.path, said));
        return false;
    }
    Pending pending = m_pending.dequeue();
    armDeadline();
    Reply reply;
    reply.ok = object.value(field::Ok).toBool();
    reply.result = object.value(field::Result);
    reply.error = object.value(field::Error).toString();
    if (!reply.ok && reply.error.isEmpty())
        reply.error = QStringLiteral("'%1' refused without a reason").arg(pending.cmd);
    pending.onReply(reply);
    return !m_failed;
}

void Client::onClosed(const QString &why)
{
    if (m_failed)
        return;
    // Through ssh: what ssh or the far bridge said is the reason (an unknown
    // host key, no pepsi-ctl there, no daemon there).
    if (!why.isEmpty()) {
        const QString cmd = pendingCommand();
        return fail(QStringLiteral("%1: %2%3")
                        .arg(m_where.path, why,
                             changesState(cmd) && m_gotLine
                                 ? QStringLiteral(" ('%1' unanswered; whether it was carried out is unknown)").arg(cmd)
                                 : QString()));
    }
    if (!m_pending.isEmpty() && !m_gotLine && !m_where.remote)
        return fail(notOurSocket(m_where.path, pendingCommand()));
    if (!m_pending.isEmpty()) {
        const QString cmd = pendingCommand();
        // An admin command's effect is unknown then: say so, never "done".
        fail(QStringLiteral("the daemon on %1 closed the connection before it answered '%2'%3")
                 .arg(m_where.path, cmd,
                      changesState(cmd) ? QStringLiteral("; whether it was carried out is unknown") : QString()));
        return;
    }
    fail(QStringLiteral("the daemon on %1 closed the connection").arg(m_where.path));
}

void Client::onFailed(const QString &why)
{
    if (m_failed)
        return;
    if (!m_connected && !m_where.remote)
        return fail(describeConnectFailure(m_where));
    fail(QStringLiteral("the connection to %1 failed: %2").arg(m_where.path, why));
}

void Client::fail(const QString &message)
{
    if (m_failed)
        return;
    m_failed = true;
    m_deadline.stop();
    m_pending.clear();
    m_channel->abort();
    Q_EMIT failed(message);
}

} // namespace pepsi::ctl
