// SPDX-License-Identifier: AGPL-3.0-or-later
#include "storage/queueconnection.h"

namespace pepsi {

QueueConnection::QueueConnection(QString name)
    : m_name(std::move(name))
{ }

QueueConnection::~QueueConnection()
{
    close();
    QSqlDatabase::removeDatabase(m_name);
}

bool QueueConnection::open(const QString &database, const QString &applicationName, const SessionLimits &limits)
{
    close();
    auto db = openDispatcherConnection(m_name, database, applicationName, limits);
    if (!db) {
        m_lastError = db.error();
        return false;
    }
    m_lastError.clear();
    return true;
}

void QueueConnection::close()
{
    if (QSqlDatabase::contains(m_name))
        QSqlDatabase::database(m_name, false).close();
}

bool QueueConnection::isOpen() const { return QSqlDatabase::contains(m_name) && database().isOpen(); }

bool QueueConnection::answers() const { return connectionAnswers(m_name); }

QSqlDatabase QueueConnection::database() const { return QSqlDatabase::database(m_name, false); }

} // namespace pepsi
