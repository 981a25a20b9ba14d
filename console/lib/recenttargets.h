// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QStringList>

namespace pepsi::console {

// The targets the console was last pointed at, newest first, kept in
// QSettings ("recentTargets") for the Connect dialog to offer.
class RecentTargets
{
public:
    static constexpr int Max = 10;

    static QStringList load();
    // `text` first, once; the oldest beyond Max dropped.
    static void remember(const QString &text);
};

} // namespace pepsi::console
