// SPDX-License-Identifier: AGPL-3.0-or-later
#include "db/database.h"

#include <QSqlError>
#include <QStringList>

#include <libpq-fe.h>
#include <memory>

namespace pepsi {

namespace {

struct ConninfoDeleter
{
    void operator()(PQconninfoOption *options) const { PQconninfoFree(options); }
};

QString quoted(const QString &value)
{
    QString escaped = value;
    escaped.replace(u'\\', QStringLiteral("\\\\")).replace(u'\'', QStringLiteral("\\'"));
    return u'\'' + escaped + u'\'';
}

} // namespace

Result<QString, QString> qpsqlConnectOptions(const QString &database, const QString &applicationName)
{
    char *rawError = nullptr;
    std::unique_ptr<PQconninfoOption, ConninfoDeleter> options(
        PQconninfoParse(database.toUtf8().constData(), &rawError));
    if (!options) {
        QString reason = rawError ? QString::fromUtf8(rawError).trimmed() : QStringLiteral("out of memory");
        PQfreemem(rawError);
        return failure(QStringLiteral("DATABASE \"%1\" is not a libpq connection string: %2").arg(database, reason));
    }

    // QPSQL joins its connect options with spaces after turning ';' into ' ',
    // so a value holding ';' cannot be passed through it faithfully.
    QStringList pairs;
    bool hasConnectTimeout = false;
    for (PQconninfoOption *option = options.get(); option->keyword; ++option) {
        if (!option->val)
            continue;
        const QString keyword = QString::fromUtf8(option->keyword);
        const QString value = QString::fromUtf8(option->val);
        if (keyword == u"application_name" && !applicationName.isEmpty())
            continue;
        if (value.contains(u';'))
            return failure(QStringLiteral("DATABASE: the value of %1 contains ';', which the Qt PostgreSQL "
                                          "driver cannot pass on")
                               .arg(keyword));
        hasConnectTimeout |= keyword == u"connect_timeout";
        pairs << keyword + u'=' + quoted(value);
    }
    if (!applicationName.isEmpty())
        pairs << QStringLiteral("application_name=") + quoted(applicationName.left(63));
    // A dead server behind TCP must not freeze the event loop for long.
    if (!hasConnectTimeout)
        pairs << QStringLiteral("connect_timeout=5");
    return QString(pairs.join(u';'));
}

Result<QSqlDatabase, QString> openDatabase(const QString &connectionName, const QString &database,
                                           const QString &applicationName)
{
    auto options = qpsqlConnectOptions(database, applicationName);
    if (!options)
        return options.error();
    QSqlDatabase db = QSqlDatabase::contains(connectionName)
        ? QSqlDatabase::database(connectionName, false)
        : QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), connectionName);
    if (!db.isValid())
        return QStringLiteral("the Qt PostgreSQL driver (QPSQL) is not available; install libqt6sql6-psql");
    db.setConnectOptions(options.value());
    if (!db.open()) {
        QString reason = db.lastError().databaseText().trimmed();
        if (reason.isEmpty())
            reason = db.lastError().text().trimmed();
        return QStringLiteral("cannot connect to the database: %1").arg(reason);
    }
    return db;
}

} // namespace pepsi
