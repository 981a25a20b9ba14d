// SPDX-License-Identifier: AGPL-3.0-or-later
#include "databasefaults.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

using namespace Qt::StringLiterals;

DatabaseFaults::DatabaseFaults(QSqlDatabase connection)
    : m_db(std::move(connection))
{ }

QString DatabaseFaults::lockRows(int pending, int paused)
{
    if (m_locked || !m_db.transaction())
        return u"cannot begin the row-lock transaction: "_s + m_db.lastError().text();
    QSqlQuery q(m_db);
    // FOR UPDATE is not allowed under UNION: one CTE per kind of row.
    if (!q.exec(u"WITH p AS (SELECT workqueue_id FROM workqueue WHERE status = 'pending' "
                "ORDER BY workqueue_id DESC LIMIT %1 FOR UPDATE SKIP LOCKED), "
                "z AS (SELECT workqueue_id FROM workqueue WHERE status = 'paused' LIMIT %2 FOR UPDATE SKIP LOCKED) "
                "SELECT (SELECT count(*) FROM p), (SELECT count(*) FROM z)"_s.arg(pending)
                    .arg(paused))
        || !q.next()) {
        const QString error = q.lastError().text();
        m_db.rollback();
        return u"locking rows failed: "_s + error;
    }
    m_locked = true;
    return u"%1 pending and %2 paused rows locked"_s.arg(q.value(0).toInt()).arg(q.value(1).toInt());
}

void DatabaseFaults::releaseRows()
{
    if (m_locked)
        m_db.rollback();
    m_locked = false;
}

int DatabaseFaults::terminateDispatcher(qint64 daemonPid)
{
    QSqlQuery q(m_db);
    if (!q.exec(u"SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'pepsi-dispatch %% pid %1 %%' "
                "AND pg_terminate_backend(pid)"_s.arg(daemonPid)
                    .replace(u"%%"_s, u"%"_s))
        || !q.next())
        return -1;
    return q.value(0).toInt();
}
