// SPDX-License-Identifier: AGPL-3.0-or-later
#include "config/configerror.h"

namespace pepsi {

QString ConfigOrigin::describe() const
{
    if (isOverlay()) {
        // A stage that exists only in the overlay has no single row to blame
        // for a missing option: name just the section then.
        if (overlayOption.isEmpty())
            return QStringLiteral("config_overlay (") + overlaySection + u')';
        return QStringLiteral("config_overlay (") + overlaySection + QStringLiteral(", ") + overlayOption + u')';
    }
    if (file.isEmpty())
        return line > 0 ? QStringLiteral("line ") + QString::number(line) : QString(); // parsed text, no file
    if (line > 0)
        return file + u':' + QString::number(line);
    return file;
}

QString ConfigError::toString() const
{
    const QString where = origin.describe();
    if (where.isEmpty())
        return reason;
    return where + QStringLiteral(": ") + reason;
}

} // namespace pepsi
