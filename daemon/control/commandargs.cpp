// SPDX-License-Identifier: AGPL-3.0-or-later
#include "control/commandargs.h"

#include <QJsonArray>
#include <cmath>

namespace pepsi {

namespace {

bool hasType(const QJsonValue &value, ArgType type)
{
    switch (type) {
    case ArgType::String:
        return value.isString();
    case ArgType::Integer:
        return isInteger(value);
    case ArgType::Boolean:
        return value.isBool();
    case ArgType::StringOrInteger:
        return value.isString() || isInteger(value);
    case ArgType::IntegerArray:
    case ArgType::StringArray: {
        if (!value.isArray())
            return false;
        const QJsonArray array = value.toArray();
        for (const QJsonValue each : array) {
            if (type == ArgType::IntegerArray ? !isInteger(each) : !each.isString())
                return false;
        }
        return true;
    }
    }
    return false;
}

} // namespace

QString typeName(ArgType type)
{
    switch (type) {
    case ArgType::String:
        return QStringLiteral("string");
    case ArgType::Integer:
        return QStringLiteral("integer");
    case ArgType::Boolean:
        return QStringLiteral("boolean");
    case ArgType::IntegerArray:
        return QStringLiteral("array of integers");
    case ArgType::StringArray:
        return QStringLiteral("array of strings");
    case ArgType::StringOrInteger:
        return QStringLiteral("string or integer");
    }
    return {};
}

bool isInteger(const QJsonValue &value)
{
    if (!value.isDouble())
        return false;
    const double number = value.toDouble();
    // Integral and exact in a double.
    return std::isfinite(number) && std::trunc(number) == number && std::fabs(number) <= 9007199254740992.0;
}

std::optional<QString> checkArguments(const CommandSpec &spec, const QJsonObject &request)
{
    for (const ArgSpec &arg : spec.args) {
        const QJsonValue value = request.value(arg.name);
        if (value.isUndefined() || value.isNull()) {
            if (arg.required)
                return QStringLiteral("'%1' needs the argument \"%2\" (%3)")
                    .arg(spec.name, arg.name, typeName(arg.type));
            continue;
        }
        if (!hasType(value, arg.type))
            return QStringLiteral("'%1': the argument \"%2\" must be %3 %4")
                .arg(spec.name, arg.name,
                     arg.type == ArgType::Integer || arg.type == ArgType::IntegerArray
                             || arg.type == ArgType::StringArray
                         ? QStringLiteral("an")
                         : QStringLiteral("a"),
                     typeName(arg.type));
    }
    return std::nullopt;
}

} // namespace pepsi
