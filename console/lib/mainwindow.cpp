// SPDX-License-Identifier: AGPL-3.0-or-later
#include "mainwindow.h"

#include "control/protocol.h"

#include "connectionstatus.h"
#include "consolefeed.h"
#include "controlclient.h"
#include "eventfilterproxy.h"
#include "eventlogmodel.h"
#include "eventsview.h"
#include "keyedtablemodel.h"
#include "messagesview.h"
#include "peerbanner.h"
#include "pipelinewidget.h"
#include "poolmodel.h"
#include "queuemodel.h"
#include "stageactions.h"
#include "statusbartext.h"
#include "tableview.h"
#include "throughputmodel.h"
#include "throughputplot.h"
#include "workermodel.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>

namespace pepsi::console {

using namespace Qt::StringLiterals;
namespace field = protocol::field;

MainWindow::MainWindow(ControlClient *client, QWidget *parent)
    : QMainWindow(parent)
    , m_client(client)
    , m_feed(new ConsoleFeed(client, this))
    , m_actions(new StageActions(client, m_feed, this, this))
    , m_tabs(new QTabWidget(this))
    , m_pipeline(new PipelineWidget(m_feed->pools(), m_feed->queues(), m_feed->throughput(), this))
    , m_plot(new ThroughputPlot(m_feed->throughput(), this))
    , m_status(new ConnectionStatus(client, this))
    , m_stageBox(new QComboBox(this))
    , m_events(new EventsView(m_feed->events(), this))
    , m_staleBanner(new QLabel(this))
    , m_peerBanner(new PeerBanner(client, this))
    , m_messages(new MessagesView(client, m_feed, m_actions, this))
{
    // Which daemon, in the title: the status bar keeps its room for messages.
    setWindowTitle(client->socketPath().isEmpty() ? tr("PEPSI dispatcher console")
                                                  : tr("PEPSI dispatcher console – %1").arg(client->socketPath()));
    setWindowIcon(QIcon(u":/icons/pepsi-console.png"_s));
    m_views.resize(MessagesTab + 1);
    m_proxies.resize(MessagesTab + 1);

    m_pipeline->setObjectName(u"pipeline"_s);
    m_tabs->addTab(m_pipeline, tr("&Pipeline"));

    m_tabs->addTab(addTable(m_feed->pools(), u"pools"_s, &m_proxies[PoolsTab]), tr("P&ools"));
    m_tabs->addTab(addTable(m_feed->queues(), u"queues"_s, &m_proxies[QueuesTab]), tr("&Queues"));

    auto *split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(u"throughputSplitter"_s);
    split->addWidget(m_plot);
    split->addWidget(addTable(m_feed->throughput(), u"throughput"_s, &m_proxies[ThroughputTab]));
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    m_tabs->addTab(split, tr("&Throughput"));

    m_tabs->addTab(addTable(m_feed->workers(), u"workers"_s, &m_proxies[WorkersTab]), tr("&Workers"));

    m_tabs->addTab(m_events, tr("&Events"));
    m_views[EventsTab] = m_events->view();
    m_proxies[EventsTab] = m_events->proxy();

    m_messages->setObjectName(u"messages"_s);
    m_tabs->addTab(m_messages, tr("&Messages"));
    m_views[MessagesTab] = m_messages->listView();
    connect(m_messages, &MessagesView::failed, this, &MainWindow::showError);
    connect(m_messages, &MessagesView::done, this, &MainWindow::showDone);
    connect(m_messages, &MessagesView::stageShown, this, &MainWindow::selectStage); // one stage at a time
    // A stage's failed messages, from where its failures show.
    m_pipeline->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_pipeline, &QWidget::customContextMenuRequested, this, [this](const QPoint &at) {
        for (const QString &stage : m_pipeline->stageNames()) {
            if (m_pipeline->boxOf(stage).contains(at))
                return stageMenu(m_pipeline, at, stage);
        }
    });

