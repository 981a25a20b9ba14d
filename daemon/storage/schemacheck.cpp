// SPDX-License-Identifier: AGPL-3.0-or-later
#include "storage/schemacheck.h"

#include "db/schemainstaller.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QVariant>

namespace pepsi {

SchemaCheck SchemaCheck::run(const QSqlDatabase &db)
{
    const SchemaInstaller installer(db);
    SchemaCheck check;
    check.needed = installer.latestVersion();
    const auto current = installer.currentVersion();
    if (!current) {
        check.message = current.error();
        return check;
    }
    check.found = current.value();
    if (check.found >= check.needed) {
        check.verdict = Verdict::Current;
        return check;
    }
    // Version 0 recorded (or every row deleted) is an old schema, not none.
    QSqlQuery table(db);
    const bool recorded = table.exec(QStringLiteral("SELECT to_regclass('pepsi_schema') IS NOT NULL")) && table.next()
        && table.value(0).toBool();
    if (!recorded) {
        check.verdict = Verdict::Missing;
        check.message = QStringLiteral("the database has no pepsi-dispatch schema (no pepsi_schema version); "
                                       "install it with `pepsi-schema install`, then start pepsi-dispatch again");
    } else {
        check.verdict = Verdict::Older;
        check.message = QStringLiteral("the database has pepsi-dispatch schema version %1, older than version %2 "
                                       "that this build needs; upgrade it with `pepsi-schema install`, then start "
                                       "pepsi-dispatch again")
                            .arg(check.found)
                            .arg(check.needed);
    }
    return check;
}

} // namespace pepsi
