// SPDX-License-Identifier: AGPL-3.0-or-later
// MessagesView::describe(): the detail pane's text of one `message` reply.
#include "messagesview.h"

#include "control/protocol.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace pepsi::console {

namespace field = protocol::field;

QString MessagesView::describe(const QJsonObject &row)
{
    QStringList lines;
    lines << tr("Message %1 of stage %2, status %3, claimed %4 time(s)")
                 .arg(row.value(field::Id).toInteger())
                 .arg(row.value(field::Stage).toString(), row.value(field::Status).toString())
                 .arg(row.value(field::Claims).toInteger());
    lines << tr("Created %1, status since %2")
                 .arg(row.value(field::Created).toString(), row.value(field::Updated).toString());
    if (row.value(field::Timeout).isString())
        lines << tr("Retried at %1").arg(row.value(field::Timeout).toString());
    if (const QString reason = row.value(field::Reason).toString(); !reason.isEmpty())
        lines << tr("Reason: %1").arg(reason);
    const QJsonValue state = row.value(field::State);
    if (row.value(field::Truncated).toBool()) {
        lines << QString()
              << tr("The state is longer than 16 KiB: what follows is its first 16 KiB, cut (no longer "
                    "valid JSON). pepsi-ctl message %1 shows the same; the database has it whole.")
                     .arg(row.value(field::Id).toInteger());
        lines << state.toString();
    } else {
        lines << QString() << tr("State:");
        lines << QString::fromUtf8(QJsonDocument(state.toObject()).toJson(QJsonDocument::Indented)).trimmed();
    }
    return lines.join(u'\n');
}

} // namespace pepsi::console