    m_views[PoolsTab] = qobject_cast<QTableView *>(m_tabs->widget(PoolsTab));
    // PARALLELISM and QUEUE_LIMIT of a pool, live, through `set` (admin, confirmed).
    m_views[PoolsTab]->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_views[PoolsTab], &QWidget::customContextMenuRequested, this, [this](const QPoint &at) {
        const QModelIndex index = m_views[PoolsTab]->indexAt(at);
        const QString stage = index.siblingAtColumn(0).data(KeyedTableModel::KeyRole).toString();
        if (stage.isEmpty())
            return;
        QMenu menu(this);
        const PoolSnapshot pool = m_feed->pools()->record(stage);
        const auto add = [&](const QString &option, int now) {
            QAction *action = menu.addAction(tr("Set %1 of %2…").arg(option, stage), this, [this, stage, option, now] {
                bool ok = false;
                const int value = QInputDialog::getInt(this, tr("Set %1 of %2").arg(option, stage),
                                                       tr("%1 (now %2):").arg(option).arg(now), now, 1, 1024, 1, &ok);
                if (ok)
                    m_actions->setOption(stage, option, value);
            });
            action->setEnabled(m_actions->reload()->isEnabled()); // admin and connected
        };
        add(u"PARALLELISM"_s, pool.parallelism);
        add(u"QUEUE_LIMIT"_s, pool.queueLimit);
        menu.exec(m_views[PoolsTab]->viewport()->mapToGlobal(at));
    });
    m_views[QueuesTab] = qobject_cast<QTableView *>(m_tabs->widget(QueuesTab));
    m_views[QueuesTab]->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_views[QueuesTab], &QWidget::customContextMenuRequested, this, [this](const QPoint &at) {
        const QModelIndex index = m_views[QueuesTab]->indexAt(at);
        const QString stage = index.siblingAtColumn(0).data(KeyedTableModel::KeyRole).toString();
        if (!stage.isEmpty())
            stageMenu(m_views[QueuesTab]->viewport(), at, stage);
    });
    m_views[ThroughputTab] = qobject_cast<QTableView *>(split->widget(1));
    m_views[WorkersTab] = qobject_cast<QTableView *>(m_tabs->widget(WorkersTab));

    m_staleBanner->setObjectName(u"staleBanner"_s);
    m_staleBanner->setStyleSheet(u"QLabel { background: #fff3cd; color: #5c3c00; padding: 4px; font-weight: bold; }"_s);
    m_staleBanner->setWordWrap(true);
    m_staleBanner->hide();
    auto *central = new QWidget(this);
    auto *centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(0);
    centralLayout->addWidget(m_peerBanner);
    centralLayout->addWidget(m_staleBanner);
    centralLayout->addWidget(m_tabs);
    setCentralWidget(central);
    connect(m_feed, &ConsoleFeed::staleChanged, this, &MainWindow::setStale);
    statusBar()->addPermanentWidget(m_status);
    buildMenus();
    buildToolBar();

    connect(m_feed, &ConsoleFeed::graphChanged, this, [this] {
        m_pipeline->setGraph(m_feed->graph());
        updateStages();
    });
    connect(m_pipeline, &PipelineWidget::stageSelected, this, &MainWindow::selectStage);
    connect(m_feed, &ConsoleFeed::poolTotalsChanged, m_pipeline,
            [this] { m_pipeline->setTotals(m_feed->lastStatus().stats, m_feed->poolTotals()); });
    connect(m_actions, &StageActions::failed, this, &MainWindow::showError);
    connect(m_actions, &StageActions::done, this, &MainWindow::showDone);
    connect(client, &ControlClient::errorOccurred, this, [this](const QString &message) {
        // Status bar and log, no popup: the daemon may just be restarting.
        m_lastError = message;
        showStatusText(statusBar(), m_status, message, 10000);
    });
    resize(1200, 760);
    restoreSettings();
    // The worker list is the one large reply (a line per worker): asked for
    // only while its tab shows, and without the held ids, which no column shows.
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::updateWorkersWanted);
    updateWorkersWanted(m_tabs->currentIndex());
}

void MainWindow::setStale(bool stale, const QDateTime &lastData)
{
    // Grey, and said in words: figures from before the loss must not pass for live ones.
    m_pipeline->setStale(stale ? lastData : QDateTime());
    m_staleBanner->setVisible(stale);
    if (stale)
        m_staleBanner->setText(tr("Not connected to the daemon: what the views show is from %1 and no longer live. "
                                  "The console reconnects by itself.")
                                   .arg(lastData.toLocalTime().toString(u"HH:mm:ss"_s)));
    for (int tab = PoolsTab; tab <= WorkersTab; ++tab)
        m_views[tab]->setEnabled(!stale);
    m_plot->setEnabled(!stale);
    m_messages->setEnabled(!stale);
}

