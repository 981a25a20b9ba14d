// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

// What the schema tests (tst_schema, tst_schemafiles) share: a digest of what
// the schema defines, and script directories built from the shipped scripts.
#include <QByteArray>
#include <QSqlDatabase>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

class TestDatabase;

// The first column of the first row of sql; "(error)" with a warning on failure.
QString text(const QSqlDatabase &db, const QString &sql);
// Everything the schema defines (tables, columns, indexes with their
// predicates, triggers, functions and types of the public schema) as one
// digest, the number of classes and of pepsi_schema rows.
QString catalogState(TestDatabase &tdb);
bool writeFile(const QString &path, const QByteArray &content);
// Copies the scripts this build ships into dir, for a test that adds the next
// ones; returns the last version copied (0 on failure).
int copyShippedScripts(const QTemporaryDir &dir);
// The file names of the scripts this build ships, in order.
QStringList shippedNames();
// "003_name.sql" for version latest + step.
QString nextScript(int latest, int step, const QString &name);
// What every script ends with (resources/sql/): it records its own version.
QByteArray recordsVersion(int version);
// The pepsi-schema program of the build under test.
QString toolBinary();
