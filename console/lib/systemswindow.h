// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "transport/target.h"

#include <QList>
#include <QMainWindow>
#include <memory>
#include <vector>

class QComboBox;
class QMenu;
class QSplitter;
class QStackedWidget;
class QTableView;
class QToolBar;

namespace pepsi::console {

class ControlClient;
class MainWindow;
class SystemListModel;

// The console's top-level window: every system it watches, each a
// MainWindow of its own (client, feed, models, views, reconnects) on a
// stack, the selected one shown. With more than one, the overview of all
// (SystemListModel) sits over it and a system selector in the tool bar;
// selecting an overview row selects that system; both show the systems'
// short names (SystemNames). The menu bar is this window's File menu
// (Connect…, Close system, Quit) and the selected system's other menus.
// Only wiring: what a system shows is its MainWindow's.
class SystemsWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit SystemsWindow(QWidget *parent = nullptr);
    ~SystemsWindow() override;

    // A new system on `target`, selected; its client connects at once. The
    // target is remembered among the recent ones (the Connect dialog's).
    MainWindow *addSystem(const transport::Target &target);
    int systemCount() const { return int(m_windows.size()); }
    MainWindow *system(int index) const { return m_windows.value(index); }
    ControlClient *client(int index) const;
    int currentSystem() const;
    void selectSystem(int index);
    // The system goes: its connection (an ssh one ends in the background,
    // not waited for), its row, its entry in the selector, its views. The
    // last one stays: File → Close system is disabled then.
    void closeSystem(int index);

    SystemListModel *overview() const { return m_overview; }
    QTableView *overviewView() const { return m_overviewView; }
    QComboBox *systemBox() const { return m_systemBox; }
    QAction *connectAction() const { return m_connect; }
    QAction *closeSystemAction() const { return m_closeSystem; }
    // Every system's errors also in a message box (the default), or not.
    void setErrorPopups(bool on);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void openConnectDialog();
    void updateMenus();
    void updateTitle();
    // The overview and the selector only with several systems, and Close system with them.
    void updateSeveral();

    // Before the windows: they are deleted first, in the destructor.
    std::vector<std::unique_ptr<ControlClient>> m_clients;
    QList<MainWindow *> m_windows;
    SystemListModel *m_overview;
    QTableView *m_overviewView;
    QStackedWidget *m_stack;
    QSplitter *m_split;
    QToolBar *m_systemBar;
    QComboBox *m_systemBox;
    QMenu *m_file;
    QAction *m_connect;
    QAction *m_closeSystem;
    QList<QAction *> m_borrowed; // the selected system's menus in our menu bar
    bool m_popups = true;
};

} // namespace pepsi::console
