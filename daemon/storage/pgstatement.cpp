// SPDX-License-Identifier: AGPL-3.0-or-later
#include "storage/pgstatement.h"

#include "storage/queueconnection.h"

#include <QSqlDriver>
#include <QVarLengthArray>
#include <QVariant>
#include <libpq-fe.h>

namespace pepsi {

void PgResultDeleter::operator()(pg_result *result) const { PQclear(result); }

pg_conn *pgConnection(QueueConnection &connection)
{
    const QSqlDatabase db = connection.database();
    if (!db.isOpen() || !db.driver())
        return nullptr;
    // Qt 6 names the meta type after the struct behind the typedef.
    const QVariant handle = db.driver()->handle();
    const QByteArray type = handle.typeName();
    if (type != "PGconn*" && type != "pg_conn*")
        return nullptr;
    return *static_cast<PGconn *const *>(handle.constData());
}

PgStatement::PgStatement(QByteArray name, const QString &sql, const QStringList &placeholders)
    : m_name(std::move(name))
    , m_parameters(int(placeholders.size()))
{
    QString text = sql;
    for (int i = 0; i < placeholders.size(); ++i)
        text.replace(placeholders[i], QStringLiteral("$%1").arg(i + 1));
    m_sql = text.toUtf8();
}

bool PgStatement::failed(pg_conn *conn, const pg_result *result, const char *doing)
{
    m_sqlState = result ? QByteArray(PQresultErrorField(result, PG_DIAG_SQLSTATE)) : QByteArray();
    const char *message = result ? PQresultErrorMessage(result) : PQerrorMessage(conn);
    m_error = QString::fromUtf8(message).trimmed();
    if (m_error.isEmpty())
        m_error = QStringLiteral("the database connection is closed");
    m_error.prepend(QLatin1String(doing));
    return false;
}

bool PgStatement::prepare(pg_conn *conn)
{
    const PgResult result(PQprepare(conn, m_name.constData(), m_sql.constData(), m_parameters, nullptr));
    if (!result || PQresultStatus(result.get()) != PGRES_COMMAND_OK)
        return failed(conn, result.get(), "preparing it: ");
    m_preparedOn = conn;
    return true;
}

PgResult PgStatement::exec(QueueConnection &connection, const QList<QByteArray> &values)
{
    m_error.clear();
    m_sqlState.clear();
    pg_conn *conn = pgConnection(connection);
    if (!conn || PQstatus(conn) != CONNECTION_OK) {
        m_error = QStringLiteral("the database connection is closed");
        return {};
    }
    QVarLengthArray<const char *, 8> params;
    for (const QByteArray &value : values)
        params.append(value.isNull() ? nullptr : value.constData());
    // Twice at most: a statement the server no longer knows (a new session
    // behind the same PGconn address, a DISCARD) is prepared again.
    for (int attempt = 0; attempt < 2; ++attempt) {
        if (m_preparedOn != conn && !prepare(conn))
            return {};
        PgResult result(
            PQexecPrepared(conn, m_name.constData(), int(params.size()), params.constData(), nullptr, nullptr, 0));
        const ExecStatusType status = result ? PQresultStatus(result.get()) : PGRES_FATAL_ERROR;
        if (status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK)
            return result;
        failed(conn, result.get(), "");
        if (m_sqlState != "26000") // invalid_sql_statement_name
            return {};
        m_preparedOn = nullptr;
    }
    return {};
}

} // namespace pepsi
