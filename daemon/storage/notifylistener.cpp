// SPDX-License-Identifier: AGPL-3.0-or-later
#include "storage/notifylistener.h"

#include "model/logcategories.h"
#include "storage/dispatcherconnection.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTimer>

namespace pepsi {

NotifyListener::NotifyListener(QString connectionName, QObject *parent)
    : QObject(parent)
    , m_connectionName(std::move(connectionName))
{
    connect(&m_watch, &ConnectionWatch::notified, this, [this](const QString &channel, const QString &payload) {
        qCDebug(lcNotify).noquote() << "notification on" << channel;
        Q_EMIT notified(channel, payload);
    });
    connect(&m_watch, &ConnectionWatch::lost, this, &NotifyListener::lost);
}

NotifyListener::~NotifyListener()
{
    close();
    QSqlDatabase::removeDatabase(m_connectionName);
}

bool NotifyListener::open(const QString &database, const QString &applicationName, const SessionLimits &limits)
{
    close();
    auto db = openDispatcherConnection(m_connectionName, database, applicationName, limits);
    if (!db) {
        m_lastError = db.error();
        return false;
    }
    return true;
}

bool NotifyListener::subscribe()
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    for (const QString &channel : {WorkqueueChannel, ConfigChannel}) {
        if (!query.exec(QStringLiteral("LISTEN \"%1\"").arg(channel))) {
            m_lastError = QStringLiteral("LISTEN %1 failed: %2").arg(channel, query.lastError().text().trimmed());
            return false;
        }
    }
    if (!m_watch.watch(m_connectionName)) {
        m_lastError = QStringLiteral("the LISTEN connection has no socket to watch");
        return false;
    }
    // A notification that came in with the LISTEN results waits in libpq, not
    // on the socket: read it once the caller is done.
    QTimer::singleShot(0, &m_watch, &ConnectionWatch::poll);
    return true;
}

void NotifyListener::close()
{
    m_watch.stop();
    if (QSqlDatabase::contains(m_connectionName))
        QSqlDatabase::database(m_connectionName, false).close();
}

bool NotifyListener::isOpen() const
{
    return m_watch.isWatching() && QSqlDatabase::contains(m_connectionName)
        && QSqlDatabase::database(m_connectionName, false).isOpen();
}

} // namespace pepsi
