// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QList>
#include <QLocalServer>
#include <QObject>
#include <functional>
#include <optional>

class QLocalSocket;

// A transparent pipe between control clients and the real ControlServer, for
// the console's tests: it passes every byte on, records every request a
// client sent (the server keeps no such list), and lets a test play a broken
// link: drop or rewrite a line the server sent, or put bytes of its own
// between two of the server's lines.
class ControlProxy : public QObject
{
    Q_OBJECT

public:
    explicit ControlProxy(QObject *parent = nullptr);
    ~ControlProxy() override;

    // Listens on `path`; every client gets a connection of its own to `upstream`.
    bool listen(const QString &path, const QString &upstream);
    // Stops listening and drops every client.
    void close();
    int clientCount() const { return int(m_pipes.size()); }

    // Each line from the server (without its newline) goes through this;
    // what it returns is sent instead (nullopt: nothing).
    std::function<std::optional<QByteArray>(const QByteArray &line)> rewrite;
    // Sends `bytes` to every client, between two of the server's lines.
    void inject(const QByteArray &bytes);

    QList<QJsonObject> requests;

private:
    struct Pipe
    {
        QLocalSocket *client = nullptr;
        QLocalSocket *server = nullptr;
        QByteArray fromClient; // the unfinished line, for the record
        QByteArray fromServer; // the unfinished line, held back
    };
    void onNewConnection();
    void fromClient(Pipe *pipe);
    void fromServer(Pipe *pipe);
    enum class Closing { Abruptly, Gracefully };
    void drop(Pipe *pipe, Closing how = Closing::Abruptly);

    QLocalServer m_server;
    QString m_upstream;
    QList<Pipe *> m_pipes;
};
