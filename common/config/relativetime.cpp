// SPDX-License-Identifier: AGPL-3.0-or-later
#include "config/relativetime.h"

#include <QStringList>

#include <array>
#include <limits>

namespace pepsi {

namespace {

struct Unit
{
    QLatin1StringView name;
    qint64 ms;
};

// Largest first: formatRelativeTime() relies on the order.
constexpr std::array<Unit, 6> kUnits{{
    {QLatin1StringView("d"), 86'400'000},
    {QLatin1StringView("h"), 3'600'000},
    {QLatin1StringView("min"), 60'000},
    {QLatin1StringView("m"), 60'000},
    {QLatin1StringView("s"), 1'000},
    {QLatin1StringView("ms"), 1},
}};

QString notATime() { return QStringLiteral("not a time (expected a number and a unit: ms, s, m, min, h, d)"); }

bool isDigit(QChar c) { return c >= u'0' && c <= u'9'; }
bool isAsciiLetter(QChar c) { return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z'); }

// Parses an unsigned "12", "1.5", "0.25 min", "300s". Integer arithmetic
// throughout, so "0.3 s" is exactly 300 ms.
Result<std::chrono::milliseconds, QString> parseUnsigned(QStringView text)
{
    qsizetype i = 0;
    const qsizetype n = text.size();
    qint64 whole = 0;
    bool overflow = false;
    const qsizetype wholeStart = i;
    for (; i < n && isDigit(text[i]); ++i) {
        if (__builtin_mul_overflow(whole, 10, &whole)
            || __builtin_add_overflow(whole, text[i].unicode() - u'0', &whole))
            overflow = true;
    }
    if (i == wholeStart)
        return notATime();

    // Nanoseconds of the unit's fraction: nine digits are more than any unit
    // needs to round to a whole millisecond.
    qint64 fractionNano = 0;
    if (i < n && text[i] == u'.') {
        ++i;
        const qsizetype fracStart = i;
        qint64 scale = 100'000'000;
        for (; i < n && isDigit(text[i]); ++i) {
            fractionNano += (text[i].unicode() - u'0') * scale;
            scale /= 10;
        }
        if (i == fracStart)
            return notATime();
    }

    while (i < n && text[i].isSpace())
        ++i;
    const qsizetype unitStart = i;
    while (i < n && isAsciiLetter(text[i]))
        ++i;
    if (i != n)
        return notATime();

    const QStringView unitText = text.mid(unitStart);
    qint64 unitMs = 1000; // a bare number is seconds
    if (!unitText.isEmpty()) {
        const auto it = std::find_if(kUnits.begin(), kUnits.end(),
                                     [&](const Unit &u) { return unitText.compare(u.name, Qt::CaseInsensitive) == 0; });
        if (it == kUnits.end())
            return QString(QStringLiteral("unknown time unit \"") + unitText + u'"');
        unitMs = it->ms;
    }

    qint64 ms = 0;
    const qint64 fractionMs = (fractionNano * unitMs + 500'000'000) / 1'000'000'000;
    if (overflow || __builtin_mul_overflow(whole, unitMs, &ms) || __builtin_add_overflow(ms, fractionMs, &ms))
        return QStringLiteral("too large");
    return std::chrono::milliseconds(ms);
}

} // namespace

Result<std::chrono::milliseconds, QString> parseRelativeTime(const QString &text)
{
    const QStringView trimmed = QStringView(text).trimmed();
    if (trimmed.isEmpty())
        return QStringLiteral("no time given (expected a number and a unit: ms, s, m, min, h, d)");
    if (trimmed.startsWith(u'-')) {
        // Only call it negative when the rest is a time; "-x" is just garbage.
        if (parseUnsigned(trimmed.mid(1).trimmed()))
            return QStringLiteral("negative times are not allowed");
        return notATime();
    }
    return parseUnsigned(trimmed);
}

QString formatRelativeTime(std::chrono::milliseconds value)
{
    // The shortest exact rendering; on a tie the smaller unit wins, so the
    // default watchdog reads "300 s" (as in "timeout after 300 s") and not "5 min".
    const qint64 ms = value.count();
    if (ms < 0)
        return QString::number(ms) + QStringLiteral(" ms"); // never parsed back; just be exact
    QString best;
    for (auto it = kUnits.rbegin(); it != kUnits.rend(); ++it) {
        if (it->name == QLatin1StringView("m") || ms % it->ms != 0)
            continue; // "m" is only read, never written: "min" cannot be mistaken for metres
        const QString candidate = QString::number(ms / it->ms) + u' ' + it->name;
        if (best.isEmpty() || candidate.size() < best.size())
            best = candidate;
    }
    return best;
}

} // namespace pepsi
