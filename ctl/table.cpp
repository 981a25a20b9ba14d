// SPDX-License-Identifier: AGPL-3.0-or-later
#include "table.h"

#include "control/snapshotcodec.h"

#include <algorithm>

namespace pepsi::ctl {

Table::Table(QStringList headers)
    : m_headers(std::move(headers))
{ }

void Table::addRow(QStringList cells)
{
    while (cells.size() < m_headers.size())
        cells.append(QString());
    m_rows.append(std::move(cells));
}

QString Table::render() const
{
    QList<qsizetype> widths;
    for (const QString &header : m_headers)
        widths.append(header.size());
    for (const QStringList &row : m_rows) {
        for (qsizetype i = 0; i < widths.size(); ++i)
            widths[i] = std::max(widths[i], row.at(i).size());
    }
    const auto renderRow = [&](const QStringList &cells) -> QString {
        QString line;
        for (qsizetype i = 0; i < widths.size(); ++i) {
            if (i > 0)
                line += QStringLiteral("  ");
            const bool left = m_text.contains(int(i));
            line += left ? cells.at(i).leftJustified(widths[i]) : cells.at(i).rightJustified(widths[i]);
        }
        // Trailing blanks of a left-aligned last column.
        while (line.endsWith(u' '))
            line.chop(1);
        return line + u'\n';
    };
    QString text = renderRow(m_headers);
    for (const QStringList &row : m_rows)
        text += renderRow(row);
    return text;
}

QString formatAge(qint64 ms)
{
    if (ms < 0)
        return QStringLiteral("-");
    if (ms < 1000)
        return QStringLiteral("%1ms").arg(ms);
    if (ms < 60000)
        return QStringLiteral("%1s").arg(double(ms) / 1000.0, 0, 'f', 1);
    const qint64 s = ms / 1000;
    if (s < 3600)
        return QStringLiteral("%1m%2s").arg(s / 60).arg(s % 60, 2, 10, QChar(u'0'));
    if (s < 86400)
        return QStringLiteral("%1h%2m").arg(s / 3600).arg((s % 3600) / 60, 2, 10, QChar(u'0'));
    return QStringLiteral("%1d%2h").arg(s / 86400).arg((s % 86400) / 3600, 2, 10, QChar(u'0'));
}

QString formatAge(const QJsonValue &milliseconds)
{
    return milliseconds.isDouble() ? formatAge(milliseconds.toInteger()) : QStringLiteral("-");
}

QString formatRate(double perSecond)
{
    if (perSecond == 0)
        return QStringLiteral("0");
    return QString::number(perSecond, 'f', 1);
}

QString formatCount(const QJsonValue &value)
{
    return value.isDouble() ? QString::number(value.toInteger()) : QStringLiteral("-");
}

QString formatTime(const QJsonValue &value) { return formatTime(protocol::timeFromJson(value)); }

QString formatTime(const QDateTime &when)
{
    return when.isValid() ? when.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) : QStringLiteral("-");
}

} // namespace pepsi::ctl
