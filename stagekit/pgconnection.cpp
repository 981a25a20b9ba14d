// SPDX-License-Identifier: AGPL-3.0-or-later
#include "pgconnection.h"

#include <cstring>
#include <vector>

namespace pepsi::stagekit {

namespace {

QByteArray oneLine(const char *message)
{
    QByteArray text(message ? message : "");
    text.replace('\n', ' ');
    return text.simplified();
}

bool isTransient(const char *sqlState)
{
    // 40: serialization failure / deadlock; 53: insufficient resources; 55P03: lock not available
    return sqlState
        && (std::strncmp(sqlState, "40", 2) == 0 || std::strncmp(sqlState, "53", 2) == 0
            || std::strcmp(sqlState, "55P03") == 0);
}

} // namespace

bool isConnectionLoss(const char *sqlState)
{
    return sqlState
        && (std::strncmp(sqlState, "08", 2) == 0 || std::strcmp(sqlState, "57P01") == 0
            || std::strcmp(sqlState, "57P02") == 0 || std::strcmp(sqlState, "57P03") == 0);
}

qint64 QueryResult::affectedRows() const
{
    if (!result)
        return 0;
    return QByteArray(PQcmdTuples(result.get())).toLongLong();
}

QByteArray QueryResult::value(int row, int column) const
{
    if (!result || isNull(row, column))
        return {};
    return QByteArray(PQgetvalue(result.get(), row, column), PQgetlength(result.get(), row, column));
}

PgConnection::~PgConnection()
{
    if (m_conn)
        PQfinish(m_conn);
}

bool PgConnection::open(const QByteArray &database, const QByteArray &applicationName, QByteArray *error)
{
    if (m_conn)
        PQfinish(m_conn);
    // Keywords are applied in order and later ones win: the DATABASE string
    // (expanded, as it may be a URI or key=value string) may override the
    // connect timeout, but the application name is always ours.
    const char *keywords[] = {"connect_timeout", "dbname", "application_name", nullptr};
    const char *values[] = {"10", database.constData(), applicationName.constData(), nullptr};
    m_conn = PQconnectdbParams(keywords, values, 1);
    m_statements.clear();
    m_lost = PQstatus(m_conn) != CONNECTION_OK;
    if (m_lost && error)
        *error = lastError();
    return !m_lost;
}

bool PgConnection::reset(QByteArray *error)
{
    if (!m_conn) {
        if (error)
            *error = QByteArrayLiteral("never connected");
        return false;
    }
    PQreset(m_conn);
    m_statements.clear();
    m_lost = PQstatus(m_conn) != CONNECTION_OK;
    if (m_lost && error)
        *error = lastError();
    return !m_lost;
}

bool PgConnection::isUsable() const { return m_conn && !m_lost && PQstatus(m_conn) == CONNECTION_OK; }

QByteArray PgConnection::lastError() const
{
    return m_conn ? oneLine(PQerrorMessage(m_conn)) : QByteArrayLiteral("no connection");
}

Outcome PgConnection::classify(const PGresult *result)
{
    const ExecStatusType status = result ? PQresultStatus(result) : PGRES_FATAL_ERROR;
    if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK)
        return Outcome::ok();

    const char *sqlState = result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
    QByteArray message = result ? oneLine(PQresultErrorMessage(result)) : QByteArray();
    if (message.isEmpty())
        message = lastError();

    // libpq reports a dropped socket without a SQLSTATE but marks the connection bad
    if (isConnectionLoss(sqlState) || PQstatus(m_conn) == CONNECTION_BAD) {
        m_lost = true;
        return Outcome::tryLater("database connection lost: " + message);
    }
    if (isTransient(sqlState))
        return Outcome::tryLater("transient database error: " + message);
    return Outcome::fail(1, "database error: " + message);
}

QueryResult PgConnection::command(const char *sql)
{
    if (!isUsable()) {
        m_lost = true;
        return {nullptr, Outcome::tryLater("database connection lost: " + lastError())};
    }
    PgResult result(PQexec(m_conn, sql));
    Outcome failure = classify(result.get());
    return {std::move(result), std::move(failure)};
}

bool PgConnection::evictOldest(Outcome *failure)
{
    auto oldest = m_statements.begin();
    for (auto it = m_statements.begin(); it != m_statements.end(); ++it) {
        if (it->lastUse < oldest->lastUse)
            oldest = it;
    }
    const QByteArray name = oldest->name;
    m_statements.erase(oldest);
    // Refused in an aborted transaction: the statement then stays on the
    // server until the session ends, which only costs its memory.
    const QByteArray deallocate = "DEALLOCATE " + name;
    PgResult result(PQexec(m_conn, deallocate.constData()));
    const Outcome outcome = classify(result.get());
    if (!m_lost)
        return true;
    *failure = outcome;
    return false;
}

QueryResult PgConnection::exec(const QByteArray &sql, const QList<QByteArray> &parameters)
{
    if (!isUsable()) {
        m_lost = true;
        return {nullptr, Outcome::tryLater("database connection lost: " + lastError())};
    }

    QByteArray name;
    if (const auto known = m_statements.find(sql); known != m_statements.end()) {
        known->lastUse = ++m_uses;
        name = known->name;
    } else {
        Outcome failure;
        if (m_statements.size() >= MaxStatements && !evictOldest(&failure))
            return {nullptr, std::move(failure)};
        name = "pepsi_stagekit_" + QByteArray::number(++m_nextStatement);
        // parameter types are left to the server: the SQL casts where it matters
        PgResult prepared(PQprepare(m_conn, name.constData(), sql.constData(), int(parameters.size()), nullptr));
        failure = classify(prepared.get());
        if (!failure.isOk())
            return {std::move(prepared), std::move(failure)};
        m_statements.insert(sql, {name, ++m_uses});
    }

    std::vector<const char *> values;
    values.reserve(parameters.size());
    for (const QByteArray &p : parameters)
        values.push_back(p.isNull() ? nullptr : p.constData());
    PgResult result(PQexecPrepared(m_conn, name.constData(), int(values.size()), values.data(), nullptr, nullptr, 0));
    Outcome failure = classify(result.get());
    return {std::move(result), std::move(failure)};
}

} // namespace pepsi::stagekit
