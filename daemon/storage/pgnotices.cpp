// SPDX-License-Identifier: AGPL-3.0-or-later
#include "storage/pgnotices.h"

#include "model/logcategories.h"

#include <QByteArrayView>
#include <QSqlDatabase>
#include <QSqlDriver>
#include <QVariant>

#include <libpq-fe.h>

namespace pepsi {

namespace {

QString field(const PGresult *result, int code)
{
    const char *value = PQresultErrorField(result, code);
    // One line: a DETAIL or a message of several lines is folded.
    return value ? QString::fromUtf8(value).simplified() : QString();
}

// libpq calls this on the thread running the statement (or the read) that
// brought the notice: each connection is used by one thread only.
void receiveNotice(void *, const PGresult *result)
{
    QString severity = field(result, PG_DIAG_SEVERITY_NONLOCALIZED);
    if (severity.isEmpty())
        severity = field(result, PG_DIAG_SEVERITY);
    QString text = field(result, PG_DIAG_MESSAGE_PRIMARY);
    if (text.isEmpty()) // a notice libpq made itself may have no fields
        text = QString::fromUtf8(PQresultErrorMessage(result)).simplified();
    if (const QString detail = field(result, PG_DIAG_MESSAGE_DETAIL); !detail.isEmpty())
        text += QStringLiteral(" (detail: %1)").arg(detail);
    if (const QString hint = field(result, PG_DIAG_MESSAGE_HINT); !hint.isEmpty())
        text += QStringLiteral(" (hint: %1)").arg(hint);
    const QString line =
        QStringLiteral("PostgreSQL %1: %2").arg(severity.isEmpty() ? QStringLiteral("NOTICE") : severity, text);
    if (severity == u"NOTICE" || severity == u"INFO" || severity.isEmpty())
        qCInfo(lcStore).noquote() << line;
    else if (severity == u"LOG" || severity.startsWith(u"DEBUG"))
        qCDebug(lcStore).noquote() << line;
    else // WARNING, and an ERROR, FATAL or PANIC that came outside a statement
        qCWarning(lcStore).noquote() << line;
}

} // namespace

void routeNoticesToLog(const QSqlDatabase &db)
{
    // QPSQL's handle is a PGconn*; Qt 6 names its meta type after the struct
    // behind the typedef ("pg_conn*").
    const QVariant handle = db.driver() ? db.driver()->handle() : QVariant();
    const QByteArrayView type = handle.typeName();
    if (type != "PGconn*" && type != "pg_conn*")
        return;
    if (PGconn *conn = *static_cast<PGconn *const *>(handle.constData()))
        PQsetNoticeReceiver(conn, receiveNotice, nullptr);
}

} // namespace pepsi
