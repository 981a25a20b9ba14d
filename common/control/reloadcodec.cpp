// SPDX-License-Identifier: AGPL-3.0-or-later
#include "control/reloadcodec.h"

#include "control/codecvalues.h"
#include "control/protocol.h"

#include <QJsonArray>

namespace pepsi::protocol {

using codec::namesFromJson;

QJsonObject toJson(const ReloadChanges &changes)
{
    QJsonObject changed;
    for (auto it = changes.changed.cbegin(); it != changes.changed.cend(); ++it) {
        QJsonObject options;
        for (const OptionChange &option : it.value())
            options.insert(option.option, QJsonObject{{field::Old, option.before}, {field::New, option.after}});
        changed.insert(it.key(), options);
    }
    return {{field::Added, QJsonArray::fromStringList(changes.added)},
            {field::Removed, QJsonArray::fromStringList(changes.removed)},
            {field::Changed, changed}};
}

ReloadChanges reloadChangesFromJson(const QJsonObject &object)
{
    ReloadChanges changes;
    changes.added = namesFromJson(object.value(field::Added));
    changes.removed = namesFromJson(object.value(field::Removed));
    const QJsonObject changed = object.value(field::Changed).toObject();
    for (auto stage = changed.constBegin(); stage != changed.constEnd(); ++stage) {
        QList<OptionChange> options;
        const QJsonObject values = stage.value().toObject();
        for (auto option = values.constBegin(); option != values.constEnd(); ++option) {
            const QJsonObject pair = option.value().toObject();
            options.append({option.key(), pair.value(field::Old).toString(), pair.value(field::New).toString()});
        }
        changes.changed.insert(stage.key(), options);
    }
    return changes;
}

QJsonObject toJson(const ReloadSnapshot &reload)
{
    QJsonObject object{{field::Stages, QJsonArray::fromStringList(reload.stages)},
                       {field::Changed, toJson(reload.changed)}};
    if (!reload.source.isEmpty())
        object.insert(field::Source, reload.source);
    return object;
}

ReloadSnapshot reloadFromJson(const QJsonObject &object)
{
    return {namesFromJson(object.value(field::Stages)), reloadChangesFromJson(object.value(field::Changed).toObject()),
            object.value(field::Source).toString()};
}

QString describe(const ReloadChanges &changes)
{
    if (changes.isEmpty())
        return QStringLiteral("nothing changed");
    QStringList parts;
    if (!changes.added.isEmpty())
        parts << QStringLiteral("added ") + changes.added.join(QStringLiteral(", "));
    if (!changes.removed.isEmpty())
        parts << QStringLiteral("removed ") + changes.removed.join(QStringLiteral(", "));
    for (auto it = changes.changed.cbegin(); it != changes.changed.cend(); ++it) {
        QStringList options;
        for (const OptionChange &option : it.value())
            options << QStringLiteral("%1 %2 \u2192 %3")
                           .arg(option.option, option.before.isEmpty() ? QStringLiteral("\"\"") : option.before,
                                option.after.isEmpty() ? QStringLiteral("\"\"") : option.after);
        parts << it.key() + u' ' + options.join(QStringLiteral(", "));
    }
    return parts.join(QStringLiteral("; "));
}

} // namespace pepsi::protocol
