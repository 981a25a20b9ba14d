// SPDX-License-Identifier: AGPL-3.0-or-later
#include "fakedaemon.h"

#include <QDateTime>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

FakeDaemon::FakeDaemon(QObject *parent)
    : QObject(parent)
{
    connect(&m_server, &QLocalServer::newConnection, this, &FakeDaemon::onNewConnection);
}

FakeDaemon::~FakeDaemon()
{
    // The sockets' signals must not reach the list being destroyed.
    goAway();
}

bool FakeDaemon::listen()
{
    QLocalServer::removeServer(path());
    m_seq = subscribeSeq;
    return m_server.listen(path());
}

void FakeDaemon::goAway()
{
    m_server.close();
    for (QLocalSocket *socket : std::as_const(m_clients)) {
        socket->disconnect(this);
        socket->abort();
        socket->deleteLater();
    }
    m_clients.clear();
}

QStringList FakeDaemon::commands() const
{
    QStringList out;
    for (const QJsonObject &request : requests)
        out.append(request.value("cmd"_L1).toString());
    return out;
}

int FakeDaemon::count(const QString &cmd) const { return int(commands().count(cmd)); }

void FakeDaemon::pushEvent(QJsonObject event)
{
    if (!event.contains("seq"_L1))
        event.insert("seq"_L1, qint64(++m_seq));
    else
        m_seq = quint64(event.value("seq"_L1).toInteger());
    if (!event.contains("time"_L1))
        event.insert("time"_L1, QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs));
    pushRaw(QJsonDocument(event).toJson(QJsonDocument::Compact) + '\n');
}

void FakeDaemon::pushRaw(const QByteArray &bytes)
{
    for (QLocalSocket *socket : std::as_const(m_clients))
        socket->write(bytes);
}

void FakeDaemon::onNewConnection()
{
    while (QLocalSocket *socket = m_server.nextPendingConnection()) {
        m_clients.append(socket);
        connect(socket, &QLocalSocket::readyRead, this, [this, socket] { onReadyRead(socket); });
        connect(socket, &QLocalSocket::disconnected, this, [this, socket] {
            m_clients.removeAll(socket);
            socket->deleteLater();
        });
    }
}

void FakeDaemon::onReadyRead(QLocalSocket *socket)
{
    while (socket->canReadLine()) {
        const QJsonObject request = QJsonDocument::fromJson(socket->readLine()).object();
        requests.append(request);
        QJsonObject reply = answer(request);
        reply.insert("id"_L1, request.value("id"_L1));
        socket->write(QJsonDocument(reply).toJson(QJsonDocument::Compact) + '\n');
    }
}

QJsonObject FakeDaemon::answer(const QJsonObject &request)
{
    const QString cmd = request.value("cmd"_L1).toString();
    const auto ok = [](const QJsonValue &result) { return QJsonObject{{"ok"_L1, true}, {"result"_L1, result}}; };
    if (failing.contains(cmd))
        return QJsonObject{{"ok"_L1, false}, {"error"_L1, failing.value(cmd)}};
    static const QStringList adminCommands{u"drain"_s, u"resume"_s, u"reload"_s, u"requeue"_s};
    if (adminCommands.contains(cmd) && !admin)
        return QJsonObject{{"ok"_L1, false},
                           {"error"_L1, u"permission denied: '%1' needs root or the service account pepsi"_s.arg(cmd)}};
    if (cmd == "version"_L1) {
        QJsonObject version{{"daemon"_L1, u"0.1.0"_s},
                            {"pid"_L1, 4242},
                            {"started"_L1, u"2026-12-02T19:00:00.000Z"_s},
                            {"uptime_ms"_L1, 61000},
                            {"state"_L1, u"running"_s},
                            {"role"_L1, u"active"_s},
                            {"peer"_L1, QJsonObject{{"uid"_L1, 0}, {"admin"_L1, admin}}}};
        if (!omitProtocol)
            version.insert("protocol"_L1, protocol);
        return ok(version);
    }
    if (cmd == "subscribe"_L1)
        return ok(QJsonObject{{"subscribed"_L1, true}, {"seq"_L1, qint64(m_seq)}});
    if (cmd == "status"_L1)
        return ok(status);
    if (cmd == "stages"_L1)
        return ok(stages);
    if (cmd == "workers"_L1)
        return ok(workers);
    if (cmd == "drain"_L1 || cmd == "resume"_L1)
        return ok(QJsonObject{{"stage"_L1, request.value("stage"_L1)}, {"drained"_L1, cmd == "drain"_L1}});
    if (cmd == "reload"_L1)
        return ok(QJsonObject{{"stages"_L1, QJsonArray{u"enrich"_s}}});
    if (cmd == "requeue"_L1)
        return ok(requeueResult);
    return QJsonObject{{"ok"_L1, false}, {"error"_L1, u"unknown command '%1'"_s.arg(cmd)}};
}