void MainWindow::updateWorkersWanted(int tab)
{
    const bool wanted = tab == WorkersTab;
    const bool was = m_client->workersWanted();
    m_client->setWorkersWanted(wanted, false);
    if (wanted && !was)
        m_client->requestWorkers(); // now, not at the next tick
}

MainWindow::~MainWindow() = default;

QTableView *MainWindow::view(Tab tab) const { return m_views.value(tab); }

QSortFilterProxyModel *MainWindow::proxy(Tab tab) const { return m_proxies.value(tab); }

QLineEdit *MainWindow::eventFilter() const { return m_events->filter(); }

QToolButton *MainWindow::eventKinds() const { return m_events->kinds(); }

QTableView *MainWindow::addTable(QAbstractItemModel *model, const QString &name, QSortFilterProxyModel **proxyOut)
{
    auto *proxy = new QSortFilterProxyModel(this);
    proxy->setSortRole(KeyedTableModel::SortRole);
    proxy->setDynamicSortFilter(true);
    proxy->setSourceModel(model);
    QTableView *view = newTableView(proxy, name, this);
    view->setSortingEnabled(true);
    view->sortByColumn(0, Qt::AscendingOrder);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    // Numbers stay next to their neighbours instead of at the far right.
    view->horizontalHeader()->setStretchLastSection(false);
    // A row of a per-stage table that the operator picks selects that stage
    // for the actions: a click, or keys moving from one row to another. A
    // view that gets the focus makes its first row current by itself (a tab
    // switch does that): that is no choice of the operator's.
    if (name != "workers"_L1) {
        const auto pick = [this](const QModelIndex &index) {
            const QString stage = index.siblingAtColumn(0).data(KeyedTableModel::KeyRole).toString();
            if (!stage.isEmpty())
                selectStage(stage);
        };
        connect(view, &QAbstractItemView::pressed, this, pick);
        connect(view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
                [view, pick](const QModelIndex &current, const QModelIndex &previous) {
                    if (previous.isValid() && view->hasFocus())
                        pick(current);
                });
    }
    *proxyOut = proxy;
    return view;
}

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *viewMenu = menuBar()->addMenu(tr("&View"));
    for (int i = 0; i < m_tabs->count(); ++i) {
        QAction *show =
            viewMenu->addAction(m_tabs->tabText(i).remove(u'&'), this, [this, i] { m_tabs->setCurrentIndex(i); });
        show->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
        show->setObjectName(u"showTab%1"_s.arg(i + 1));
    }

    QMenu *daemon = menuBar()->addMenu(tr("&Daemon"));
    daemon->addActions(m_actions->all());
    daemon->addSeparator();
    QAction *refresh = daemon->addAction(tr("Refresh &now"), this, [this] { m_client->refresh(); });
    refresh->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About"), this, [this] {
        QMessageBox::about(this, tr("About pepsi-console"),
                           tr("<b>pepsi-console %1</b><p>The admin console of pepsi-dispatch, a client of its control "
                              "socket (control protocol %2).</p>")
                               .arg(QStringLiteral(PEPSI_VERSION))
                               .arg(protocol::Version));
    });
}

void MainWindow::stageMenu(QWidget *widget, const QPoint &at, const QString &stage)
{
    QMenu menu(this);
    menu.addAction(tr("Show failed messages of %1").arg(stage), this,
                   [this, stage] { showMessages(stage, protocol::value::Failed); });
    menu.addAction(tr("Show timed-out messages of %1").arg(stage), this,
                   [this, stage] { showMessages(stage, protocol::value::Timeout); });
    menu.exec(widget->mapToGlobal(at));
}

void MainWindow::showMessages(const QString &stage, const QString &status)
{
    m_messages->showMessages(stage, status);
    m_tabs->setCurrentWidget(m_messages);
}

