// SPDX-License-Identifier: AGPL-3.0-or-later
#include "benchdatabase.h"

#include "db/database.h"

#include <QSqlDatabase>
#include <QSqlError>

namespace pepsi::bench {

BenchDatabase::BenchDatabase(const QString &connectionName)
    : m_connectionName(connectionName)
{ }

BenchDatabase::~BenchDatabase()
{
    if (QSqlDatabase::contains(m_connectionName)) {
        QSqlDatabase::database(m_connectionName, false).close();
        QSqlDatabase::removeDatabase(m_connectionName);
    }
}

bool BenchDatabase::open(const QString &uri)
{
    const auto db = openDatabase(m_connectionName, uri, QStringLiteral("pepsi-bench"));
    if (!db) {
        m_lastError = db.error();
        return false;
    }
    // "table ... does not exist, skipping" and the like are not news here.
    return exec(QStringLiteral("SET client_min_messages = warning"));
}

QSqlQuery BenchDatabase::query(const QString &sql)
{
    QSqlQuery q(QSqlDatabase::database(m_connectionName, false));
    q.setForwardOnly(true);
    if (!q.exec(sql))
        m_lastError = QStringLiteral("%1: %2").arg(sql.simplified().left(80), q.lastError().text().trimmed());
    return q;
}

bool BenchDatabase::exec(const QString &sql) { return query(sql).isActive(); }

QVariant BenchDatabase::scalar(const QString &sql)
{
    QSqlQuery q = query(sql);
    return q.next() ? q.value(0) : QVariant();
}

} // namespace pepsi::bench
