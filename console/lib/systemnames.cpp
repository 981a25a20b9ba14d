// SPDX-License-Identifier: AGPL-3.0-or-later
#include "systemnames.h"

#include <QFileInfo>
#include <QHash>
#include <QSet>

namespace pepsi::console {

QString SystemNames::shortName(const System &system)
{
    if (system.target.isSsh())
        return system.target.host;
    if (!system.database.isEmpty())
        return system.database;
    const QString file = QFileInfo(system.target.socketPath).fileName();
    return file.isEmpty() ? system.target.text : file;
}

QStringList SystemNames::unique(const QList<System> &systems)
{
    QStringList names;
    QHash<QString, int> uses;
    for (const System &system : systems) {
        names.append(shortName(system));
        ++uses[names.constLast()];
    }
    // A port tells apart two daemons of one host, as the operator wrote them.
    for (qsizetype i = 0; i < systems.size(); ++i) {
        const transport::Target &target = systems[i].target;
        if (uses.value(names[i]) > 1 && target.isSsh() && target.port > 0)
            names[i] += u':' + QString::number(target.port);
    }
    // Whatever still collides is numbered in the order the systems were added.
    QSet<QString> taken;
    for (QString &name : names) {
        const QString plain = name;
        for (int n = 2; taken.contains(name); ++n)
            name = QStringLiteral("%1 (%2)").arg(plain).arg(n);
        taken.insert(name);
    }
    return names;
}

} // namespace pepsi::console
