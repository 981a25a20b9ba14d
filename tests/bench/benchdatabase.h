// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QSqlQuery>
#include <QString>
#include <QVariant>

namespace pepsi::bench {

// The driver's own connection (QPSQL), with errors kept as one line.
class BenchDatabase
{
public:
    // A second connection (a session that holds a snapshot) needs a name of its own.
    explicit BenchDatabase(const QString &connectionName = QStringLiteral("pepsi-bench"));
    ~BenchDatabase();
    BenchDatabase(const BenchDatabase &) = delete;
    BenchDatabase &operator=(const BenchDatabase &) = delete;

    bool open(const QString &uri);
    bool exec(const QString &sql);
    // The first column of the first row; invalid on failure.
    QVariant scalar(const QString &sql);
    // An executed query positioned before its first row (inactive on failure).
    QSqlQuery query(const QString &sql);
    QString lastError() const { return m_lastError; }

private:
    QString m_connectionName;
    QString m_lastError;
};

} // namespace pepsi::bench
