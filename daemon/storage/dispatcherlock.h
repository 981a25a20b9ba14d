// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QString>
#include <optional>

namespace pepsi {

class QueueConnection;

// Exactly one dispatcher per database: a session-level advisory lock held on
// the connection that writes (the queue connection), so that no claim,
// settlement or reset can run on a session that lost it (doc/pepsi-dispatch.rst
// names the key). The holder is described from pg_stat_activity, where every
// dispatcher publishes "pepsi-dispatch <host> pid <pid> since <time>" as its
// application_name.
class DispatcherLock
{
public:
    static constexpr qint64 Key = 0x70657073; // "peps"

    struct Holder
    {
        QString applicationName;
        qint64 backendPid = 0;
        bool thisSession = false; // the connection that asked
        QString description;      // "\"pepsi-dispatch host pid 123 since ...\" (backend pid 456, ...)"
    };

    explicit DispatcherLock(QueueConnection &connection);

    // true: taken (or already ours); false: someone else holds it; nothing: query failed.
    std::optional<bool> tryAcquire();
    // Whether any session holds the lock, without taking it; nothing: query failed.
    std::optional<bool> isHeld();
    // Who holds it; nothing when nobody does, or the query failed.
    std::optional<Holder> holder();
    QString lastError() const { return m_lastError; }

    // This process's name in pg_stat_activity (as the server keeps it: at most 63 bytes).
    static QString applicationName();
    // The holder is a backend of this very process that is not the current
    // session: one the server is still ending after it dropped us.
    static bool isOwnEarlierBackend(const Holder &holder);
    // Asks the server to end a session of this process that it still keeps
    // after the connection to it was lost (without server-side keepalives it
    // keeps it, and the lock, for hours). false: the server refused.
    bool endEarlierSession(const Holder &holder);

private:
    QueueConnection &m_connection;
    QString m_lastError;
};

} // namespace pepsi
