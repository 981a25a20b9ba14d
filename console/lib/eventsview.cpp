// SPDX-License-Identifier: AGPL-3.0-or-later
#include "eventsview.h"

#include "eventfilterproxy.h"
#include "eventlogmodel.h"
#include "tableview.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QMenu>
#include <QScrollBar>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace pepsi::console {

using namespace Qt::StringLiterals;

EventsView::EventsView(EventLogModel *log, QWidget *parent)
    : QWidget(parent)
    , m_proxy(new EventFilterProxy(this))
    , m_filter(new QLineEdit(this))
    , m_kinds(newKindsButton())
    , m_view(newTableView(m_proxy, u"events"_s, this))
{
    m_proxy->setSourceModel(log);
    m_filter->setPlaceholderText(tr("Filter events (any column: a stage, a pid, a message id)…"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);

    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    QHeaderView *header = m_view->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setStretchLastSection(true);
    m_view->setColumnWidth(EventLogModel::Time, fontMetrics().horizontalAdvance(u"00:00:00.000__"_s));
    m_view->setColumnWidth(EventLogModel::Event, fontMetrics().horizontalAdvance(u"database_restored___"_s));
    m_view->setColumnWidth(EventLogModel::Stage, fontMetrics().horizontalAdvance(u"enrich-stage__"_s));
    m_view->setColumnWidth(EventLogModel::Pid, fontMetrics().horizontalAdvance(u"4194304__"_s));
    // A log reads in arrival order: by the arrival number, through every filter.
    m_proxy->sort(0, Qt::AscendingOrder);
    // Keep following the log while the user is at its end.
    connect(log, &QAbstractItemModel::rowsInserted, m_view, [view = m_view] {
        QScrollBar *bar = view->verticalScrollBar();
        if (bar->value() >= bar->maximum() - 2)
            QMetaObject::invokeMethod(view, &QTableView::scrollToBottom, Qt::QueuedConnection);
    });

    auto *filterRow = new QHBoxLayout;
    filterRow->addWidget(m_filter, 1);
    filterRow->addWidget(m_kinds);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(filterRow);
    layout->addWidget(m_view);
}

QToolButton *EventsView::newKindsButton()
{
    auto *button = new QToolButton(this);
    button->setObjectName(u"eventKinds"_s);
    button->setText(tr("Show…"));
    button->setPopupMode(QToolButton::InstantPopup);
    auto *menu = new QMenu(button);
    for (int kind = 0; kind < EventText::KindCount; ++kind) {
        QAction *show = menu->addAction(EventText::kindTitle(EventText::Kind(kind)));
        show->setCheckable(true);
        show->setChecked(m_proxy->isKindShown(EventText::Kind(kind)));
        show->setObjectName(u"showEventKind%1"_s.arg(kind));
        connect(show, &QAction::toggled, m_proxy,
                [proxy = m_proxy, kind](bool on) { proxy->setKindShown(EventText::Kind(kind), on); });
    }
    button->setMenu(menu);
    button->setToolTip(tr("Which kinds of event the log shows. Worker starts and exits are hidden at first: "
                          "a pool that recycles its workers writes them by the hundred."));
    return button;
}

} // namespace pepsi::console
