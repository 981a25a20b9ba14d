// SPDX-License-Identifier: AGPL-3.0-or-later
#include "systemswindow.h"

#include "connectdialog.h"
#include "controlclient.h"
#include "mainwindow.h"
#include "recenttargets.h"
#include "systemlistmodel.h"
#include "tableview.h"

#include <QAction>
#include <QCloseEvent>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QToolBar>

namespace pepsi::console {

using namespace Qt::StringLiterals;

SystemsWindow::SystemsWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_overview(new SystemListModel(this))
    , m_overviewView(newTableView(m_overview, u"systems"_s, this))
    , m_stack(new QStackedWidget(this))
    , m_split(new QSplitter(Qt::Vertical, this))
    , m_systemBar(new QToolBar(tr("Systems"), this))
    , m_systemBox(new QComboBox(this))
{
    setWindowIcon(QIcon(u":/icons/pepsi-console.png"_s));
    m_overviewView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_overviewView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_overviewView->horizontalHeader()->setStretchLastSection(true);
    m_split->setObjectName(u"systemsSplitter"_s);
    m_split->addWidget(m_overviewView);
    m_split->addWidget(m_stack);
    m_split->setStretchFactor(1, 1);
    // A few rows of systems; the room is for the selected system's views.
    m_split->setSizes({130, 630});
    setCentralWidget(m_split);

    m_systemBar->setObjectName(u"systemBar"_s);
    m_systemBar->addWidget(new QLabel(tr("System:"), this));
    m_systemBox->setObjectName(u"systemBox"_s);
    m_systemBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    // The overview's names and tooltips; rows added and closed there follow here.
    m_systemBox->setModel(m_overview);
    m_systemBox->setModelColumn(SystemListModel::SystemColumn);
    m_systemBar->addWidget(m_systemBox);
    addToolBar(m_systemBar);

    m_file = menuBar()->addMenu(tr("&File"));
    m_connect = m_file->addAction(tr("&Connect…"), this, &SystemsWindow::openConnectDialog);
    m_connect->setObjectName(u"connect"_s);
    m_connect->setShortcut(QKeySequence::Open);
    m_closeSystem = m_file->addAction(tr("C&lose system"), this, [this] { closeSystem(currentSystem()); });
    m_closeSystem->setObjectName(u"closeSystem"_s);
    m_closeSystem->setShortcut(QKeySequence::Close);
    m_closeSystem->setEnabled(false);
    m_file->addSeparator();
    m_file->addAction(tr("&Quit"), this, &QWidget::close)->setShortcut(QKeySequence::Quit);

    connect(m_systemBox, &QComboBox::activated, this, &SystemsWindow::selectSystem);
    connect(m_overviewView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (current.isValid())
                    selectSystem(current.row());
            });
    connect(m_stack, &QStackedWidget::currentChanged, this, [this] {
        updateMenus();
        updateTitle();
    });
    resize(1200, 760);
    QSettings settings;
    restoreGeometry(settings.value(u"SystemsWindow/geometry"_s).toByteArray());
    m_split->restoreState(settings.value(u"SystemsWindow/splitter"_s).toByteArray());
    updateTitle();
}

SystemsWindow::~SystemsWindow()
{
    // The windows use their clients to the end; the stack, losing its pages,
    // must not make us borrow the menus of one already gone.
    m_stack->disconnect(this);
    qDeleteAll(std::exchange(m_windows, {}));
}

ControlClient *SystemsWindow::client(int index) const
{
    return index >= 0 && index < int(m_clients.size()) ? m_clients[size_t(index)].get() : nullptr;
}

MainWindow *SystemsWindow::addSystem(const transport::Target &target)
{
    auto *client = m_clients.emplace_back(std::make_unique<ControlClient>()).get();
    client->setTarget(target);
    auto *window = new MainWindow(client, m_stack);
    window->setWindowFlags(Qt::Widget);
    window->setErrorPopups(m_popups);
    // Its menus are shown in our menu bar while it is selected.
    window->menuBar()->hide();
    m_windows.append(window);
    m_stack->addWidget(window);
    m_overview->addSystem(client);
    RecentTargets::remember(target.text);
    updateSeveral();
    selectSystem(int(m_windows.size()) - 1);
    client->start();
    return window;
}

void SystemsWindow::closeSystem(int index)
{
    if (index < 0 || index >= m_windows.size() || m_windows.size() < 2)
        return;
    // Out of the lists first: the stack and the overview, losing their
    // entries, select another system, which must be found at its index.
    MainWindow *window = m_windows.takeAt(index);
    std::unique_ptr<ControlClient> client = std::move(m_clients[size_t(index)]);
    m_clients.erase(m_clients.begin() + index);
    m_overview->removeSystem(client.get());
    m_stack->removeWidget(window);
    // The window uses its client to the end. The client's channel, going
    // with it, leaves an ssh to end in the background (ControlChannel).
    delete window;
    client.reset();
    updateSeveral();
    selectSystem(std::min(index, int(m_windows.size()) - 1));
    updateMenus();
    updateTitle();
}

void SystemsWindow::updateSeveral()
{
    // One system is the console as it always was: no overview, no selector.
    const bool several = m_windows.size() > 1;
    m_overviewView->setVisible(several);
    m_systemBar->setVisible(several);
    m_closeSystem->setEnabled(several);
}

int SystemsWindow::currentSystem() const { return m_stack->currentIndex(); }

void SystemsWindow::selectSystem(int index)
{
    if (index < 0 || index >= m_windows.size())
        return;
    m_stack->setCurrentIndex(index);
    m_systemBox->setCurrentIndex(index);
    // Its row comes back here once, and stops at the check.
    if (m_overviewView->currentIndex().row() != index)
        m_overviewView->selectRow(index);
}

void SystemsWindow::setErrorPopups(bool on)
{
    m_popups = on;
    for (MainWindow *window : std::as_const(m_windows))
        window->setErrorPopups(on);
}

void SystemsWindow::updateMenus()
{
    for (QAction *menu : std::as_const(m_borrowed))
        menuBar()->removeAction(menu);
    m_borrowed.clear();
    MainWindow *window = system(currentSystem());
    if (!window)
        return;
    // Its own File menu is ours: its Quit would close only the page.
    const QList<QAction *> menus = window->menuBar()->actions();
    for (qsizetype i = 1; i < menus.size(); ++i) {
        menuBar()->addAction(menus[i]);
        m_borrowed.append(menus[i]);
    }
}

void SystemsWindow::updateTitle()
{
    const ControlClient *current = client(currentSystem());
    setWindowTitle(current ? tr("PEPSI dispatcher console – %1").arg(current->socketPath())
                           : tr("PEPSI dispatcher console"));
}

void SystemsWindow::openConnectDialog()
{
    auto *dialog = new ConnectDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { addSystem(dialog->target()); });
    dialog->open();
}

void SystemsWindow::closeEvent(QCloseEvent *event)
{
    QSettings settings;
    settings.setValue(u"SystemsWindow/geometry"_s, saveGeometry());
    settings.setValue(u"SystemsWindow/splitter"_s, m_split->saveState());
    // The selected system's tab, columns and sort order, as a window of its own keeps them.
    if (MainWindow *window = system(currentSystem()))
        window->close();
    QMainWindow::closeEvent(event);
}

} // namespace pepsi::console
