// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "result.h"

#include <QSqlDatabase>
#include <QString>

namespace pepsi {

// Turns a [pepsi] DATABASE value (a libpq URI such as
// postgres:///pepsi?host=/run/pg or a key=value string) into the connect
// options QPSQL passes to libpq. libpq itself parses it (PQconninfoParse):
// QPSQL's setDatabaseName() would quote a URI as a database name.
Result<QString, QString> qpsqlConnectOptions(const QString &database, const QString &applicationName = {});

// Opens a named QPSQL connection for DATABASE. The connection belongs to the
// calling thread; remove it with QSqlDatabase::removeDatabase(name) when done.
// The error names the database (without its password) and what libpq said.
Result<QSqlDatabase, QString> openDatabase(const QString &connectionName, const QString &database,
                                           const QString &applicationName = {});

} // namespace pepsi
