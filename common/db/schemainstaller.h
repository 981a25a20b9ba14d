// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "result.h"

#include <QList>
#include <QSqlDatabase>
#include <QString>
#include <QStringList>

namespace pepsi {

// Installs or upgrades the pepsi-dispatch schema from the versioned SQL files
// embedded under :/sql/ (resources/sql/NNN_name.sql). Each file records its
// own version in pepsi_schema (so that a DBA may apply them with psql instead);
// every file newer than the recorded version is applied in one transaction,
// and one that does not record its version fails it, so a failed upgrade
// leaves the database as it was.
class SchemaInstaller
{
public:
    // Serialises concurrent installers on one database ("pepssch"); distinct
    // from the dispatcher's own lock key.
    static constexpr qint64 LockKey = 0x70657073736368;

    struct Script
    {
        int version = 0;
        QString fileName; // "001_initial.sql"
        QString path;     // ":/sql/001_initial.sql"
    };

    struct Outcome
    {
        int fromVersion = 0;
        int toVersion = 0;
        QStringList applied; // file names, in order; empty when already current
    };

    // db must be an open QPSQL connection; it is used from the calling thread.
    explicit SchemaInstaller(const QSqlDatabase &db, QString scriptDir = QStringLiteral(":/sql"));

    // The scripts this build carries, by version. An error names a file whose
    // name is not NNN_name.sql or a version that appears twice or is skipped.
    Result<QList<Script>, QString> scripts() const;
    // The highest version this build knows; 0 when it carries no script.
    int latestVersion() const;
    // The recorded version; 0 when pepsi_schema does not exist yet.
    Result<int, QString> currentVersion() const;
    // Applies what is missing. Refuses a database whose recorded version is
    // newer than latestVersion(). Running it again changes nothing.
    Result<Outcome, QString> install();

private:
    Result<int, QString> recordedVersion() const;

    QSqlDatabase m_db;
    QString m_scriptDir;
};

} // namespace pepsi
