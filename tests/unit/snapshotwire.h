// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

// What the tests of the control protocol's snapshots share: the round trip
// through text and one fixed moment.
#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>

// Through text, as on the wire.
inline QJsonObject wire(const QJsonObject &object)
{
    return QJsonDocument::fromJson(QJsonDocument(object).toJson(QJsonDocument::Compact)).object();
}

inline const QDateTime when = QDateTime(QDate(2026, 12, 2), QTime(19, 51, 47, 123), Qt::UTC);
