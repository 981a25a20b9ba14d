// SPDX-License-Identifier: AGPL-3.0-or-later
#include "schemafixtures.h"

#include "db/schemainstaller.h"
#include "testdatabase.h"

#include <QFile>
#include <QSqlError>
#include <QSqlQuery>

using namespace Qt::StringLiterals;
using pepsi::SchemaInstaller;

namespace {

// Everything the schema defines, as one digest: tables, columns, indexes with
// their predicates, triggers, functions and types of the public schema.
const QString CatalogDigestSql = uR"(
SELECT md5(string_agg(x, E'\n' ORDER BY x)) FROM (
  SELECT 'class ' || c.relname || ' ' || c.relkind::text || ' ' || coalesce(pg_get_indexdef(c.oid), '')
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public'
  UNION ALL
  SELECT 'column ' || c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
         || ' ' || coalesce(pg_get_expr(d.adbin, d.adrelid), '')
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
   WHERE n.nspname = 'public' AND a.attnum > 0 AND NOT a.attisdropped
  UNION ALL
  SELECT 'trigger ' || pg_get_triggerdef(t.oid) FROM pg_trigger t WHERE NOT t.tgisinternal
  UNION ALL
  SELECT 'function ' || p.proname || ' ' || md5(p.prosrc)
    FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'
  UNION ALL
  SELECT 'type ' || t.typname FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
   WHERE n.nspname = 'public'
) s(x))"_s;

} // namespace

QString text(const QSqlDatabase &db, const QString &sql)
{
    QSqlQuery query(db);
    if (!query.exec(sql) || !query.next()) {
        qWarning("%s: %s", qPrintable(sql), qPrintable(query.lastError().text()));
        return u"(error)"_s;
    }
    return query.value(0).toString();
}

QString catalogState(TestDatabase &tdb)
{
    return text(tdb.db(), CatalogDigestSql) + u" classes="_s
        + QString::number(tdb.scalar(u"SELECT count(*) FROM pg_class"_s)) + u" versions="_s
        + QString::number(tdb.scalar(u"SELECT count(*) FROM pepsi_schema"_s));
}

bool writeFile(const QString &path, const QByteArray &content)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(content) == content.size();
}

int copyShippedScripts(const QTemporaryDir &dir)
{
    const auto scripts = SchemaInstaller(QSqlDatabase()).scripts();
    if (!scripts)
        return 0;
    for (const SchemaInstaller::Script &script : *scripts) {
        if (!QFile::copy(script.path, dir.filePath(script.fileName)))
            return 0;
    }
    return scripts->isEmpty() ? 0 : scripts->last().version;
}

QStringList shippedNames()
{
    QStringList names;
    const auto scripts = SchemaInstaller(QSqlDatabase()).scripts();
    for (const SchemaInstaller::Script &script : scripts.ok() ? *scripts : QList<SchemaInstaller::Script>{})
        names << script.fileName;
    return names;
}

QString nextScript(int latest, int step, const QString &name)
{
    return u"%1_%2.sql"_s.arg(latest + step, 3, 10, QLatin1Char('0')).arg(name);
}

QByteArray recordsVersion(int version)
{
    return "\nCREATE TABLE IF NOT EXISTS pepsi_schema (version integer NOT NULL, installed timestamptz DEFAULT "
           "now());\n"
           "INSERT INTO pepsi_schema (version) VALUES ("
        + QByteArray::number(version) + ");\n";
}

QString toolBinary() { return qEnvironmentVariable("PEPSI_BUILD_DIR") + u"/tools/pepsi-schema"_s; }
