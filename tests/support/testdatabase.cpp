// SPDX-License-Identifier: AGPL-3.0-or-later
#include "testdatabase.h"

#include "db/database.h"
#include "db/schemainstaller.h"

#include <QAtomicInt>
#include <QCoreApplication>
#include <QRegularExpression>
#include <QSqlError>
#include <QSqlQuery>

#include <cerrno>
#include <csignal>
#include <libpq-fe.h>
#include <memory>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace {

QAtomicInt s_instances;

QString describe(const QSqlError &error)
{
    const QString text = error.databaseText().trimmed();
    return text.isEmpty() ? error.text().trimmed() : text;
}

// Lower-case letters, digits and '_' only: the name is quoted anyway, but it
// should read well in psql and logs.
QString sanitised(const QString &text)
{
    QString out;
    for (const QChar c : text.toLower())
        out += (c.isLetterOrNumber() && c.unicode() < 128) ? c : u'_';
    return out;
}

QString quotedIdentifier(const QString &name) { return u'"' + QString(name).replace(u'"', u"\"\""_s) + u'"'; }

QString quotedValue(const QString &value)
{
    QString escaped = value;
    escaped.replace(u'\\', u"\\\\"_s).replace(u'\'', u"\\'"_s);
    return u'\'' + escaped + u'\'';
}

struct ConninfoDeleter
{
    void operator()(PQconninfoOption *options) const { PQconninfoFree(options); }
};

} // namespace

bool TestDatabase::isConfigured() { return !qEnvironmentVariableIsEmpty("PEPSI_TEST_DATABASE"); }

TestDatabase::TestDatabase(const QString &testName)
{
    const int n = s_instances.fetchAndAddRelaxed(1);
    m_adminConnection = u"pepsi-test-admin-%1"_s.arg(n);
    m_connection = u"pepsi-test-%1"_s.arg(n);
    QString base = testName;
    if (base.isEmpty()) {
        base = QCoreApplication::applicationName();
        if (const char *function = QTest::currentTestFunction())
            base += u'_' + QString::fromLatin1(function);
    }
    m_name = u"pepsi_t_%1_%2_%3"_s.arg(sanitised(base).left(40)).arg(::getpid()).arg(n);
    setUp();
}

bool TestDatabase::setUp()
{
    const QString admin = qEnvironmentVariable("PEPSI_TEST_DATABASE");
    if (admin.isEmpty()) {
        m_error = u"PEPSI_TEST_DATABASE is not set: export PEPSI_TEST_DATABASE=$(scripts/pg-sandbox start)"_s;
        return false;
    }
    const auto adminDb = pepsi::openDatabase(m_adminConnection, admin, u"pepsi-test-admin"_s);
    if (!adminDb) {
        m_error = u"PEPSI_TEST_DATABASE=%1: %2"_s.arg(admin, adminDb.error());
        m_adminConnection.clear(); // nothing to drop
        return false;
    }
    dropStaleDatabases();
    // template0: nobody is ever connected to it, while a concurrent test may
    // be connected to template1 and make CREATE DATABASE fail.
    if (!adminExec(u"CREATE DATABASE %1 TEMPLATE template0 ENCODING 'UTF8'"_s.arg(quotedIdentifier(m_name)))) {
        m_error = u"cannot create the test database %1: %2"_s.arg(m_name, m_lastError);
        m_name.clear();
        return false;
    }
    QString error;
    m_uri = withDatabaseName(admin, m_name, &error);
    if (m_uri.isEmpty()) {
        m_error = error;
        return false;
    }
    const auto db = pepsi::openDatabase(m_connection, m_uri, u"pepsi-test"_s);
    if (!db) {
        m_error = u"cannot connect to the test database %1: %2"_s.arg(m_name, db.error());
        return false;
    }
    pepsi::SchemaInstaller installer(*db);
    const auto installed = installer.install();
    if (!installed) {
        m_error = u"cannot install the schema into %1: %2"_s.arg(m_name, installed.error());
        return false;
    }
    return true;
}

TestDatabase::~TestDatabase()
{
    // Connections first: they must be closed before their database is dropped.
    for (const QString &name : std::as_const(m_extraConnections))
        QSqlDatabase::removeDatabase(name);
    QSqlDatabase::removeDatabase(m_connection);
    if (m_adminConnection.isEmpty())
        return;
    if (!m_name.isEmpty() && !adminExec(u"DROP DATABASE IF EXISTS %1 WITH (FORCE)"_s.arg(quotedIdentifier(m_name))))
        qWarning("cannot drop the test database %s: %s", qPrintable(m_name), qPrintable(m_lastError));
    QSqlDatabase::removeDatabase(m_adminConnection);
}

