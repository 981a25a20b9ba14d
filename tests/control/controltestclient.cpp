// SPDX-License-Identifier: AGPL-3.0-or-later
#include "controltestclient.h"

#include <QDeadlineTimer>
#include <QJsonDocument>
#include <QTest>

bool ControlTestClient::connectTo(const QString &path, int timeoutMs)
{
    m_socket.connectToServer(path);
    return m_socket.waitForConnected(timeoutMs);
}

void ControlTestClient::sendRaw(const QByteArray &bytes)
{
    m_socket.write(bytes);
    m_socket.flush();
}

std::optional<QJsonObject> ControlTestClient::nextLine(int timeoutMs)
{
    if (!QTest::qWaitFor([this] { return m_socket.canReadLine(); }, timeoutMs))
        return std::nullopt;
    const QByteArray line = m_socket.readLine();
    const QJsonDocument document = QJsonDocument::fromJson(line);
    if (!document.isObject()) {
        qWarning("not a JSON object: %s", line.constData());
        return std::nullopt;
    }
    return document.object();
}

QJsonObject ControlTestClient::request(const QJsonObject &request, int timeoutMs)
{
    return this->request(QJsonDocument(request).toJson(QJsonDocument::Compact), timeoutMs);
}

QJsonObject ControlTestClient::request(const QByteArray &line, int timeoutMs)
{
    sendRaw(line + '\n');
    const QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        const auto next = nextLine(int(std::max<qint64>(1, deadline.remainingTime())));
        if (!next)
            break;
        if (next->contains(QStringLiteral("ok")))
            return *next;
        events.append(*next);
    }
    return {};
}

QJsonObject ControlTestClient::requestBlocking(const QByteArray &line, int timeoutMs)
{
    m_socket.write(line + '\n');
    const QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        if (!m_socket.canReadLine() && !m_socket.waitForReadyRead(int(std::max<qint64>(1, deadline.remainingTime()))))
            continue;
        if (!m_socket.canReadLine())
            continue;
        const QJsonObject object = QJsonDocument::fromJson(m_socket.readLine()).object();
        if (object.contains(QStringLiteral("ok")))
            return object;
        events.append(object);
    }
    return {};
}

std::optional<QJsonObject> ControlTestClient::takeEvent(const QString &name, int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    for (;;) {
        for (qsizetype i = 0; i < events.size(); ++i) {
            if (events[i].value(QStringLiteral("event")).toString() == name)
                return events.takeAt(i);
        }
        if (deadline.hasExpired())
            return std::nullopt;
        const auto next = nextLine(int(std::max<qint64>(1, deadline.remainingTime())));
        if (!next)
            return std::nullopt;
        events.append(*next);
    }
}

bool ControlTestClient::waitForClosed(int timeoutMs)
{
    return QTest::qWaitFor([this] { return m_socket.state() == QLocalSocket::UnconnectedState; }, timeoutMs);
}
