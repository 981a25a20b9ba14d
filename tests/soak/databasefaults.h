// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QSqlDatabase>
#include <QString>

// The database faults (doc/pepsi-dispatch.rst) for the soak run, played as an operator
// would: an open transaction that holds row locks on pending and paused rows
// for a while, and pg_terminate_backend on every session of the dispatcher.
class DatabaseFaults
{
public:
    // connection: a connection of its own (it holds the transaction).
    explicit DatabaseFaults(QSqlDatabase connection);

    // Locks up to `pending` pending rows and `paused` paused rows (FOR UPDATE,
    // in an open transaction); what it locked, for the log, or why not.
    QString lockRows(int pending, int paused);
    bool holdsLocks() const { return m_locked; }
    // Ends the transaction; the locked rows must then be taken.
    void releaseRows();
    // pg_terminate_backend on every session of the dispatcher with this pid;
    // how many it ended, or -1.
    int terminateDispatcher(qint64 daemonPid);

private:
    QSqlDatabase m_db;
    bool m_locked = false;
};
