// SPDX-License-Identifier: AGPL-3.0-or-later
// MessagesView::describe(): the detail pane's text of one `message` reply.
#include "messagesview.h"

#include "control/snapshotcodec.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace pepsi::console {

namespace {

// As the daemon wrote it ("2026-12-02T19:51:47.123Z"), empty when missing:
// the pane has always shown the protocol's own time text.
QString wireTime(const QDateTime &when) { return protocol::timeToJson(when).toString(); }

} // namespace

QString MessagesView::describe(const MessageDetail &detail)
{
    const MessageRow &row = detail.row;
    QStringList lines;
    lines << tr("Message %1 of stage %2, status %3, claimed %Ln time(s)", nullptr, int(row.claims))
                 .arg(row.id)
                 .arg(row.stage, statusTitle(row.status));
    lines << tr("Created %1, status since %2").arg(wireTime(detail.created), wireTime(row.updated));
    if (detail.timeout)
        lines << tr("Retried at %1").arg(wireTime(*detail.timeout));
    if (!row.reason.isEmpty())
        lines << tr("Reason: %1").arg(row.reason);
    if (detail.truncated) {
        lines << QString()
              << tr("The state is longer than 16 KiB: what follows is its first 16 KiB, cut (no longer "
                    "valid JSON). pepsi-ctl message %1 shows the same; the database has it whole.")
                     .arg(row.id);
        lines << QString::fromUtf8(detail.state);
    } else {
        lines << QString() << tr("State:");
        const QJsonObject state = QJsonDocument::fromJson(detail.state).object();
        lines << QString::fromUtf8(QJsonDocument(state).toJson(QJsonDocument::Indented)).trimmed();
    }
    return lines.join(u'\n');
}

} // namespace pepsi::console
