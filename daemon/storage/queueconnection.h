// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "storage/dispatcherconnection.h"

#include <QSqlDatabase>
#include <QString>

namespace pepsi {

// The dispatcher's queue connection: the one session that claims and settles
// rows, holds the advisory lock and flushes statistics. DatabaseSession owns
// it and decides when it opens and closes; the stores that run on it take it
// by reference, so nothing finds it by name and it is removed in one place.
class QueueConnection
{
public:
    explicit QueueConnection(QString name = QStringLiteral("pepsi-queue"));
    ~QueueConnection();
    QueueConnection(const QueueConnection &) = delete;
    QueueConnection &operator=(const QueueConnection &) = delete;

    // With the dispatcher's application_name and limits; false: lastError().
    bool open(const QString &database, const QString &applicationName, const SessionLimits &limits = {});
    // Statements prepared on it must be dropped first (QueueStore::forgetStatements).
    void close();
    bool isOpen() const;
    // A round trip succeeds: a connection the server dropped shows here.
    bool answers() const;
    QSqlDatabase database() const;
    const QString &name() const { return m_name; }
    QString lastError() const { return m_lastError; }

private:
    QString m_name;
    QString m_lastError;
};

} // namespace pepsi
