// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QDateTime>
#include <QMainWindow>

class QAbstractItemModel;
class QComboBox;
class QLabel;
class QLineEdit;
class QToolButton;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;

namespace pepsi::console {

class ConnectionStatus;
class ConsoleFeed;
class ControlClient;
class EventsView;
class MessagesView;
class PipelineWidget;
class StageActions;
class ThroughputPlot;

// The console's window: the Pipeline view and the Pools, Queues, Throughput,
// Workers, Events and Messages tabs (Ctrl+1…Ctrl+7), the stage actions in a tool bar,
// the connection in the status bar. Geometry, layout and column widths are
// kept in QSettings. The client is not owned.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    enum Tab { PipelineTab, PoolsTab, QueuesTab, ThroughputTab, WorkersTab, EventsTab, MessagesTab };

    explicit MainWindow(ControlClient *client, QWidget *parent = nullptr);
    ~MainWindow() override;

    ConsoleFeed *feed() const { return m_feed; }
    StageActions *actions() const { return m_actions; }
    PipelineWidget *pipeline() const { return m_pipeline; }
    ThroughputPlot *throughputPlot() const { return m_plot; }
    ConnectionStatus *connectionStatus() const { return m_status; }
    QTabWidget *tabs() const { return m_tabs; }
    QTableView *view(Tab tab) const;
    QSortFilterProxyModel *proxy(Tab tab) const;
    QComboBox *stageBox() const { return m_stageBox; }
    EventsView *eventsView() const { return m_events; }
    QLineEdit *eventFilter() const;
    QToolButton *eventKinds() const;
    // The "not connected since…" line over the views; hidden while connected.
    QLabel *staleBanner() const { return m_staleBanner; }
    // The whole message when the socket is not the daemon's (PostgreSQL's, say).
    QLabel *peerBanner() const { return m_peerBanner; }
    MessagesView *messagesView() const { return m_messages; }
    // The Messages view on `stage`'s messages in `status`.
    void showMessages(const QString &stage, const QString &status);

    void selectStage(const QString &stage);
    // The last error shown to the user ("" when none yet).
    QString lastError() const { return m_lastError; }
    // Errors go to the status bar and the event log; with popups on (the
    // default) also to a non-modal message box.
    void setErrorPopups(bool on) { m_popups = on; }

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    QTableView *addTable(QAbstractItemModel *model, const QString &name, QSortFilterProxyModel **proxyOut);
    void setStale(bool stale, const QDateTime &lastData);
    void buildMenus();
    // A stage's context menu (Pipeline, Queues): its failed and timed-out messages.
    void stageMenu(QWidget *widget, const QPoint &at, const QString &stage);
    void updateWorkersWanted(int tab);
    void buildToolBar();
    void showError(const QString &message);
    void showDone(const QString &message);
    void updateStages();
    void restoreSettings();
    void saveSettings();

    ControlClient *m_client;
    ConsoleFeed *m_feed;
    StageActions *m_actions;
    QTabWidget *m_tabs;
    PipelineWidget *m_pipeline;
    ThroughputPlot *m_plot;
    ConnectionStatus *m_status;
    QComboBox *m_stageBox;
    EventsView *m_events;
    QLabel *m_staleBanner;
    QLabel *m_peerBanner;
    MessagesView *m_messages;
    QList<QTableView *> m_views;              // by Tab, nullptr for the pipeline
    QList<QSortFilterProxyModel *> m_proxies; // by Tab
    QString m_lastError;
    bool m_popups = true;
};

} // namespace pepsi::console
