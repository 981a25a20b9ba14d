// SPDX-License-Identifier: AGPL-3.0-or-later
#include "storage/dispatcherlock.h"
#include "storage/queueconnection.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QSysInfo>
#include <QVariant>

namespace pepsi {

namespace {

const QString TryLockSql = QStringLiteral("SELECT pg_try_advisory_lock(:key)");

// A bigint advisory key shows in pg_locks as classid (high half) and objid
// (low half). pg_locks is readable by every role; pg_stat_activity may hide
// another role's application_name, hence the outer join.
const QString HolderSql = QStringLiteral(R"sql(
SELECT coalesce(a.application_name, ''), l.pid, coalesce(host(a.client_addr), 'local socket'), a.backend_start,
       l.pid = pg_backend_pid()
  FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
 WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
   AND l.classid = (:key::bigint >> 32)::oid AND l.objid = (:key::bigint & 4294967295)::oid
   AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
)sql");

} // namespace

DispatcherLock::DispatcherLock(QueueConnection &connection)
    : m_connection(connection)
{ }

QString DispatcherLock::applicationName()
{
    static const QString name = QStringLiteral("pepsi-dispatch %1 pid %2 since %3")
                                    .arg(QSysInfo::machineHostName())
                                    .arg(QCoreApplication::applicationPid())
                                    .arg(QDateTime::currentDateTimeUtc().toString(Qt::ISODate))
                                    .left(63);
    return name;
}

bool DispatcherLock::isOwnEarlierBackend(const Holder &holder)
{
    return holder.applicationName == applicationName() && !holder.thisSession;
}

std::optional<bool> DispatcherLock::tryAcquire()
{
    QSqlQuery query(m_connection.database());
    query.prepare(TryLockSql);
    query.bindValue(QStringLiteral(":key"), Key);
    if (!query.exec() || !query.next()) {
        m_lastError = QStringLiteral("taking the dispatcher lock failed: ") + query.lastError().text();
        return std::nullopt;
    }
    return query.value(0).toBool();
}

bool DispatcherLock::endEarlierSession(const Holder &holder)
{
    QSqlQuery query(m_connection.database());
    query.prepare(QStringLiteral("SELECT pg_terminate_backend(:pid)"));
    query.bindValue(QStringLiteral(":pid"), holder.backendPid);
    if (!query.exec() || !query.next()) {
        m_lastError = QStringLiteral("ending the previous session failed: ") + query.lastError().text();
        return false;
    }
    return query.value(0).toBool();
}

std::optional<bool> DispatcherLock::isHeld()
{
    QSqlQuery query(m_connection.database());
    query.prepare(HolderSql);
    query.bindValue(QStringLiteral(":key"), Key);
    if (!query.exec()) {
        m_lastError = QStringLiteral("looking for the dispatcher lock failed: ") + query.lastError().text();
        return std::nullopt;
    }
    return query.next();
}

std::optional<DispatcherLock::Holder> DispatcherLock::holder()
{
    QSqlQuery query(m_connection.database());
    query.prepare(HolderSql);
    query.bindValue(QStringLiteral(":key"), Key);
    if (!query.exec() || !query.next())
        return std::nullopt;
    Holder holder;
    holder.applicationName = query.value(0).toString();
    holder.backendPid = query.value(1).toLongLong();
    holder.thisSession = query.value(4).toBool();
    holder.description =
        QStringLiteral("\"%1\" (backend pid %2, client %3, connected %4)")
            .arg(holder.applicationName.isEmpty() ? QStringLiteral("(name not visible to this database user)")
                                                  : holder.applicationName)
            .arg(holder.backendPid)
            .arg(query.value(2).toString(), query.value(3).toDateTime().toUTC().toString(Qt::ISODate));
    return holder;
}

} // namespace pepsi
