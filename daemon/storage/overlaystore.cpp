// SPDX-License-Identifier: AGPL-3.0-or-later
#include "storage/overlaystore.h"
#include "storage/queueconnection.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace pepsi {

OverlayStore::OverlayStore(QueueConnection &connection)
    : m_connection(connection)
{ }

std::optional<QList<OverlayRow>> OverlayStore::read()
{
    QSqlQuery query(m_connection.database());
    query.setForwardOnly(true);
    // One row and one character past the bounds, so that Configuration::withOverlay
    // refuses an oversized overlay without this reading all of it.
    // Preparing already takes the table's lock (and may time out on it);
    // an EXECUTE of a statement that failed to prepare would only report a
    // syntax error.
    if (!query.prepare(QStringLiteral("SELECT left(section, :c1), left(option, :c2), left(value, :c3)"
                                      " FROM config_overlay ORDER BY section, option LIMIT :rows"))) {
        m_lastError = QStringLiteral("reading config_overlay failed: ") + query.lastError().text().trimmed();
        return std::nullopt;
    }
    for (const QString &chars : {QStringLiteral(":c1"), QStringLiteral(":c2"), QStringLiteral(":c3")})
        query.bindValue(chars, Configuration::MaxValueChars + 1);
    query.bindValue(QStringLiteral(":rows"), Configuration::MaxOverlayRows + 1);
    if (!query.exec()) {
        m_lastError = QStringLiteral("reading config_overlay failed: ") + query.lastError().text().trimmed();
        return std::nullopt;
    }
    QList<OverlayRow> rows;
    while (query.next())
        rows.append({query.value(0).toString(), query.value(1).toString(), query.value(2).toString()});
    return rows;
}

} // namespace pepsi
