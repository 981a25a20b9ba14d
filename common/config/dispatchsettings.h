// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "config/configuration.h"
#include "result.h"

#include <QString>
#include <chrono>

namespace pepsi {

// [pepsi] DATABASE and the [pepsi-dispatch] options: read once at start.
struct DispatchSettings
{
    QString database = QStringLiteral("postgres:///pepsi");
    std::chrono::milliseconds maxRuntime{std::chrono::seconds(300)};
    std::chrono::milliseconds workerIdleTimeout{std::chrono::seconds(5)};
    std::chrono::milliseconds pollInterval{std::chrono::seconds(30)};
    std::chrono::milliseconds statsInterval{std::chrono::seconds(60)};
    std::chrono::milliseconds tempfailDelay{std::chrono::seconds(30)};
    // Every dispatcher database session's lock_timeout and statement_timeout.
    std::chrono::milliseconds dbLockTimeout{std::chrono::seconds(1)};
    std::chrono::milliseconds dbStatementTimeout{std::chrono::seconds(5)};
    // The most connections the dispatcher opens itself (its workers open their
    // own). It opens exactly MinPoolSize: the queue connection (claims,
    // settlements, the advisory lock), the LISTEN connection and the
    // operator queries' connection of the control socket.
    static constexpr int MinPoolSize = 3;
    static constexpr int MaxPoolSize = 1000;
    int dbPoolSize = 8;
    QString configFile;    // empty: workers get no -c
    QString controlSocket; // empty: the default for the running user
    QString user = QStringLiteral("pepsi");

    static Result<DispatchSettings, ConfigError> fromConfiguration(const Configuration &config);
};

} // namespace pepsi
