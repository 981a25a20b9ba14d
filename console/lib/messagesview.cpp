// SPDX-License-Identifier: AGPL-3.0-or-later
#include "messagesview.h"

#include "control/protocol.h"
#include "control/snapshotcodec.h"

#include "confirmedrequeue.h"
#include "consolefeed.h"
#include "controlclient.h"
#include "messagelistmodel.h"
#include "pipelinegraph.h"
#include "reasonmodel.h"
#include "stageactions.h"
#include "tableview.h"
#include "throughputmodel.h"

#include <QAction>
#include <QComboBox>
#include <QFontDatabase>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <utility>

namespace pepsi::console {

using namespace Qt::StringLiterals;
namespace field = protocol::field;
namespace value = protocol::value;

namespace {

QTableView *newTable(QAbstractItemModel *model, const QString &name, QWidget *parent)
{
    QTableView *view = newTableView(model, name, parent);
    view->setWordWrap(false); // one line a row: the detail pane has the whole reason
    view->horizontalHeader()->setStretchLastSection(true);
    return view;
}

} // namespace

MessagesView::MessagesView(ControlClient *client, ConsoleFeed *feed, StageActions *actions, QWidget *parent)
    : QWidget(parent)
    , m_client(client)
    , m_feed(feed)
    , m_actions(actions)
    , m_reasons(new ReasonModel(client, this))
    , m_list(new MessageListModel(client, this))
    , m_stageBox(new QComboBox(this))
    , m_statusBox(new QComboBox(this))
    , m_reasonView(newTable(m_reasons, u"messageReasons"_s, this))
    , m_listView(newTable(m_list, u"messageList"_s, this))
    , m_search(new QLineEdit(this))
    , m_detail(new QPlainTextEdit(this))
    , m_warning(new QLabel(this))
    , m_listState(new QLabel(this))
    , m_loadMore(new QPushButton(tr("Load &more"), this))
    , m_requeueSelected(new QPushButton(tr("Requeue &selected…"), this))
    , m_requeueReason(new QPushButton(tr("Requeue this &reason…"), this))
    , m_requeueRecent(new QPushButton(tr("Requeue the last &minutes…"), this))
    , m_requeue(new ConfirmedRequeue(client, actions, this))
{
    m_stageBox->setObjectName(u"messagesStage"_s);
    m_stageBox->setPlaceholderText(tr("(choose)"));
    m_stageBox->setMinimumContentsLength(12);
    m_statusBox->setObjectName(u"messagesStatus"_s);
    // The statuses `messages` lists, the ones an operator acts on first.
    for (const QString status : {value::Failed, value::Timeout, value::Paused, value::Pending, value::Running})
        m_statusBox->addItem(statusTitle(status), status);
    m_search->setObjectName(u"messageSearch"_s);
    m_search->setPlaceholderText(tr("Message id…"));
    m_search->setValidator(new QRegularExpressionValidator(QRegularExpression(u"[0-9]{1,18}"_s), m_search));
    m_search->setClearButtonEnabled(true);
    m_detail->setObjectName(u"messageDetail"_s);
    m_detail->setReadOnly(true);
    m_detail->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_detail->setPlaceholderText(tr("Select a message to see its state."));
    m_warning->setObjectName(u"messagesWarning"_s);
    m_warning->setWordWrap(true);
    m_warning->setStyleSheet(u"QLabel { background: #f8d7da; color: #721c24; padding: 4px; font-weight: bold; }"_s);
    m_warning->hide();
    m_reasonView->setSelectionMode(QAbstractItemView::SingleSelection);
    // The reason takes the room; the times are only a hint of when it happened.
    m_reasonView->horizontalHeader()->setStretchLastSection(false);
    m_reasonView->horizontalHeader()->setSectionResizeMode(ReasonModel::Reason, QHeaderView::Stretch);
    m_listView->setSelectionMode(QAbstractItemView::ExtendedSelection);

    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Stage:"), this));
    top->addWidget(m_stageBox);
    top->addWidget(new QLabel(tr("Status:"), this));
    top->addWidget(m_statusBox);
    top->addStretch(1);
    top->addWidget(m_search);
    // The list's state on a line of its own and the buttons in two rows: in
    // one row they made the list pane's minimum width, which the splitter
    // took from the reasons.
    auto *buttons = new QGridLayout;
    buttons->setColumnStretch(0, 1);
    buttons->addWidget(m_loadMore, 0, 1);
    buttons->addWidget(m_requeueSelected, 0, 2);
    buttons->addWidget(m_requeueReason, 1, 1);
    buttons->addWidget(m_requeueRecent, 1, 2);
    auto *listPane = new QWidget(this);
    auto *listLayout = new QVBoxLayout(listPane);
    listLayout->setContentsMargins(0, 0, 0, 0);
    listLayout->addWidget(m_listView);
    listLayout->addWidget(m_listState);
    listLayout->addLayout(buttons);
    auto *across = new QSplitter(Qt::Horizontal, this);
    across->addWidget(m_reasonView);
    across->addWidget(listPane);
    // The reasons take the larger share from the start (the list gets what
    // its buttons need): left to the panes' size hints, the list's long
    // reasons took nearly all the width and squeezed the reasons' Reason
    // column to a few letters. The sizes are a ratio until first laid out.
    across->setStretchFactor(0, 3);
    across->setStretchFactor(1, 2);
    across->setSizes({3 << 20, 2 << 20});
    auto *down = new QSplitter(Qt::Vertical, this);
    down->setObjectName(u"messagesSplitter"_s);
    down->addWidget(across);
    down->addWidget(m_detail);
    down->setStretchFactor(0, 2);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_warning);
    layout->addWidget(down, 1);

