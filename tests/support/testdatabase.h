// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QSqlDatabase>
#include <QString>
#include <QStringList>
#include <QTest>

// A fresh PostgreSQL database with the pepsi schema for one test, dropped again
// (WITH (FORCE): daemons and workers of the test may still be connected) by the
// destructor. PEPSI_TEST_DATABASE names the admin connection: a libpq URI or
// key=value string such as `scripts/pg-sandbox start` prints.
//
// The database is pepsi_t_<test>_<pid>_<n>. Databases of earlier test processes
// that died before dropping theirs are dropped when the server is local.
class TestDatabase
{
public:
    // testName: part of the database name; empty: the test program and the
    // current test function.
    explicit TestDatabase(const QString &testName = {});
    ~TestDatabase();
    TestDatabase(const TestDatabase &) = delete;
    TestDatabase &operator=(const TestDatabase &) = delete;

    // PEPSI_TEST_DATABASE is set (whether or not it works).
    static bool isConfigured();

    bool isValid() const { return m_error.isEmpty(); }
    // Why the database is not usable; empty when it is.
    QString errorString() const { return m_error; }

    QString name() const { return m_name; }
    // A [pepsi] DATABASE value for this database: the admin connection's
    // conninfo with dbname replaced, as a key=value string.
    QString uri() const { return m_uri; }
    // An open connection to this database, owned by the calling thread.
    QSqlDatabase db() const;
    // Another connection to this database (LISTEN needs its own); removed by
    // the destructor. Invalid, with a test warning, when it cannot open.
    QSqlDatabase newConnection(const QString &suffix);
    // Lets clients into this database or turns them away (ALTER DATABASE ...
    // ALLOW_CONNECTIONS, through the admin connection): a database that is
    // "down" while the server runs. False, with a warning, when it failed.
    bool allowConnections(bool allow);

    // Run sql on db(). On failure they log a warning naming the statement and
    // the server's message, remember it in lastError(), and exec() returns
    // false, scalar() returns -1 (and sets *ok to false).
    bool exec(const QString &sql);
    qint64 scalar(const QString &sql, bool *ok = nullptr);
    QString lastError() const { return m_lastError; }

    // The key=value conninfo of `conninfo` with dbname replaced (exposed for tests).
    static QString withDatabaseName(const QString &conninfo, const QString &dbName, QString *error = nullptr);

private:
    bool setUp();
    bool adminExec(const QString &sql);
    void dropStaleDatabases();

    QString m_error;
    QString m_lastError;
    QString m_name;
    QString m_uri;
    QString m_adminConnection;
    QString m_connection;
    QStringList m_extraConnections;
};

// Skips the test when PEPSI_TEST_DATABASE is unset; fails it when it is set but
// unusable. Forms:
//   PEPSI_REQUIRE_DATABASE();               only the skip
//   PEPSI_REQUIRE_DATABASE(tdb);            + a local TestDatabase tdb
//   PEPSI_REQUIRE_DATABASE(tdb, "name");    + the same with a name
#define PEPSI_REQUIRE_DATABASE(...)                                                                                    \
    PEPSI_REQUIRE_DATABASE_PICK(__VA_ARGS__ __VA_OPT__(, ) PEPSI_REQUIRE_DATABASE_2, PEPSI_REQUIRE_DATABASE_1,         \
                                PEPSI_REQUIRE_DATABASE_0, unused)                                                      \
    (__VA_ARGS__)
#define PEPSI_REQUIRE_DATABASE_PICK(a1, a2, macro, ...) macro
#define PEPSI_REQUIRE_DATABASE_0()                                                                                     \
    do {                                                                                                               \
        if (!TestDatabase::isConfigured())                                                                             \
            QSKIP("PEPSI_TEST_DATABASE is not set: export PEPSI_TEST_DATABASE=$(scripts/pg-sandbox start)");           \
    } while (false)
#define PEPSI_REQUIRE_DATABASE_1(var) PEPSI_REQUIRE_DATABASE_2(var, "")
#define PEPSI_REQUIRE_DATABASE_2(var, testName)                                                                        \
    PEPSI_REQUIRE_DATABASE_0();                                                                                        \
    TestDatabase var{QStringLiteral(testName)};                                                                        \
    if (!var.isValid())                                                                                                \
    QFAIL(qPrintable(var.errorString()))

// The same for a std::unique_ptr<TestDatabase> that already exists (a member
// set up in init()).
#define PEPSI_REQUIRE_DATABASE_IN(ptr, testName)                                                                       \
    PEPSI_REQUIRE_DATABASE_0();                                                                                        \
    ptr = std::make_unique<TestDatabase>(QStringLiteral(testName));                                                    \
    if (!ptr->isValid())                                                                                               \
    QFAIL(qPrintable(ptr->errorString()))
