// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "outcome.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <libpq-fe.h>
#include <memory>

namespace pepsi::stagekit {

struct PgResultDeleter
{
    void operator()(PGresult *result) const { PQclear(result); }
};
using PgResult = std::unique_ptr<PGresult, PgResultDeleter>;

// The result of one statement. `error` is ok() when it succeeded; otherwise it
// is the answer a stage gives for the message: 75 for a lost connection or a
// transient fault (serialization failure, deadlock, resources), 1 for the rest.
struct QueryResult
{
    PgResult result;
    Outcome error;

    bool ok() const { return error.isOk(); }
    int rows() const { return result ? PQntuples(result.get()) : 0; }
    qint64 affectedRows() const;
    bool isNull(int row, int column) const { return PQgetisnull(result.get(), row, column) != 0; }
    // The text form of a field; a null QByteArray for SQL NULL.
    QByteArray value(int row, int column) const;
};

// One libpq connection in autocommit mode, with its prepared statements.
// Statements are prepared on first use, keyed by their SQL text, and named by
// the connection; a reset forgets them (the server dropped them with the
// session). At most MaxStatements are kept: preparing one more deallocates
// the one used longest ago, so SQL text built per call cannot grow the
// session without bound.
class PgConnection
{
public:
    PgConnection() = default;
    ~PgConnection();
    PgConnection(const PgConnection &) = delete;
    PgConnection &operator=(const PgConnection &) = delete;

    // Connects; DATABASE is a libpq URI, a key=value string or a database name.
    bool open(const QByteArray &database, const QByteArray &applicationName, QByteArray *error);
    // PQreset after a loss; false (and libpq's message) while the server is away.
    bool reset(QByteArray *error);

    PGconn *handle() const { return m_conn; }
    // False once a statement lost the connection or libpq says it is bad.
    bool isUsable() const;
    // libpq's last message on one line.
    QByteArray lastError() const;

    // Runs a bound statement (prepared once per connection). A null
    // QByteArray parameter is SQL NULL.
    QueryResult exec(const QByteArray &sql, const QList<QByteArray> &parameters);

    // A statement without parameters and without preparing it (BEGIN,
    // COMMIT, ROLLBACK): one round trip of the simple query protocol.
    QueryResult command(const char *sql);

    // Records that the connection is lost so the next message resets it.
    void markLost() { m_lost = true; }

    // How many statements this session holds prepared.
    qsizetype preparedCount() const { return m_statements.size(); }
    static constexpr qsizetype MaxStatements = 64;

private:
    Outcome classify(const PGresult *result);

    PGconn *m_conn = nullptr;
    bool m_lost = false;
    struct Statement
    {
        QByteArray name;
        quint64 lastUse = 0;
    };
    // Makes room for one more statement; false: the connection is lost.
    bool evictOldest(Outcome *failure);

    QHash<QByteArray, Statement> m_statements; // by SQL text
    quint64 m_uses = 0;
    int m_nextStatement = 0;
};

// SQLSTATE classes that mean the session is gone: 08 (connection exception),
// 57P01..57P03 (admin/crash shutdown, cannot connect now).
bool isConnectionLoss(const char *sqlState);

} // namespace pepsi::stagekit
