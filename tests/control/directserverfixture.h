// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "control/controlserver.h"
#include "fakedispatch.h"

#include <QObject>
#include <QString>
#include <QTemporaryDir>
#include <memory>

// The daemon's real control socket for the tests of the socket itself, in
// process and without a database: a ControlServer over a scripted
// FakeDispatch, listening on path() in a temporary directory with nothing
// between it and the clients (ControlFixture puts a recording proxy there,
// for the clients' tests). One per test function (DirectServerTest): dropped
// the server first, then what it reads, then the directory.
class DirectServerFixture
{
public:
    DirectServerFixture();
    DirectServerFixture(const DirectServerFixture &) = delete;
    DirectServerFixture &operator=(const DirectServerFixture &) = delete;

    FakeDispatch &dispatch() { return m_dispatch; }
    pepsi::ControlServer &server() { return m_server; }

    // In a directory of its own, which the server makes when it listens.
    QString path() const { return m_dir.filePath(QStringLiteral("run/dispatch.sock")); }
    QString dirPath(const QString &name) const { return m_dir.filePath(name); }
    // False, with the server's reason in the log, when it cannot listen.
    bool listen();

private:
    QTemporaryDir m_dir;
    FakeDispatch m_dispatch;
    pepsi::ControlServer m_server;
};

// A test of the control socket itself: every test function gets a
// DirectServerFixture of its own, listening, made in init() and dropped in
// cleanup(). Qt Test runs a base class's init() and cleanup() as its own.
class DirectServerTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

protected:
    std::unique_ptr<DirectServerFixture> m_daemon;
};