QSqlDatabase TestDatabase::db() const { return QSqlDatabase::database(m_connection, false); }

QSqlDatabase TestDatabase::newConnection(const QString &suffix)
{
    const QString name = m_connection + u'-' + suffix;
    const auto db = pepsi::openDatabase(name, m_uri, u"pepsi-test-"_s + suffix);
    if (!m_extraConnections.contains(name))
        m_extraConnections.append(name);
    if (!db) {
        qWarning("cannot open connection %s to %s: %s", qPrintable(name), qPrintable(m_name), qPrintable(db.error()));
        return {};
    }
    return *db;
}

bool TestDatabase::exec(const QString &sql)
{
    QSqlQuery query(db());
    if (query.exec(sql))
        return true;
    m_lastError = u"%1: %2"_s.arg(sql, describe(query.lastError()));
    qWarning("%s", qPrintable(m_lastError));
    return false;
}

qint64 TestDatabase::scalar(const QString &sql, bool *ok)
{
    QSqlQuery query(db());
    const bool done = query.exec(sql) && query.next();
    if (ok)
        *ok = done;
    if (done)
        return query.value(0).toLongLong();
    m_lastError = u"%1: %2"_s.arg(sql, query.isActive() ? u"no row"_s : describe(query.lastError()));
    qWarning("%s", qPrintable(m_lastError));
    return -1;
}

bool TestDatabase::adminExec(const QString &sql)
{
    QSqlQuery query(QSqlDatabase::database(m_adminConnection, false));
    if (query.exec(sql))
        return true;
    m_lastError = describe(query.lastError());
    return false;
}

// A test process killed by a timeout never runs its destructors; its databases
// would pile up in a long-lived sandbox. Only for a server on this machine
// (unix socket), where the pid in the name means something.
void TestDatabase::dropStaleDatabases()
{
    QSqlDatabase admin = QSqlDatabase::database(m_adminConnection, false);
    QSqlQuery query(admin);
    if (!query.exec(u"SELECT inet_server_addr() IS NULL"_s) || !query.next() || !query.value(0).toBool())
        return;
    if (!query.exec(u"SELECT datname FROM pg_database WHERE datname LIKE 'pepsi\\_t\\_%'"_s))
        return;
    static const QRegularExpression pidPattern(u"_([0-9]+)_[0-9]+$"_s);
    QStringList stale;
    while (query.next()) {
        const QString name = query.value(0).toString();
        const auto match = pidPattern.match(name);
        if (!match.hasMatch())
            continue;
        const pid_t pid = match.captured(1).toInt();
        if (pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH)
            stale << name;
    }
    for (const QString &name : std::as_const(stale))
        adminExec(u"DROP DATABASE IF EXISTS %1 WITH (FORCE)"_s.arg(quotedIdentifier(name)));
}

QString TestDatabase::withDatabaseName(const QString &conninfo, const QString &dbName, QString *error)
{
    char *rawError = nullptr;
    std::unique_ptr<PQconninfoOption, ConninfoDeleter> options(
        PQconninfoParse(conninfo.toUtf8().constData(), &rawError));
    if (!options) {
        if (error)
            *error = u"PEPSI_TEST_DATABASE=%1 is not a libpq connection string: %2"_s.arg(
                conninfo, rawError ? QString::fromUtf8(rawError).trimmed() : u"out of memory"_s);
        PQfreemem(rawError);
        return {};
    }
    QStringList pairs;
    for (PQconninfoOption *option = options.get(); option->keyword; ++option) {
        const QString keyword = QString::fromUtf8(option->keyword);
        if (!option->val || keyword == u"dbname")
            continue;
        pairs << keyword + u'=' + quotedValue(QString::fromUtf8(option->val));
    }
    pairs << u"dbname="_s + quotedValue(dbName);
    return pairs.join(u' ');
}

// ALTER DATABASE ... ALLOW_CONNECTIONS cannot be run from inside that database.
bool TestDatabase::allowConnections(bool allow)
{
    const QString name = u"pepsi-test-admin-allow"_s;
    bool ok = false;
    {
        const auto admin = pepsi::openDatabase(name, qEnvironmentVariable("PEPSI_TEST_DATABASE"), name);
        if (admin) {
            QSqlQuery q(*admin);
            ok = q.exec(u"ALTER DATABASE %1 ALLOW_CONNECTIONS %2"_s.arg(m_name, allow ? u"true"_s : u"false"_s));
            if (!ok)
                qWarning("%s", qPrintable(q.lastError().text()));
        }
    }
    QSqlDatabase::removeDatabase(name);
    return ok;
}
