// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QJsonArray>
#include <QJsonValue>
#include <QString>
#include <QStringList>
#include <optional>

// How the codecs write an absent value: null on the wire, never a made-up 0 or "".
namespace pepsi::protocol::codec {

inline QJsonValue optionalNumber(const std::optional<qint64> &number)
{
    return number ? QJsonValue(double(*number)) : QJsonValue(QJsonValue::Null);
}

inline std::optional<qint64> numberOrNothing(const QJsonValue &value)
{
    return value.isDouble() ? std::optional<qint64>(value.toInteger()) : std::nullopt;
}

inline QJsonValue textOrNull(const QString &text)
{
    return text.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(text);
}

// A JSON array of names (stage names, say) as a list; what is not text is empty.
inline QStringList namesFromJson(const QJsonValue &value)
{
    QStringList names;
    for (const QJsonValue name : value.toArray())
        names.append(name.toString());
    return names;
}

} // namespace pepsi::protocol::codec
