// SPDX-License-Identifier: AGPL-3.0-or-later
#include "eventfilterproxy.h"

#include "eventlogmodel.h"

namespace pepsi::console {

EventFilterProxy::EventFilterProxy(QObject *parent)
    : QSortFilterProxyModel(parent)
    , m_shown(((1u << EventText::KindCount) - 1) & ~(1u << int(EventText::Kind::WorkerLifecycle)))
{
    setSortRole(EventLogModel::SortRole);
    setFilterKeyColumn(-1);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
    setDynamicSortFilter(true);
}

void EventFilterProxy::setKindShown(EventText::Kind kind, bool shown)
{
    const unsigned bit = 1u << int(kind);
    const unsigned next = shown ? (m_shown | bit) : (m_shown & ~bit);
    if (next == m_shown)
        return;
    m_shown = next;
    invalidateRowsFilter();
}

bool EventFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const int kind = sourceModel()->index(sourceRow, 0, sourceParent).data(EventLogModel::KindRole).toInt();
    if (!(m_shown & (1u << kind)))
        return false;
    return QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent);
}

} // namespace pepsi::console
