// SPDX-License-Identifier: AGPL-3.0-or-later
#include "controlproxy.h"

#include <QJsonDocument>
#include <QLocalSocket>

ControlProxy::ControlProxy(QObject *parent)
    : QObject(parent)
{
    connect(&m_server, &QLocalServer::newConnection, this, &ControlProxy::onNewConnection);
}

ControlProxy::~ControlProxy() { close(); }

bool ControlProxy::listen(const QString &path, const QString &upstream)
{
    m_upstream = upstream;
    QLocalServer::removeServer(path);
    return m_server.listen(path);
}

void ControlProxy::close()
{
    m_server.close();
    const QList<Pipe *> pipes = m_pipes;
    for (Pipe *pipe : pipes)
        drop(pipe);
}

void ControlProxy::inject(const QByteArray &bytes)
{
    for (Pipe *pipe : std::as_const(m_pipes))
        pipe->client->write(bytes);
}

void ControlProxy::onNewConnection()
{
    while (QLocalSocket *client = m_server.nextPendingConnection()) {
        auto *pipe = new Pipe{client, new QLocalSocket(this), {}, {}};
        m_pipes.append(pipe);
        // A local connect completes at once when the server listens (the
        // kernel queues it before accept); a server that does not is a
        // daemon gone, which the client must see as such.
        pipe->server->connectToServer(m_upstream);
        if (!pipe->server->waitForConnected(1000)) {
            drop(pipe);
            continue;
        }
        connect(client, &QLocalSocket::readyRead, this, [this, pipe] { fromClient(pipe); });
        connect(pipe->server, &QLocalSocket::readyRead, this, [this, pipe] { fromServer(pipe); });
        connect(client, &QLocalSocket::disconnected, this, [this, pipe] { drop(pipe); });
        connect(pipe->server, &QLocalSocket::disconnected, this, [this, pipe] {
            // The server's last words (an error line before it closes) still reach the client.
            fromServer(pipe);
            drop(pipe, Closing::Gracefully);
        });
        if (client->bytesAvailable() > 0)
            fromClient(pipe);
    }
}

void ControlProxy::fromClient(Pipe *pipe)
{
    const QByteArray bytes = pipe->client->readAll();
    pipe->server->write(bytes);
    pipe->fromClient += bytes;
    qsizetype newline;
    while ((newline = pipe->fromClient.indexOf('\n')) >= 0) {
        const QJsonDocument request = QJsonDocument::fromJson(pipe->fromClient.left(newline));
        if (request.isObject())
            requests.append(request.object());
        pipe->fromClient.remove(0, newline + 1);
    }
}

void ControlProxy::fromServer(Pipe *pipe)
{
    pipe->fromServer += pipe->server->readAll();
    qsizetype newline;
    while ((newline = pipe->fromServer.indexOf('\n')) >= 0) {
        const QByteArray line = pipe->fromServer.left(newline);
        pipe->fromServer.remove(0, newline + 1);
        const std::optional<QByteArray> out = rewrite ? rewrite(line) : std::optional<QByteArray>(line);
        if (out)
            pipe->client->write(*out + '\n');
    }
}

void ControlProxy::drop(Pipe *pipe, Closing how)
{
    if (!m_pipes.removeOne(pipe))
        return;
    // Neither socket may call back into a pipe that is gone.
    pipe->client->disconnect(this);
    pipe->server->disconnect(this);
    pipe->server->abort();
    pipe->server->deleteLater();
    QLocalSocket *client = pipe->client;
    delete pipe;
    if (how == Closing::Abruptly || client->state() == QLocalSocket::UnconnectedState) {
        client->abort();
        client->deleteLater();
        return;
    }
    // What is still queued for the client is written first.
    connect(client, &QLocalSocket::disconnected, client, &QObject::deleteLater);
    client->disconnectFromServer();
}
