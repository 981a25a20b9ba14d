// SPDX-License-Identifier: AGPL-3.0-or-later
#include "controlclients.h"

#include "daemonprocess.h"

#include <QRegularExpression>

QList<qint64> openControlClients(DaemonProcess &daemon)
{
    static const QRegularExpression event(QStringLiteral("client uid \\d+ pid (\\d+) (connected|gone)$"));
    QList<qint64> open;
    const QStringList lines = daemon.log().split(u'\n');
    for (const QString &line : lines) {
        const QRegularExpressionMatch match = event.match(line.trimmed());
        if (!match.hasMatch())
            continue;
        const qint64 pid = match.captured(1).toLongLong();
        if (match.captured(2) == u"connected")
            open.append(pid);
        else
            open.removeOne(pid);
    }
    return open;
}
