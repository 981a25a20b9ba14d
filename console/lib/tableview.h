// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QString>

class QAbstractItemModel;
class QTableView;
class QWidget;

namespace pepsi::console {

// A table of the console's look: whole rows selected, no row numbers, rows a
// line high, columns as wide as their contents, headings on the left. Each
// view sets what differs (sorting, which column stretches).
QTableView *newTableView(QAbstractItemModel *model, const QString &name, QWidget *parent);

} // namespace pepsi::console
