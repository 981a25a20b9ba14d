// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "eventtext.h"

#include <QSortFilterProxyModel>

namespace pepsi::console {

// The Events view's filter: the kinds of event shown (worker starts and exits
// hidden by default: a pool that recycles its workers would fill the log) and
// a text that any column may contain. Sorted by arrival (the model's SortRole).
class EventFilterProxy : public QSortFilterProxyModel
{
    Q_OBJECT

public:
    explicit EventFilterProxy(QObject *parent = nullptr);

    void setKindShown(EventText::Kind kind, bool shown);
    bool isKindShown(EventText::Kind kind) const { return m_shown & (1u << int(kind)); }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    unsigned m_shown;
};

} // namespace pepsi::console
