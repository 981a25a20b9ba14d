// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QLocalServer>
#include <QLocalSocket>
#include <QObject>
#include <QStringList>
#include <QTemporaryDir>

// The other side of the console for its tests: a QLocalServer speaking the
// control protocol (doc/control-protocol.rst) from a script — the version it
// claims, whether the peer is admin, the snapshot it serves — and recording
// every request it got. Events are pushed by the test.
class FakeDaemon : public QObject
{
    Q_OBJECT

public:
    explicit FakeDaemon(QObject *parent = nullptr);
    ~FakeDaemon() override;

    QString path() const { return m_dir.filePath(QStringLiteral("dispatch.sock")); }
    bool listen();
    // Stops listening and drops every client (a daemon going away).
    void goAway();

    // --- the script ---
    int protocol = 1;
    bool admin = true;
    bool omitProtocol = false;
    QJsonObject status;         // the `status` result
    QJsonObject stages;         // the `stages` result
    QJsonArray workers;         // the `workers` result
    quint64 subscribeSeq = 100; // `subscribe` → seq
    // cmd -> error: that command fails with this message.
    QHash<QString, QString> failing;
    // The result of an admin command (drain, resume, reload, requeue): the default echoes.
    QJsonObject requeueResult{{QStringLiteral("requeued"), 3}, {QStringLiteral("more"), false}};

    // --- what happened ---
    QList<QJsonObject> requests;
    QStringList commands() const;
    int count(const QString &cmd) const;
    int clientCount() const { return int(m_clients.size()); }

    // Sends an event (seq, time added when missing) to every client.
    void pushEvent(QJsonObject event);
    // Sends raw bytes to every client.
    void pushRaw(const QByteArray &bytes);

private:
    void onNewConnection();
    void onReadyRead(QLocalSocket *socket);
    QJsonObject answer(const QJsonObject &request);

    QTemporaryDir m_dir;
    QLocalServer m_server;
    QList<QLocalSocket *> m_clients;
    quint64 m_seq = 100;
};
