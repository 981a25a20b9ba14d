// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "control/codecvalues.h"
#include "control/protocol.h"
#include "control/snapshotcodec.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <tuple>
#include <type_traits>

// A snapshot's plain fields as one table of wire name and member, so that
// its JSON is written and read by one walk of that table instead of by two
// hand-written walks that must agree name for name.
// Lists and maps of snapshots likewise: one walk each way.
namespace pepsi::protocol::codec {

// Whether empty text goes on the wire as "" or as null (textOrNull).
enum class EmptyText { Text, Null };

template<typename S, typename T>
struct Field
{
    Name name;
    T S::*member;
    EmptyText empty = EmptyText::Text;
};

// Spelled out for compilers without C++20's deduction for aggregates (clang
// before 17, which clang-tidy uses).
template<typename S, typename T>
Field(Name, T S::*, EmptyText = EmptyText::Text) -> Field<S, T>;

// Each C++ type of a field, written as the hand-written codecs wrote it:
// counts as doubles, text null or "" as the field says.
inline QJsonValue fieldToJson(qint64 value, EmptyText) { return double(value); }
inline QJsonValue fieldToJson(const QString &text, EmptyText empty)
{
    return empty == EmptyText::Null ? textOrNull(text) : QJsonValue(text);
}
inline QJsonValue fieldToJson(const QStringList &names, EmptyText) { return QJsonArray::fromStringList(names); }
inline QJsonValue fieldToJson(const QDateTime &when, EmptyText) { return timeToJson(when); }
template<typename T>
requires(std::is_same_v<T, int> || std::is_same_v<T, double> || std::is_same_v<T, bool>) QJsonValue
    fieldToJson(T value, EmptyText)
{
    return QJsonValue(value);
}

// And back, picked by the member's type.
inline constexpr auto fieldReaders = std::tuple{
    +[](const QJsonValue &v) -> qint64 { return v.toInteger(); },
    +[](const QJsonValue &v) -> int { return v.toInt(); },
    +[](const QJsonValue &v) -> double { return v.toDouble(); },
    +[](const QJsonValue &v) -> bool { return v.toBool(); },
    +[](const QJsonValue &v) -> QString { return v.toString(); },
    +[](const QJsonValue &v) -> QStringList { return namesFromJson(v); },
    +[](const QJsonValue &v) -> QDateTime { return timeFromJson(v); },
};

template<typename T>
T fieldFromJson(const QJsonValue &value)
{
    return std::get<T (*)(const QJsonValue &)>(fieldReaders)(value);
}

template<typename S, typename... Fields>
void insertFields(QJsonObject &object, const S &snapshot, const std::tuple<Fields...> &table)
{
    std::apply(
        [&](const auto &...field) {
            (object.insert(field.name, fieldToJson(snapshot.*field.member, field.empty)), ...);
        },
        table);
}

template<typename S, typename... Fields>
QJsonObject fieldsToJson(const S &snapshot, const std::tuple<Fields...> &table)
{
    return std::apply(
        [&](const auto &...field) {
            return QJsonObject{{field.name, fieldToJson(snapshot.*field.member, field.empty)}...};
        },
        table);
}

template<typename S, typename... Fields>
void readFields(const QJsonObject &object, S &snapshot, const std::tuple<Fields...> &table)
{
    std::apply(
        [&](const auto &...field) {
            ((snapshot.*field.member =
                  fieldFromJson<std::remove_cvref_t<decltype(snapshot.*field.member)>>(object.value(field.name))),
             ...);
        },
        table);
}

template<typename S, typename... Fields>
S fieldsFromJson(const QJsonObject &object, const std::tuple<Fields...> &table)
{
    S snapshot;
    readFields(object, snapshot, table);
    return snapshot;
}

// [{...}, ...] and {"NAME": {...}, ...}: each item written by toJson and read
// back by fromJson, the lists and maps of every reply walked by these.
template<typename T, typename ToJson>
QJsonArray listToJson(const QList<T> &items, ToJson toJson)
{
    QJsonArray list;
    for (const T &item : items)
        list.append(toJson(item));
    return list;
}

template<typename T, typename FromJson>
QList<T> listFromJson(const QJsonValue &value, FromJson fromJson)
{
    QList<T> items;
    for (const QJsonValue each : value.toArray())
        items.append(fromJson(each.toObject()));
    return items;
}

template<typename T, typename ToJson>
QJsonObject mapToJson(const QMap<QString, T> &items, ToJson toJson)
{
    QJsonObject object;
    for (auto it = items.cbegin(); it != items.cend(); ++it)
        object.insert(it.key(), toJson(it.value()));
    return object;
}

template<typename T, typename FromJson>
QMap<QString, T> mapFromJson(const QJsonValue &value, FromJson fromJson)
{
    QMap<QString, T> items;
    const QJsonObject object = value.toObject();
    for (auto it = object.constBegin(); it != object.constEnd(); ++it)
        items.insert(it.key(), fromJson(it.value().toObject()));
    return items;
}

} // namespace pepsi::protocol::codec
