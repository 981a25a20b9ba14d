// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "config/dispatchsettings.h"
#include "result.h"

#include <QSqlDatabase>
#include <QString>
#include <chrono>

namespace pepsi {

// Bounds on every statement of a dispatcher session, so that the event loop
// never waits on the database for long (doc/pepsi-dispatch.rst, "Bounded
// waits"). A statement that hits one fails like any other and is retried by
// the next round; nothing it would have written is dropped.
struct SessionLimits
{
    // [pepsi-dispatch] DB_LOCK_TIMEOUT and DB_STATEMENT_TIMEOUT.
    std::chrono::milliseconds lockTimeout{1000};
    std::chrono::milliseconds statementTimeout{5000};
    // TCP only (libpq ignores them on a Unix socket): a silent peer is given
    // up after about idle + interval x count, an unacknowledged write after
    // the user timeout.
    static constexpr int KeepalivesIdleS = 10;
    static constexpr int KeepalivesIntervalS = 5;
    static constexpr int KeepalivesCount = 3;
    static constexpr std::chrono::milliseconds TcpUserTimeout{20000};

    // The timeouts [pepsi-dispatch] sets for every session of the dispatcher.
    static SessionLimits of(const DispatchSettings &settings)
    {
        SessionLimits limits;
        limits.lockTimeout = settings.dbLockTimeout;
        limits.statementTimeout = settings.dbStatementTimeout;
        return limits;
    }
};

// Opens the named connection for DATABASE with the dispatcher's
// application_name, TCP keepalives and tcp_user_timeout (unless DATABASE sets
// them), then sets lock_timeout and statement_timeout for the session.
Result<QSqlDatabase, QString> openDispatcherConnection(const QString &connectionName, const QString &database,
                                                       const QString &applicationName, const SessionLimits &limits);
// A round trip on the named connection succeeds: a connection the server or
// the network dropped shows here, whatever isOpen() says.
bool connectionAnswers(const QString &connectionName);

} // namespace pepsi