    connect(feed, &ConsoleFeed::graphChanged, this, &MessagesView::updateStages);
    connect(m_stageBox, &QComboBox::currentIndexChanged, this, &MessagesView::queryChanged);
    connect(m_statusBox, &QComboBox::currentIndexChanged, this, &MessagesView::queryChanged);
    connect(m_reasons, &ReasonModel::loaded, this, [this] {
        // "All reasons" until the operator picks one.
        if (!m_reasonView->selectionModel()->hasSelection())
            m_reasonView->selectRow(0);
        updateButtons();
    });
    connect(m_reasonView->selectionModel(), &QItemSelectionModel::selectionChanged, this, &MessagesView::reasonChosen);
    connect(m_list, &MessageListModel::pageLoaded, this, &MessagesView::updateButtons);
    connect(m_listView->selectionModel(), &QItemSelectionModel::selectionChanged, this, &MessagesView::updateButtons);
    connect(m_listView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (current.isValid())
                    askDetail(m_list->idAt(current.row()));
            });
    connect(m_loadMore, &QPushButton::clicked, this, [this] { m_list->fetchMore(); });
    connect(m_requeueSelected, &QPushButton::clicked, this, &MessagesView::requeueSelected);
    connect(m_requeueReason, &QPushButton::clicked, this, &MessagesView::requeueReason);
    connect(m_requeueRecent, &QPushButton::clicked, this, [this] {
        bool ok = false;
        const int minutes = QInputDialog::getInt(this, tr("Requeue the last minutes"),
                                                 tr("Requeue the messages that got this status in the last … minutes:"),
                                                 60, 1, 10080, 1, &ok);
        if (ok)
            requeueRecent(minutes);
    });
    connect(m_search, &QLineEdit::returnPressed, this, [this] {
        if (!m_search->text().isEmpty())
            findMessage(m_search->text().toLongLong());
    });
    for (ReasonModel *model : {m_reasons})
        connect(model, &ReasonModel::failed, this, &MessagesView::failed);
    connect(m_list, &MessageListModel::failed, this, &MessagesView::failed);
    connect(m_requeue, &ConfirmedRequeue::runningChanged, this, &MessagesView::requeueRanOrEnded);
    connect(m_requeue, &ConfirmedRequeue::progress, m_listState, &QLabel::setText);
    connect(m_requeue, &ConfirmedRequeue::done, this, &MessagesView::done);
    connect(m_requeue, &ConfirmedRequeue::failed, this, &MessagesView::failed);
    // The warning and the admin buttons follow the figures and the connection.
    connect(feed->throughput(), &QAbstractItemModel::dataChanged, this, &MessagesView::updateWarning);
    for (QAction *action : actions->all())
        connect(action, &QAction::changed, this, &MessagesView::updateButtons);
    updateStages();
    updateButtons();
}

QString MessagesView::statusTitle(const QString &status)
{
    if (status == value::Failed)
        return tr("failed");
    if (status == value::Timeout)
        return tr("timed out");
    if (status == value::Paused)
        return tr("paused (retried later)");
    if (status == value::Pending)
        return tr("pending");
    if (status == value::Running)
        return tr("running");
    return status;
}

void MessagesView::showMessages(const QString &stage, const QString &status)
{
    const QSignalBlocker blockStage(m_stageBox);
    const QSignalBlocker blockStatus(m_statusBox);
    if (m_stageBox->findText(stage) < 0)
        m_stageBox->addItem(stage);
    m_stageBox->setCurrentIndex(m_stageBox->findText(stage));
    m_statusBox->setCurrentIndex(std::max(0, m_statusBox->findData(status)));
    queryChanged();
}

void MessagesView::setStage(const QString &stage)
{
    const int index = m_stageBox->findText(stage);
    if (!stage.isEmpty() && index >= 0 && index != m_stageBox->currentIndex())
        m_stageBox->setCurrentIndex(index);
}

void MessagesView::updateStages()
{
    const QString current = m_stageBox->currentText();
    const QSignalBlocker blocker(m_stageBox);
    m_stageBox->clear();
    QStringList names;
    for (const PipelineGraph::Node &node : m_feed->graph().nodes)
        names << node.name;
    std::sort(names.begin(), names.end());
    m_stageBox->addItems(names);
    m_stageBox->setCurrentIndex(m_stageBox->findText(current));
}

