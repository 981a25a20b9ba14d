// SPDX-License-Identifier: AGPL-3.0-or-later
#include "control/helpcodec.h"

#include "control/protocol.h"

#include <QJsonArray>

namespace pepsi::protocol {

QHash<QString, QStringList> commandArgumentsFromJson(const QJsonObject &help)
{
    QHash<QString, QStringList> commands;
    for (const QJsonValue each : help.value(field::Commands).toArray()) {
        QStringList names;
        for (const QJsonValue arg : each[field::Args].toArray())
            names.append(arg[field::Name].toString());
        commands.insert(each[field::Cmd].toString(), names);
    }
    return commands;
}

} // namespace pepsi::protocol
