// SPDX-License-Identifier: AGPL-3.0-or-later
#include "storage/overlaystore.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace pepsi {

OverlayStore::OverlayStore(QString connectionName)
    : m_connectionName(std::move(connectionName))
{ }

std::optional<QList<OverlayRow>> OverlayStore::read()
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.setForwardOnly(true);
    if (!query.exec(QStringLiteral("SELECT section, option, value FROM config_overlay ORDER BY section, option"))) {
        m_lastError = QStringLiteral("reading config_overlay failed: ") + query.lastError().text().trimmed();
        return std::nullopt;
    }
    QList<OverlayRow> rows;
    while (query.next())
        rows.append({query.value(0).toString(), query.value(1).toString(), query.value(2).toString()});
    return rows;
}

} // namespace pepsi
