// SPDX-License-Identifier: AGPL-3.0-or-later
#include "recenttargets.h"

#include <QSettings>

namespace pepsi::console {

using namespace Qt::StringLiterals;

QStringList RecentTargets::load() { return QSettings().value(u"recentTargets"_s).toStringList(); }

void RecentTargets::remember(const QString &text)
{
    QStringList targets = load();
    targets.removeAll(text);
    targets.prepend(text);
    while (targets.size() > Max)
        targets.removeLast();
    QSettings().setValue(u"recentTargets"_s, targets);
}

} // namespace pepsi::console
