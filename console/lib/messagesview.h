// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "confirmedrequeue.h"

#include <QPointer>
#include <QWidget>
#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableView;

namespace pepsi {
struct MessageDetail;
}

namespace pepsi::console {

class ConsoleFeed;
class ControlClient;
class ControlReply;
class MessageListModel;
class ReasonModel;
class StageActions;

// The Messages view: a stage's messages in one status (failed, timeout,
// paused, pending, running), grouped by reason with true counts (left), the
// rows of the chosen reason paged by id (right, "Load more" or scrolling to
// the end), the selected row's state (below), a search by id; and requeue of
// the selection, of one reason, or of those that failed in the last minutes,
// confirmed with the true count and a warning while the stage is failing.
class MessagesView : public QWidget
{
    Q_OBJECT

public:
    MessagesView(ControlClient *client, ConsoleFeed *feed, StageActions *actions, QWidget *parent = nullptr);

    // Shows `stage`'s messages in `status` ("failed", ...), all reasons.
    void showMessages(const QString &stage, const QString &status);
    // Shows `stage`'s messages in the status shown (the tool bar's stage
    // box chose it); nothing for an empty stage.
    void setStage(const QString &stage);
    // Selects message `id` in the list, or shows its state alone when it is not loaded.
    void findMessage(qint64 id);

    QComboBox *stageBox() const { return m_stageBox; }
    QComboBox *statusBox() const { return m_statusBox; }
    QTableView *reasonView() const { return m_reasonView; }
    QTableView *listView() const { return m_listView; }
    QLineEdit *searchBox() const { return m_search; }
    QPlainTextEdit *detail() const { return m_detail; }
    QLabel *warning() const { return m_warning; }
    QPushButton *loadMoreButton() const { return m_loadMore; }
    QPushButton *requeueSelectedButton() const { return m_requeueSelected; }
    QPushButton *requeueReasonButton() const { return m_requeueReason; }
    QPushButton *requeueRecentButton() const { return m_requeueRecent; }
    ReasonModel *reasons() const { return m_reasons; }
    MessageListModel *messages() const { return m_list; }
    // The detail pane's text for a `message` reply (as protocol::messageDetailFromJson
    // reads it): the row, its reason, its state pretty-printed (or, cut at 16 KiB, said to be cut).
    static QString describe(const MessageDetail &detail);
    // A status's name as the status box shows it, translated ("failed" is a
    // word of the protocol); a status the box does not list, as the daemon says it.
    static QString statusTitle(const QString &status);
    // The id whose state the detail pane shows (0: none).
    qint64 shownId() const { return m_shownId; }

    // Requeue of the selected rows / the chosen reason / the last `minutes`.
    void requeueSelected();
    void requeueReason();
    void requeueRecent(int minutes);

Q_SIGNALS:
    void done(const QString &message);
    void failed(const QString &message);
    // The stage whose messages are shown now (the tool bar follows it).
    void stageShown(const QString &stage);

private:
    void updateStages();
    void queryChanged();
    void reasonChosen();
    void updateButtons();
    void updateWarning();
    void askDetail(qint64 id);
    void onDetail(const ControlReply &reply);
    // The chosen reason: nullopt for "All reasons".
    std::optional<QString> chosenReason() const;
    bool requeueable() const;
    ConfirmedRequeue::Target target() const;
    // After a requeue the reasons and rows are counted anew.
    void requeueRanOrEnded(bool running);

    ControlClient *m_client;
    ConsoleFeed *m_feed;
    StageActions *m_actions;
    ReasonModel *m_reasons;
    MessageListModel *m_list;
    QComboBox *m_stageBox;
    QComboBox *m_statusBox;
    QTableView *m_reasonView;
    QTableView *m_listView;
    QLineEdit *m_search;
    QPlainTextEdit *m_detail;
    QLabel *m_warning;
    QLabel *m_listState;
    QPushButton *m_loadMore;
    QPushButton *m_requeueSelected;
    QPushButton *m_requeueReason;
    QPushButton *m_requeueRecent;
    ConfirmedRequeue *m_requeue;
    QPointer<ControlReply> m_detailRequest;
    qint64 m_shownId = 0;
};

} // namespace pepsi::console
