// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "storage/connectionwatch.h"
#include "storage/dispatcherconnection.h"

#include <QObject>
#include <QString>

namespace pepsi {

// The dispatcher's dedicated LISTEN connection (claims run on another one, so
// a notification is never held up behind a query). Notifications are read
// from its socket by a ConnectionWatch rather than through QPSQL's
// subscriptions, so that the socket closing is noticed as it happens too.
class NotifyListener : public QObject
{
    Q_OBJECT

public:
    static inline const QString WorkqueueChannel = QStringLiteral("workqueue");
    static inline const QString ConfigChannel = QStringLiteral("config_changed");

    NotifyListener(QString connectionName, QObject *parent);
    ~NotifyListener() override;

    bool open(const QString &database, const QString &applicationName, const SessionLimits &limits);
    // LISTEN on both channels (again: a new session listens to nothing).
    bool subscribe();
    void close();
    bool isOpen() const;
    QString lastError() const { return m_lastError; }

Q_SIGNALS:
    void notified(const QString &channel, const QString &payload);
    // The server ended the session (or it broke) while nothing ran on it.
    void lost(const QString &reason);

private:
    QString m_connectionName;
    QString m_lastError;
    ConnectionWatch m_watch;
};

} // namespace pepsi
