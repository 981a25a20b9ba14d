// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "control/controlserver.h"
#include "controlproxy.h"
#include "fakedispatch.h"

#include <QStringList>
#include <QTemporaryDir>
#include <memory>

// The daemon's real control socket for a client's tests, in-process and
// without a database: a ControlServer over a scripted FakeDispatch, listening
// in a temporary directory behind a ControlProxy that records what clients
// ask (and can play a broken link). Clients connect to path().
class ControlFixture : public QObject
{
    Q_OBJECT

public:
    explicit ControlFixture(QObject *parent = nullptr);
    ~ControlFixture() override;

    FakeDispatch &dispatch() { return *m_dispatch; }
    pepsi::ControlServer &server() { return *m_server; }
    ControlProxy &proxy() { return m_proxy; }

    QString path() const { return m_dir.filePath(QStringLiteral("dispatch.sock")); }
    bool listen();
    // The daemon goes away: the server closes, every client is dropped.
    void goAway();
    // Whether our own uid may send admin commands (it may by default).
    void setAdmin(bool admin);
    // The server's `tick` (none by default); before clients subscribe.
    void setTickInterval(std::chrono::milliseconds interval);

    // Every command clients sent, in order.
    QStringList commands() const;
    int count(const QString &cmd) const;
    // Requests whose "cmd" is `cmd`.
    QList<QJsonObject> requests(const QString &cmd) const;
    void clearRecord() { m_proxy.requests.clear(); }

    // The dispatcher says something happened: the server numbers it and fans it out.
    void publish(const QString &event, const QJsonObject &fields = {});

private:
    QString serverPath() const { return m_dir.filePath(QStringLiteral("server.sock")); }

    QTemporaryDir m_dir;
    std::unique_ptr<FakeDispatch> m_dispatch;
    std::unique_ptr<pepsi::ControlServer> m_server;
    ControlProxy m_proxy;
};
