// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QString>
#include <optional>

namespace pepsi {

// Exactly one dispatcher per database: a session-level advisory lock held on
// the LISTEN connection for the daemon's whole life (doc/pepsi-dispatch.rst
// names the key). The holder is described from pg_stat_activity, where every
// dispatcher publishes "pepsi-dispatch <host> pid <pid> since <time>" as its
// application_name.
class DispatcherLock
{
public:
    static constexpr qint64 Key = 0x70657073; // "peps"

    explicit DispatcherLock(QString connectionName);

    // true: taken (or already ours); false: someone else holds it; nothing: query failed.
    std::optional<bool> tryAcquire();
    // "pepsi-dispatch host pid 123 since ... (backend pid 456, client 10.0.0.2)", or empty.
    QString describeHolder();
    QString lastError() const { return m_lastError; }

    static QString applicationName();

private:
    QString m_connectionName;
    QString m_lastError;
};

} // namespace pepsi
