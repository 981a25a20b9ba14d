// SPDX-License-Identifier: AGPL-3.0-or-later
#include "outcome.h"

namespace pepsi::stagekit {

QByteArray Outcome::statusLine(const QList<FusedReport> &fused) const
{
    if (code == 0) {
        QByteArray line = QByteArrayLiteral("0");
        for (const FusedReport &report : fused)
            line += " +" + report.stage + ':' + QByteArray::number(report.usec);
        return line + '\n';
    }

    QByteArray text = reason;
    for (char &c : text) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            c = ' ';
    }
    text = text.trimmed();
    if (text.size() > MaxReasonBytes) {
        qsizetype cut = MaxReasonBytes;
        // never leave half a UTF-8 sequence: back up over continuation bytes
        while (cut > 0 && (static_cast<unsigned char>(text.at(cut)) & 0xc0) == 0x80)
            --cut;
        text.truncate(cut);
    }
    // "CODE REASON": an empty reason would make the line ambiguous to read
    if (text.isEmpty())
        text = QByteArrayLiteral("stage failed without a reason");
    QByteArray line = QByteArray::number(code);
    line += ' ';
    line += text;
    line += '\n';
    return line;
}

} // namespace pepsi::stagekit
