// SPDX-License-Identifier: AGPL-3.0-or-later
#include "requeuefeed.h"

namespace pepsi::ctl {

namespace {

// Longer than any id with the blanks around it: a line past this is no id,
// and is not read whole into memory.
constexpr qint64 MaxLineBytes = 64;

} // namespace

Result<RequeueFeed, QString> RequeueFeed::read(QIODevice &in)
{
    RequeueFeed feed;
    qint64 lineNumber = 0;
    for (;;) {
        QByteArray line = in.readLine(MaxLineBytes + 2); // at most MaxLineBytes + 1 bytes
        // A blocking read (stdin) returns nothing only at its end.
        if (line.isEmpty())
            break;
        ++lineNumber;
        if (line.size() > MaxLineBytes && !line.endsWith('\n'))
            return QStringLiteral("stdin line %1: not a message id (a line of more than %2 bytes)")
                .arg(lineNumber)
                .arg(MaxLineBytes);
        const QByteArray text = line.trimmed();
        if (text.isEmpty())
            continue;
        bool ok = false;
        const qint64 id = text.toLongLong(&ok);
        if (!ok || id < 1 || text.startsWith('+'))
            return QStringLiteral("stdin line %1: \"%2\" is not a message id")
                .arg(lineNumber)
                .arg(QString::fromUtf8(text));
        if (feed.m_ids.size() >= MaxIds)
            return QStringLiteral("more than %1 ids on stdin; give them in several runs").arg(MaxIds);
        feed.m_ids.append(id);
    }
    return feed;
}

} // namespace pepsi::ctl
