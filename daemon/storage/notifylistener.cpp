// SPDX-License-Identifier: AGPL-3.0-or-later
#include "storage/notifylistener.h"

#include "app/logging.h"
#include "db/database.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QVariant>

namespace pepsi {

NotifyListener::NotifyListener(QString connectionName, QObject *parent)
    : QObject(parent)
    , m_connectionName(std::move(connectionName))
{
}

NotifyListener::~NotifyListener()
{
    close();
    QSqlDatabase::removeDatabase(m_connectionName);
}

bool NotifyListener::open(const QString &database, const QString &applicationName)
{
    auto db = openDatabase(m_connectionName, database, applicationName);
    if (!db) {
        m_lastError = db.error();
        return false;
    }
    // The driver object survives reopening, so connect once.
    QSqlDriver *driver = db.value().driver();
    disconnect(driver, nullptr, this, nullptr);
    connect(driver, &QSqlDriver::notification, this,
            [this](const QString &name, QSqlDriver::NotificationSource, const QVariant &payload) {
                qCDebug(lcNotify).noquote() << "notification on" << name;
                Q_EMIT notified(name, payload.toString());
            });
    return true;
}

bool NotifyListener::subscribe()
{
    QSqlDriver *driver = QSqlDatabase::database(m_connectionName, false).driver();
    for (const QString &channel : {WorkqueueChannel, ConfigChannel}) {
        // Subscriptions do not survive a reconnect; LISTEN again every time.
        if (!driver->subscribeToNotification(channel)) {
            m_lastError = QStringLiteral("LISTEN %1 failed: %2").arg(channel, driver->lastError().text());
            return false;
        }
    }
    return true;
}

void NotifyListener::close()
{
    if (QSqlDatabase::contains(m_connectionName))
        QSqlDatabase::database(m_connectionName, false).close();
}

bool NotifyListener::isOpen() const
{
    return QSqlDatabase::contains(m_connectionName) && QSqlDatabase::database(m_connectionName, false).isOpen();
}

} // namespace pepsi
