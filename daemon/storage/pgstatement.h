// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <memory>

struct pg_conn;
struct pg_result;

namespace pepsi {

class QueueConnection;

// A result of libpq's, cleared when it goes.
struct PgResultDeleter
{
    void operator()(pg_result *result) const;
};
using PgResult = std::unique_ptr<pg_result, PgResultDeleter>;

// One statement prepared through libpq on the queue connection (QPSQL's own
// PGconn) and run with text parameters, for the statement the dispatcher runs
// most: QSqlQuery formats every bound value into an EXECUTE of its own and
// hands each field back as a QVariant, which cost the claim round about a
// tenth of the daemon's CPU per hop. The statement is prepared on first use
// and again on a new connection; QSqlQuery's `:name` placeholders are turned
// into `$1`... in the order given, so the text stays the one QSqlQuery runs.
class PgStatement
{
public:
    PgStatement(QByteArray name, const QString &sql, const QStringList &placeholders);

    // Runs it with `values` (in the placeholders' order; a null QByteArray is
    // SQL NULL). Null with error() and sqlState() set when it failed.
    PgResult exec(QueueConnection &connection, const QList<QByteArray> &values);
    // The connection is about to close (or was replaced): prepare it again.
    void forget() { m_preparedOn = nullptr; }

    const QString &error() const { return m_error; }
    const QByteArray &sqlState() const { return m_sqlState; }

private:
    bool prepare(pg_conn *conn);
    bool failed(pg_conn *conn, const pg_result *result, const char *doing);

    QByteArray m_name;
    QByteArray m_sql;
    int m_parameters = 0;
    pg_conn *m_preparedOn = nullptr;
    QString m_error;
    QByteArray m_sqlState;
};

// QPSQL's PGconn behind a connection, or null (closed, another driver).
pg_conn *pgConnection(QueueConnection &connection);

} // namespace pepsi
