// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace pepsi::bench {

// A column of a report's table: its heading and its width (as QString::arg's
// field width: > 0 right-aligned, < 0 left-aligned, 0 not padded).
struct ReportColumn
{
    QString title;
    int width = 0;
};

// The columns of a report's table, named once: the heading and every row are
// padded by the same widths, so that they cannot drift apart.
class ReportTable
{
public:
    explicit ReportTable(QList<ReportColumn> columns);

    QString heading() const;
    // One line: two spaces, then each cell padded to its column, one space between.
    QString row(const QStringList &cells) const;

private:
    QList<ReportColumn> m_columns;
};

} // namespace pepsi::bench
