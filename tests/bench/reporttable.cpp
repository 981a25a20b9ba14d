// SPDX-License-Identifier: AGPL-3.0-or-later
#include "reporttable.h"

#include <utility>

namespace pepsi::bench {

ReportTable::ReportTable(QList<ReportColumn> columns)
    : m_columns(std::move(columns))
{ }

QString ReportTable::heading() const
{
    QStringList titles;
    for (const ReportColumn &column : m_columns)
        titles << column.title;
    return row(titles);
}

QString ReportTable::row(const QStringList &cells) const
{
    QString line = QStringLiteral(" ");
    for (qsizetype i = 0; i < m_columns.size(); ++i) {
        const int width = m_columns.at(i).width;
        const QString cell = cells.value(i);
        line += u' ' + (width < 0 ? cell.leftJustified(-width) : cell.rightJustified(width));
    }
    return line;
}

} // namespace pepsi::bench
