// SPDX-License-Identifier: AGPL-3.0-or-later
#include "storage/dispatcherconnection.h"

#include "db/database.h"
#include "storage/pgnotices.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QStringList>

namespace pepsi {

namespace {

// What the operator's DATABASE string says wins over our defaults.
QString withDefault(QString options, const QString &keyword, const QString &value)
{
    const QString key = keyword + u'=';
    if (options.startsWith(key) || options.contains(u';' + key))
        return options;
    return options + u';' + key + value;
}

} // namespace

Result<QSqlDatabase, QString> openDispatcherConnection(const QString &connectionName, const QString &database,
                                                       const QString &applicationName, const SessionLimits &limits)
{
    auto options = qpsqlConnectOptions(database, applicationName);
    if (!options)
        return options.error();
    QString extended = options.value();
    extended = withDefault(extended, QStringLiteral("keepalives"), QStringLiteral("1"));
    extended =
        withDefault(extended, QStringLiteral("keepalives_idle"), QString::number(SessionLimits::KeepalivesIdleS));
    extended = withDefault(extended, QStringLiteral("keepalives_interval"),
                           QString::number(SessionLimits::KeepalivesIntervalS));
    extended =
        withDefault(extended, QStringLiteral("keepalives_count"), QString::number(SessionLimits::KeepalivesCount));
    extended = withDefault(extended, QStringLiteral("tcp_user_timeout"),
                           QString::number(SessionLimits::TcpUserTimeout.count()));

    QSqlDatabase db = QSqlDatabase::contains(connectionName)
        ? QSqlDatabase::database(connectionName, false)
        : QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), connectionName);
    if (!db.isValid())
        return QStringLiteral("the Qt PostgreSQL driver (QPSQL) is not available; install libqt6sql6-psql");
    db.setConnectOptions(extended);
    if (!db.open()) {
        QString reason = db.lastError().databaseText().trimmed();
        if (reason.isEmpty())
            reason = db.lastError().text().trimmed();
        return QStringLiteral("cannot connect to the database: %1").arg(reason);
    }
    routeNoticesToLog(db);
    // SET, not options='-c ...': DATABASE may carry options of its own.
    // The claim is prepared once and run thousands of times a minute; left to
    // choose, the server planned it afresh for a third to two thirds of the
    // rounds (0.7 ms each, more than running it), and its plan does not
    // depend on the stages and caps it is given (tst_queuestore checks the
    // generic plan).
    QSqlQuery query(db);
    for (const QString &sql : {QStringLiteral("SET lock_timeout = %1").arg(limits.lockTimeout.count()),
                               QStringLiteral("SET statement_timeout = %1").arg(limits.statementTimeout.count()),
                               QStringLiteral("SET plan_cache_mode = force_generic_plan")}) {
        if (!query.exec(sql)) {
            const QString reason = query.lastError().text().trimmed();
            db.close();
            return QStringLiteral("cannot set up the database session (%1): %2").arg(sql, reason);
        }
    }
    return db;
}

bool connectionAnswers(const QString &connectionName)
{
    QSqlQuery ping(QSqlDatabase::database(connectionName, false));
    return ping.exec(QStringLiteral("SELECT 1"));
}

} // namespace pepsi
