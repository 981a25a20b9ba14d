// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QWidget>

class QLineEdit;
class QTableView;
class QToolButton;

namespace pepsi::console {

class EventFilterProxy;
class EventLogModel;

// The Events tab: the daemon's events and the console's notes in the order
// they came, narrowed by a text any column may contain and by the kinds of
// event shown; it keeps following the log while the operator is at its end.
class EventsView : public QWidget
{
    Q_OBJECT

public:
    explicit EventsView(EventLogModel *log, QWidget *parent = nullptr);

    QTableView *view() const { return m_view; }
    EventFilterProxy *proxy() const { return m_proxy; }
    QLineEdit *filter() const { return m_filter; }
    // Its menu has a checkable action a kind ("showEventKind<n>").
    QToolButton *kinds() const { return m_kinds; }

private:
    QToolButton *newKindsButton();

    EventFilterProxy *m_proxy;
    QLineEdit *m_filter;
    QToolButton *m_kinds;
    QTableView *m_view;
};

} // namespace pepsi::console
