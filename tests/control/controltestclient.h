// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QList>
#include <QLocalSocket>
#include <optional>

// A client of the control socket for tests: sends lines, waits (running the
// event loop) for replies, and keeps the events that arrive meanwhile.
class ControlTestClient
{
public:
    bool connectTo(const QString &path, int timeoutMs = 5000);
    void sendRaw(const QByteArray &bytes);
    // Sends the request and returns its reply (the next line with "ok");
    // empty when none came in time. Events met on the way are kept.
    QJsonObject request(const QJsonObject &request, int timeoutMs = 10000);
    QJsonObject request(const QByteArray &line, int timeoutMs = 10000);
    // The same without the event loop, for timing a server in another process
    // (the loop's polling would add its own milliseconds); never for one in this process.
    QJsonObject requestBlocking(const QByteArray &line, int timeoutMs = 10000);
    // The next line of any kind; nothing on timeout or when the line is not an object.
    std::optional<QJsonObject> nextLine(int timeoutMs = 5000);
    // Waits for an event named `name` (looking at kept events first) and takes it.
    std::optional<QJsonObject> takeEvent(const QString &name, int timeoutMs = 10000);
    // The server closed the connection (waits up to timeoutMs).
    bool waitForClosed(int timeoutMs = 5000);

    QLocalSocket &socket() { return m_socket; }
    QList<QJsonObject> events;

private:
    QLocalSocket m_socket;
};
