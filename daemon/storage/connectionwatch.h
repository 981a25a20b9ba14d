// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QObject>
#include <QString>
#include <memory>

class QSocketNotifier;
struct pg_conn;

namespace pepsi {

// Watches one open QPSQL connection's socket between statements. A session
// the server ends (pg_terminate_backend, a restart, a peer that TCP gave up
// on) makes the socket readable at once; so does a notification. Qt's driver
// notices neither while no statement runs, so this reads the socket through
// libpq itself: a closed connection is reported then and there, not at the
// next statement or heartbeat.
class ConnectionWatch : public QObject
{
    Q_OBJECT

public:
    explicit ConnectionWatch(QObject *parent = nullptr);
    ~ConnectionWatch() override;

    // Watches the named, open connection; false when it has no socket.
    bool watch(const QString &connectionName);
    // Before the connection is closed: the socket must not be watched past it.
    void stop();
    bool isWatching() const { return m_conn != nullptr; }
    // Reads what arrived without waiting (after a statement on the connection,
    // whose result may have carried notifications). False once it is gone.
    bool poll();

Q_SIGNALS:
    void lost(const QString &reason);
    void notified(const QString &channel, const QString &payload);

private:
    pg_conn *m_conn = nullptr;
    std::unique_ptr<QSocketNotifier> m_notifier;
};

} // namespace pepsi
