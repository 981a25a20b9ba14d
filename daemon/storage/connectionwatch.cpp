// SPDX-License-Identifier: AGPL-3.0-or-later
#include "storage/connectionwatch.h"

#include <QSocketNotifier>
#include <QSqlDatabase>
#include <QSqlDriver>
#include <QVariant>

#include <libpq-fe.h>

namespace pepsi {

ConnectionWatch::ConnectionWatch(QObject *parent)
    : QObject(parent)
{ }

ConnectionWatch::~ConnectionWatch() = default;

bool ConnectionWatch::watch(const QString &connectionName)
{
    stop();
    const QSqlDatabase db = QSqlDatabase::database(connectionName, false);
    if (!db.isOpen())
        return false;
    // QPSQL's handle is a PGconn*; Qt 6 names its meta type after the
    // struct behind the typedef ("pg_conn*").
    const QVariant handle = db.driver()->handle();
    const QByteArray type = handle.typeName();
    if (type != "PGconn*" && type != "pg_conn*")
        return false;
    PGconn *conn = *static_cast<PGconn *const *>(handle.constData());
    const int fd = conn ? PQsocket(conn) : -1;
    if (fd < 0)
        return false;
    m_conn = conn;
    m_notifier = std::make_unique<QSocketNotifier>(fd, QSocketNotifier::Read);
    connect(m_notifier.get(), &QSocketNotifier::activated, this, &ConnectionWatch::poll);
    return true;
}

void ConnectionWatch::stop()
{
    m_notifier.reset();
    m_conn = nullptr;
}

bool ConnectionWatch::poll()
{
    if (!m_conn)
        return false;
    if (!PQconsumeInput(m_conn) || PQstatus(m_conn) != CONNECTION_OK) {
        // libpq has closed the socket: stop watching it before the event loop
        // looks at a descriptor number that may be reused.
        const QString reason = QString::fromUtf8(PQerrorMessage(m_conn)).simplified();
        stop();
        Q_EMIT lost(reason.isEmpty() ? QStringLiteral("the server closed the connection") : reason);
        return false;
    }
    while (PGnotify *notify = PQnotifies(m_conn)) {
        const QString channel = QString::fromUtf8(notify->relname);
        const QString payload = QString::fromUtf8(notify->extra);
        PQfreemem(notify);
        Q_EMIT notified(channel, payload);
        if (!m_conn) // a receiver stopped the watch
            return false;
    }
    return true;
}

} // namespace pepsi