void MainWindow::buildToolBar()
{
    QToolBar *bar = addToolBar(tr("Stage actions"));
    bar->setObjectName(u"stageActions"_s);
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addWidget(new QLabel(tr("Stage:"), this));
    m_stageBox->setObjectName(u"stageBox"_s);
    m_stageBox->setPlaceholderText(tr("(choose)"));
    m_stageBox->setMinimumContentsLength(12);
    m_stageBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    bar->addWidget(m_stageBox);
    bar->addSeparator();
    // Requeueing timed-out messages is rare: the Daemon menu has it, and the
    // tool bar keeps its room for the stage's name (German words are long).
    for (QAction *action : m_actions->all()) {
        if (action != m_actions->requeueTimeout())
            bar->addAction(action);
    }
    connect(m_stageBox, &QComboBox::textActivated, this, &MainWindow::selectStage);
}

void MainWindow::updateStages()
{
    const QString current = m_actions->stage();
    const QSignalBlocker blocker(m_stageBox);
    m_stageBox->clear();
    QStringList names = m_pipeline->stageNames();
    std::sort(names.begin(), names.end());
    m_stageBox->addItems(names);
    // The operator's choice stays while the stage does; none is made for them.
    selectStage(names.contains(current) ? current : QString());
}

void MainWindow::selectStage(const QString &stage)
{
    m_actions->setStage(stage);
    m_pipeline->setSelectedStage(stage);
    if (m_stageBox->currentText() != stage || stage.isEmpty()) {
        const QSignalBlocker blocker(m_stageBox);
        m_stageBox->setCurrentIndex(m_stageBox->findText(stage)); // -1: the placeholder
    }
    m_messages->setStage(stage);
}

void MainWindow::showError(const QString &message)
{
    m_lastError = message;
    showStatusText(statusBar(), m_status, message, 15000);
    m_feed->events()->addNote(message, true);
    if (m_popups) {
        auto *box = new QMessageBox(QMessageBox::Warning, tr("pepsi-console"), message, QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }
}

void MainWindow::showDone(const QString &message)
{
    showStatusText(statusBar(), m_status, message, 10000);
    m_feed->events()->addNote(message, false);
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    settings.beginGroup(u"MainWindow"_s);
    restoreGeometry(settings.value(u"geometry"_s).toByteArray());
    restoreState(settings.value(u"state"_s).toByteArray());
    m_tabs->setCurrentIndex(settings.value(u"tab"_s, 0).toInt());
    if (auto *split = findChild<QSplitter *>(u"throughputSplitter"_s))
        split->restoreState(settings.value(u"throughputSplitter"_s).toByteArray());
    for (int tab = PoolsTab; tab <= WorkersTab; ++tab) {
        const QVariant sort = settings.value(u"sort/%1"_s.arg(m_views[tab]->objectName()));
        if (sort.isValid()) {
            const QStringList parts = sort.toString().split(u',');
            m_views[tab]->sortByColumn(parts.value(0).toInt(),
                                       parts.value(1) == "d"_L1 ? Qt::DescendingOrder : Qt::AscendingOrder);
        }
    }
    const QByteArray events = settings.value(u"eventColumns"_s).toByteArray();
    if (!events.isEmpty())
        m_views[EventsTab]->horizontalHeader()->restoreState(events);
}

void MainWindow::saveSettings()
{
    QSettings settings;
    settings.beginGroup(u"MainWindow"_s);
    settings.setValue(u"geometry"_s, saveGeometry());
    settings.setValue(u"state"_s, saveState());
    settings.setValue(u"tab"_s, m_tabs->currentIndex());
    if (auto *split = findChild<QSplitter *>(u"throughputSplitter"_s))
        settings.setValue(u"throughputSplitter"_s, split->saveState());
    for (int tab = PoolsTab; tab <= WorkersTab; ++tab) {
        const QHeaderView *header = m_views[tab]->horizontalHeader();
        settings.setValue(u"sort/%1"_s.arg(m_views[tab]->objectName()),
                          u"%1,%2"_s.arg(header->sortIndicatorSection())
                              .arg(header->sortIndicatorOrder() == Qt::DescendingOrder ? u"d"_s : u"a"_s));
    }
    settings.setValue(u"eventColumns"_s, m_views[EventsTab]->horizontalHeader()->saveState());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    saveSettings();
    QMainWindow::closeEvent(event);
}

} // namespace pepsi::console