void MessagesView::queryChanged()
{
    const QString stage = m_stageBox->currentText();
    const QString status = m_statusBox->currentData().toString();
    m_shownId = 0;
    m_detail->clear();
    m_reasonView->clearSelection();
    m_reasons->setQuery(stage, status);
    m_list->setQuery(stage, status);
    updateWarning();
    updateButtons();
    if (!stage.isEmpty())
        Q_EMIT stageShown(stage);
}

std::optional<QString> MessagesView::chosenReason() const
{
    const QModelIndexList rows = m_reasonView->selectionModel()->selectedRows();
    if (rows.isEmpty())
        return std::nullopt;
    const QVariant reason = rows.first().data(ReasonModel::ReasonRole);
    return reason.isNull() ? std::nullopt : std::optional<QString>(reason.toString());
}

void MessagesView::reasonChosen()
{
    const auto reason = chosenReason();
    if (reason != m_list->reason())
        m_list->setQuery(m_list->stage(), m_list->status(), reason);
    updateButtons();
}

bool MessagesView::requeueable() const
{
    // `requeue` moves failed and timed-out rows; admin and connected as the stage actions.
    const QString status = m_statusBox->currentData().toString();
    return (status == value::Failed || status == value::Timeout) && m_actions->reload()->isEnabled()
        && !m_stageBox->currentText().isEmpty() && !m_requeue->isRunning();
}

void MessagesView::updateButtons()
{
    const bool can = requeueable();
    m_requeueSelected->setEnabled(can && m_listView->selectionModel()->hasSelection());
    m_requeueReason->setEnabled(can && chosenReason().has_value());
    m_requeueRecent->setEnabled(can);
    m_loadMore->setEnabled(m_list->canFetchMore());
    const int loaded = m_list->rowCount();
    if (m_list->isLoading())
        m_listState->setText(tr("Loading…"));
    else
        m_listState->setText(m_list->hasMore() ? tr("%Ln message(s) loaded, more to load", nullptr, loaded)
                                               : tr("%Ln message(s), all loaded", nullptr, loaded));
}

void MessagesView::updateWarning()
{
    const QString warning = m_actions->failingWarning(m_stageBox->currentText());
    m_warning->setText(warning);
    m_warning->setVisible(!warning.isEmpty());
}

void MessagesView::findMessage(qint64 id)
{
    const int row = m_list->rowOf(id);
    if (row >= 0) {
        m_listView->selectRow(row);
        m_listView->scrollTo(m_list->index(row, 0));
    } else {
        m_listView->clearSelection();
    }
    askDetail(id);
}

void MessagesView::askDetail(qint64 id)
{
    if (id <= 0 || id == m_shownId)
        return;
    m_shownId = id;
    m_detail->setPlainText(tr("Asking the daemon for message %1…").arg(id));
    if (m_detailRequest)
        m_detailRequest->abandon(); // another message is shown now
    m_detailRequest = m_client->send(protocol::cmd::Message, {{field::MessageId, double(id)}});
    if (m_detailRequest)
        m_detailRequest->then(this, [this](const ControlReply &reply) { onDetail(reply); });
}

ConfirmedRequeue::Target MessagesView::target() const
{
    // The status as the box names it too, translated: "failed" is a word of the protocol.
    return {m_stageBox->currentText(), m_statusBox->currentData().toString(), m_statusBox->currentText()};
}

void MessagesView::requeueSelected()
{
    QList<qint64> ids;
    for (const QModelIndex &row : m_listView->selectionModel()->selectedRows())
        ids << row.data(MessageListModel::IdRole).toLongLong();
    std::sort(ids.begin(), ids.end());
    m_requeue->requeueIds(target(), ids);
}

void MessagesView::requeueReason()
{
    if (const auto reason = chosenReason())
        m_requeue->requeueReason(target(), *reason);
}

void MessagesView::requeueRecent(int minutes) { m_requeue->requeueRecent(target(), minutes); }

void MessagesView::requeueRanOrEnded(bool running)
{
    if (!running) {
        m_reasons->refresh();
        m_list->reload();
        // The detail shown is asked again with the list: both show one row.
        if (const qint64 shown = std::exchange(m_shownId, 0))
            askDetail(shown);
        m_client->post(protocol::cmd::Status);
    }
    updateButtons();
}

void MessagesView::onDetail(const ControlReply &reply)
{
    m_detailRequest = nullptr;
    if (!reply.isOk()) {
        m_detail->setPlainText(tr("Message %1: %2").arg(m_shownId).arg(reply.errorString()));
        return;
    }
    const MessageDetail detail = protocol::messageDetailFromJson(reply.result().toObject());
    // The reply is the newer row: the list shows the same claims as the detail.
    m_list->updateRow(detail.row);
    m_detail->setPlainText(describe(detail));
}

} // namespace pepsi::console
