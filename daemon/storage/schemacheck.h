// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QSqlDatabase>
#include <QString>

namespace pepsi {

// Whether the database carries the schema this build's statements need: at
// least the newest version under resources/sql/ (SchemaInstaller). Run once,
// before the lock is taken and before anything is written.
struct SchemaCheck
{
    enum class Verdict { Current, Missing, Older, Unknown };
    Verdict verdict = Verdict::Unknown;
    int found = 0;
    int needed = 0;
    QString message; // for the log: what is wrong and what to run

    static SchemaCheck run(const QSqlDatabase &db);
};

} // namespace pepsi
