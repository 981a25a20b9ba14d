// SPDX-License-Identifier: AGPL-3.0-or-later
#include "protocol/statusline.h"

#include "protocol/decimal.h"

#include <limits>
#include <optional>

namespace pepsi {

namespace {

bool isStageName(QByteArrayView name)
{
    if (name.isEmpty() || name.size() > 63)
        return false;
    for (qsizetype i = 0; i < name.size(); ++i) {
        const char c = name[i];
        const bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
        if (!alnum && (i == 0 || (c != '_' && c != '-')))
            return false;
    }
    return true;
}

QByteArrayView cutUtf8(QByteArrayView text, qsizetype maxBytes)
{
    if (text.size() <= maxBytes)
        return text;
    qsizetype end = maxBytes;
    // Do not split a multi-byte UTF-8 sequence.
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80)
        --end;
    return text.first(end);
}

bool isControl(char16_t c) { return c < 0x20 || (c >= 0x7f && c <= 0x9f); }

// A reason as PostgreSQL can store it and a log can show it: invalid UTF-8
// replaced, control characters (NUL included) replaced, at most maxBytes of
// UTF-8. The cut comes last: a replacement character takes three bytes.
QString cleanReason(QByteArrayView raw, qsizetype maxBytes)
{
    // Cutting the raw bytes first bounds the work; cleaning only replaces
    // (one byte -> at most three), so the clean text starts with the same characters.
    QString text = QString::fromUtf8(cutUtf8(raw, maxBytes));
    for (QChar &c : text) {
        if (c == u'\t')
            c = u' ';
        else if (isControl(c.unicode()))
            c = QChar::ReplacementCharacter;
    }
    QByteArray utf8 = text.toUtf8();
    if (utf8.size() <= maxBytes)
        return text;
    return QString::fromUtf8(cutUtf8(utf8, maxBytes));
}

} // namespace

QString quoteForLog(QByteArrayView line, qsizetype maxBytes)
{
    const QByteArrayView cut = cutUtf8(line, maxBytes);
    QString text = QString::fromUtf8(cut);
    for (QChar &c : text) {
        if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            c = u'?';
    }
    return cut.size() < line.size() ? text + QStringLiteral("…") : text;
}

bool couldBeStatusLine(QByteArrayView head)
{
    qsizetype i = head.startsWith('-') ? 1 : 0;
    const qsizetype digitsFrom = i;
    while (i < head.size() && head[i] >= '0' && head[i] <= '9')
        ++i;
    if (i - digitsFrom > 18) // parseDecimal's limit
        return false;
    if (i == head.size())
        return true;
    return i > digitsFrom && (head[i] == ' ' || head[i] == '\r');
}

Result<StatusLine, QString> parseStatusLine(QByteArrayView line)
{
    if (line.endsWith('\r'))
        line.chop(1);
    const auto bad = [&line]() -> QString { return u'"' + quoteForLog(line) + u'"'; };

    const qsizetype space = line.indexOf(' ');
    const QByteArrayView codeText = space < 0 ? line : line.first(space);
    QByteArrayView rest = space < 0 ? QByteArrayView() : line.sliced(space + 1);

    bool negative = codeText.startsWith('-');
    const auto magnitude = parseDecimal(negative ? codeText.sliced(1) : codeText, std::numeric_limits<int>::max());
    if (!magnitude)
        return bad();

    StatusLine status;
    status.code = int(negative ? -*magnitude : *magnitude);
    if (status.code != 0) {
        status.reason = cleanReason(rest.trimmed(), StatusLine::MaxReasonBytes);
        return status;
    }

    // Success: only fused-stage reports may follow.
    while (!rest.isEmpty()) {
        const qsizetype next = rest.indexOf(' ');
        const QByteArrayView word = next < 0 ? rest : rest.first(next);
        rest = next < 0 ? QByteArrayView() : rest.sliced(next + 1);
        if (word.isEmpty())
            continue;
        const qsizetype colon = word.indexOf(':');
        if (!word.startsWith('+') || colon < 0)
            return bad();
        const QByteArrayView stage = word.sliced(1, colon - 1);
        const auto usec = parseDecimal(word.sliced(colon + 1), std::numeric_limits<qint64>::max() / 10);
        if (!isStageName(stage) || !usec)
            return bad();
        status.fused.append({QString::fromLatin1(stage), *usec});
    }
    return status;
}

} // namespace pepsi
