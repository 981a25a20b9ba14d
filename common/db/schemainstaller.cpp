// SPDX-License-Identifier: AGPL-3.0-or-later
#include "db/schemainstaller.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QSqlError>
#include <QSqlQuery>

#include <algorithm>

namespace pepsi {

namespace {

QString describe(const QSqlError &error)
{
    QString text = error.databaseText().trimmed();
    if (text.isEmpty())
        text = error.driverText().trimmed();
    if (text.isEmpty())
        text = QStringLiteral("the connection is not open");
    if (!error.nativeErrorCode().isEmpty())
        text += QStringLiteral(" (SQLSTATE ") + error.nativeErrorCode() + u')';
    return text;
}

// Runs every statement of a script ($$-quoted bodies and all) as one simple
// query. Without bound values QPSQL sends the text with PQsendQuery, which
// allows several statements, but exec() reports only the first statement's
// result: a later statement's error is found by walking the remaining results.
bool execScript(QSqlQuery &query, const QString &sql)
{
    if (!query.exec(sql))
        return false;
    while (query.nextResult()) { }
    return query.lastError().type() == QSqlError::NoError;
}

// Rolls back unless commit() succeeded, so every early return leaves the
// database untouched.
class Transaction
{
public:
    explicit Transaction(QSqlDatabase &db)
        : m_db(db)
    {
        m_open = m_db.transaction();
    }
    ~Transaction()
    {
        if (m_open)
            m_db.rollback();
    }
    Transaction(const Transaction &) = delete;
    Transaction &operator=(const Transaction &) = delete;

    bool isOpen() const { return m_open; }
    bool commit()
    {
        m_open = !m_db.commit();
        return !m_open;
    }

private:
    QSqlDatabase &m_db;
    bool m_open = false;
};

} // namespace

SchemaInstaller::SchemaInstaller(const QSqlDatabase &db, QString scriptDir)
    : m_db(db)
    , m_scriptDir(std::move(scriptDir))
{ }

Result<QList<SchemaInstaller::Script>, QString> SchemaInstaller::scripts() const
{
    static const QRegularExpression namePattern(QStringLiteral("^([0-9]{3,})_[A-Za-z0-9_-]+\\.sql$"));
    const QDir dir(m_scriptDir);
    QList<Script> list;
    const QStringList names = dir.entryList({QStringLiteral("*.sql")}, QDir::Files, QDir::Name);
    for (const QString &name : names) {
        const QRegularExpressionMatch match = namePattern.match(name);
        if (!match.hasMatch())
            return QStringLiteral("%1: a schema script must be named NNN_name.sql").arg(dir.filePath(name));
        list.append({match.captured(1).toInt(), name, dir.filePath(name)});
    }
    std::sort(list.begin(), list.end(), [](const Script &a, const Script &b) { return a.version < b.version; });
    // Versions count up from 1 without gaps: a hole means a file went missing.
    for (qsizetype i = 0; i < list.size(); ++i) {
        if (list.at(i).version != i + 1)
            return QStringLiteral("%1: expected schema version %2 here (versions count 1, 2, 3, ... without "
                                  "gaps or repeats)")
                .arg(list.at(i).path)
                .arg(i + 1);
    }
    return list;
}

int SchemaInstaller::latestVersion() const
{
    const auto list = scripts();
    return list && !list->isEmpty() ? list->last().version : 0;
}

Result<int, QString> SchemaInstaller::currentVersion() const
{
    if (!m_db.isOpen())
        return QStringLiteral("cannot read the schema version: the database connection is not open");
    return recordedVersion();
}

Result<int, QString> SchemaInstaller::recordedVersion() const
{
    QSqlQuery query(m_db);
    if (!query.exec(QStringLiteral("SELECT to_regclass('pepsi_schema') IS NOT NULL")) || !query.next())
        return QStringLiteral("cannot read the schema version: ") + describe(query.lastError());
    if (!query.value(0).toBool())
        return 0;
    if (!query.exec(QStringLiteral("SELECT coalesce(max(version), 0) FROM pepsi_schema")) || !query.next())
        return QStringLiteral("cannot read the schema version from pepsi_schema: ") + describe(query.lastError());
    return query.value(0).toInt();
}

Result<SchemaInstaller::Outcome, QString> SchemaInstaller::install()
{
    const auto list = scripts();
    if (!list)
        return list.error();
    if (list->isEmpty())
        return QStringLiteral("no schema scripts found under %1 (is the resource linked in?)").arg(m_scriptDir);
    const int latest = list->last().version;
    if (!m_db.isOpen())
        return QStringLiteral("cannot install the schema: the database connection is not open");

    Transaction transaction(m_db);
    if (!transaction.isOpen())
        return QStringLiteral("cannot begin the schema transaction: ") + describe(m_db.lastError());

    QSqlQuery query(m_db);
    // Two installers at once would both see the old version; the second waits
    // here and then finds nothing left to do.
    const QString lock = QStringLiteral("SELECT pg_advisory_xact_lock(%1)").arg(LockKey);
    if (!query.exec(lock))
        return QStringLiteral("cannot take the schema lock: ") + describe(query.lastError());
    // CREATE ... IF NOT EXISTS and friends would print NOTICEs on stderr.
    if (!query.exec(QStringLiteral("SET LOCAL client_min_messages = warning")))
        return QStringLiteral("cannot prepare the schema transaction: ") + describe(query.lastError());

    const auto recorded = recordedVersion();
    if (!recorded)
        return recorded.error();
    Outcome outcome{*recorded, latest, {}};
    if (*recorded > latest)
        return QStringLiteral("the database has schema version %1, newer than version %2 that this build of "
                              "pepsi-dispatch knows; install a newer pepsi-dispatch")
            .arg(*recorded)
            .arg(latest);
    if (*recorded == latest)
        return outcome; // the guard rolls back the empty transaction

    for (const Script &script : *list) {
        if (script.version <= *recorded)
            continue;
        QFile file(script.path);
        if (!file.open(QIODevice::ReadOnly))
            return QStringLiteral("%1: cannot read: %2").arg(script.path, file.errorString());
        if (!execScript(query, QString::fromUtf8(file.readAll())))
            return QStringLiteral("%1: %2").arg(script.fileName, describe(query.lastError()));
        // Each file records its own version, so that psql -f of the files
        // gives this same database; one that forgot would be applied again.
        const auto after = recordedVersion();
        if (!after)
            return after.error();
        if (*after != script.version)
            return *after < script.version
                ? QStringLiteral("%1 does not record its version in pepsi_schema").arg(script.fileName)
                : QStringLiteral("%1 records version %2 in pepsi_schema, not its own %3")
                      .arg(script.fileName)
                      .arg(*after)
                      .arg(script.version);
        outcome.applied.append(script.fileName);
    }
    if (!transaction.commit())
        return QStringLiteral("cannot commit the schema: ") + describe(m_db.lastError());
    return outcome;
}

} // namespace pepsi
