// SPDX-License-Identifier: AGPL-3.0-or-later
#include "stageactions.h"

#include "control/failurecodec.h"
#include "control/protocol.h"

#include "consolefeed.h"
#include "controlclient.h"
#include "poolmodel.h"
#include "queuemodel.h"
#include "throughputmodel.h"

#include <QAction>
#include <QIcon>
#include <QJsonArray>
#include <QMessageBox>
#include <algorithm>
#include <limits>

namespace pepsi::console {

using namespace Qt::StringLiterals;
namespace cmd = protocol::cmd;
namespace field = protocol::field;
namespace value = protocol::value;

StageActions::StageActions(ControlClient *client, ConsoleFeed *feed, QWidget *dialogParent, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_feed(feed)
    , m_dialogParent(dialogParent)
    , m_drain(new QAction(QIcon(u":/icons/drain.png"_s), {}, this))
    , m_resume(new QAction(QIcon(u":/icons/resume.png"_s), {}, this))
    , m_requeueFailed(new QAction(QIcon(u":/icons/requeue.png"_s), {}, this))
    , m_requeueTimeout(new QAction(this))
    , m_reload(new QAction(QIcon(u":/icons/reload.png"_s), tr("Re&load configuration"), this))
{
    m_reload->setToolTip(tr("Re-read the configuration overlay and retire every worker."));
    m_reload->setShortcut(QKeySequence::Refresh);

    m_confirm = [this](const QString &title, const QString &question) {
        return QMessageBox::question(m_dialogParent, title, question) == QMessageBox::Yes;
    };
    connect(m_drain, &QAction::triggered, this, &StageActions::confirmDrain);
    connect(m_resume, &QAction::triggered, this, [this] {
        send(cmd::Resume, {{field::Stage, m_stage}}, Request::about(tr("Resuming %1").arg(m_stage)));
    });
    connect(m_requeueFailed, &QAction::triggered, this, [this] { requeue(value::Failed); });
    connect(m_requeueTimeout, &QAction::triggered, this, [this] { requeue(value::Timeout); });
    connect(m_reload, &QAction::triggered, this, [this] { send(cmd::Reload, {}, Request::about(tr("Reloading"))); });
    connect(client, &ControlClient::stateChanged, this, &StageActions::updateEnabled);
    connect(client, &ControlClient::versionReceived, this, &StageActions::updateEnabled);
    // Drain and resume follow the stage's state as the snapshots and events bring it.
    connect(feed->pools(), &KeyedTableModel::flushed, this, &StageActions::updateEnabled);
    updateTexts();
    updateEnabled();
}

void StageActions::setStage(const QString &stage)
{
    m_stage = stage;
    updateTexts();
    updateEnabled();
}

void StageActions::updateTexts()
{
    // Every action names the stage it acts on, in the menu and the tool bar alike.
    if (m_stage.isEmpty()) {
        m_drain->setText(tr("&Drain stage"));
        m_resume->setText(tr("Re&sume stage"));
        m_requeueFailed->setText(tr("Requeue &failed…"));
        m_requeueTimeout->setText(tr("Requeue &timed out…"));
    } else {
        m_drain->setText(tr("&Drain %1…").arg(m_stage));
        m_resume->setText(tr("Re&sume %1").arg(m_stage));
        m_requeueFailed->setText(tr("Requeue &failed of %1…").arg(m_stage));
        m_requeueTimeout->setText(tr("Requeue &timed out of %1…").arg(m_stage));
    }
    m_drain->setToolTip(tr("Stop claiming messages for stage %1; its workers finish what they hold.").arg(m_stage));
    m_resume->setToolTip(tr("Claim messages for stage %1 again.").arg(m_stage));
    m_requeueFailed->setToolTip(tr("Put the failed messages of stage %1 back to pending.").arg(m_stage));
    m_requeueTimeout->setToolTip(tr("Put the timed-out messages of stage %1 back to pending.").arg(m_stage));
}

QString StageActions::disabledReason() const
{
    if (m_client->state() != ControlClient::State::Connected)
        return tr("not connected to the daemon");
    if (!m_client->isAdmin())
        return tr("the daemon accepts admin commands only from root and its service account");
    return {};
}

void StageActions::updateEnabled()
{
    const QString why = disabledReason();
    const bool admin = why.isEmpty();
    const bool known = !m_stage.isEmpty() && m_feed->pools()->contains(m_stage);
    const bool drained = m_feed->pools()->record(m_stage).drained;
    m_reload->setEnabled(admin);
    m_drain->setEnabled(admin && known && !drained);
    m_resume->setEnabled(admin && known && drained);
    for (QAction *action : {m_requeueFailed, m_requeueTimeout})
        action->setEnabled(admin && !m_stage.isEmpty());
    for (QAction *action : all()) {
        QString tip = action->toolTip();
        if (!admin)
            tip = tr("Disabled: %1.").arg(why);
        else if (m_stage.isEmpty() && action != m_reload)
            tip = tr("Disabled: choose a stage first (the Stage box, a box on the Pipeline, a row of a table).");
        else if (action == m_drain && drained)
            tip = tr("Stage %1 is drained already.").arg(m_stage);
        else if (action == m_resume && known && !drained)
            tip = tr("Stage %1 is not drained: it claims messages.").arg(m_stage);
        action->setStatusTip(tip);
    }
}

void StageActions::send(const QString &cmd, const QJsonObject &arguments, const Request &request)
{
    ControlReply *reply = m_client->send(cmd, arguments);
    if (!reply) {
        Q_EMIT failed(tr("%1: not connected to the daemon.").arg(request.what));
        return;
    }
    reply->then(this, [this, request](const ControlReply &answer) { onReplied(answer, request); });
}

void StageActions::confirmDrain()
{
    const QString stage = m_stage;
    const PoolSnapshot pool = m_feed->pools()->record(stage);
    const qint64 pending = m_feed->queues()->count(stage, value::Pending);
    const QString question = tr("Drain stage %1? It stops claiming messages. Its busy workers (%L2) finish the "
                                "messages they hold (%L3); the pending messages (%L4) wait at %1 until it is resumed.")
                                 .arg(stage)
                                 .arg(pool.busy)
                                 .arg(pool.inFlight)
                                 .arg(pending);
    if (!m_confirm(tr("Drain %1").arg(stage), question))
        return;
    send(cmd::Drain, {{field::Stage, stage}}, Request::about(tr("Draining %1").arg(stage)));
}

void StageActions::setOption(const QString &stage, const QString &option, int value)
{
    // Known while the stage has a row: the options a pool's context menu sets.
    const PoolSnapshot pool = m_feed->pools()->record(stage);
    const QString now = !m_feed->pools()->contains(stage) ? QString()
        : option == u"PARALLELISM"_s                      ? QString::number(pool.parallelism)
        : option == u"QUEUE_LIMIT"_s                      ? QString::number(pool.queueLimit)
                                                          : QString();
    const QString question =
        tr("Set %1 of stage %2 from %3 to %4? The daemon writes it to the configuration overlay and reloads, which "
           "retires every worker (they finish what they hold) and starts new ones.")
            .arg(option, stage, now.isEmpty() ? tr("its current value") : now)
            .arg(value);
    if (!m_confirm(tr("Set %1 of %2").arg(option, stage), question))
        return;
    send(cmd::Set, {{field::Stage, stage}, {field::Option, option}, {field::Value, value}},
         Request::about(tr("Setting %1 of %2").arg(option, stage), stage));
}

QString StageActions::failingWarning(const QString &stage) const
{
    const ThroughputModel *throughput = m_feed->throughput();
    if (!throughput->isFailing(stage)) {
        // Nothing runs now, but what ran last failed: a requeue meets the same fate.
        const qint64 inARow = throughput->failedInARow(stage);
        if (inARow < FailedInARowWarning)
            return {};
        return tr("Stage %1 failed its last %Ln message(s), and none succeeded since. Requeued messages will "
                  "probably fail again.",
                  nullptr, int(std::min<qint64>(inARow, std::numeric_limits<int>::max())))
            .arg(stage);
    }
    return tr("Stage %1 is failing now: %2 % of its runs in the last 10 s failed (%3). Requeued messages will "
              "probably fail again.")
        .arg(stage)
        .arg(protocol::failurePercent(throughput->failureShare(stage)))
        .arg(formatRate(throughput->failureRate(stage)));
}

void StageActions::requeue(const QString &status)
{
    const QString stage = m_stage;
    const bool failed = status == value::Failed;
    const qint64 count = m_feed->queues()->count(stage, status);
    if (count <= 0) {
        Q_EMIT done(failed ? tr("Stage %1 has no failed messages to requeue.").arg(stage)
                           : tr("Stage %1 has no timed-out messages to requeue.").arg(stage));
        return;
    }
    const int n = int(std::min<qint64>(count, std::numeric_limits<int>::max()));
    QString question = failed ? tr("Put %Ln failed message(s) of stage %1 back to pending?", nullptr, n).arg(stage)
                              : tr("Put %Ln timed-out message(s) of stage %1 back to pending?", nullptr, n).arg(stage);
    if (count > protocol::MaxRequeueLimit)
        question += u' '
            + tr("The daemon moves at most %L1 at a time: the console asks in batches until that many are moved.")
                  .arg(protocol::MaxRequeueLimit);
    const QString warning = failingWarning(stage);
    if (!warning.isEmpty())
        question += u"\n\n"_s + warning;
    if (!m_confirm(tr("Requeue messages of %1").arg(stage), question))
        return;
    Request request{failed ? tr("Requeueing the failed messages of %1").arg(stage)
                           : tr("Requeueing the timed-out messages of %1").arg(stage),
                    stage, status, count, 0};
    sendRequeueBatch(request);
}

void StageActions::sendRequeueBatch(const Request &request)
{
    // The counts are at most a couple of seconds old: ask for what is left of
    // what the operator agreed to, within the daemon's bound.
    const int limit = int(std::clamp<qint64>(request.wanted - request.moved, 1, protocol::MaxRequeueLimit));
    send(cmd::Requeue, {{field::Stage, request.stage}, {field::Status, request.status}, {field::Limit, limit}},
         request);
}

void StageActions::onReplied(const ControlReply &reply, Request request)
{
    if (!reply.isOk()) {
        Q_EMIT failed(tr("%1 failed: %2").arg(request.what, reply.errorString()));
        return;
    }
    const QString cmd = reply.command();
    const QJsonObject r = reply.result().toObject();
    if (cmd == cmd::Drain)
        Q_EMIT done(tr("Stage %1 drained: it claims nothing until resumed.").arg(r.value(field::Stage).toString()));
    else if (cmd == cmd::Resume)
        Q_EMIT done(tr("Stage %1 resumed.").arg(r.value(field::Stage).toString()));
    else if (cmd == cmd::Requeue) {
        const qint64 batch = r.value(field::Requeued).toInteger();
        request.moved += batch;
        // More rows match and the operator agreed to more: the next batch.
        // A batch that moved nothing ends it (the rows are locked elsewhere).
        if (r.value(field::More).toBool() && batch > 0 && request.moved < request.wanted) {
            sendRequeueBatch(request);
            return;
        }
        const int n = int(std::min<qint64>(request.moved, std::numeric_limits<int>::max()));
        QString message = tr("%Ln message(s) of stage %1 put back to pending.", nullptr, n).arg(request.stage);
        // More match than were agreed to: either more failed meanwhile (the
        // stage still fails them) or the counts were old.
        if (r.value(field::More).toBool())
            message += u' '
                + (m_feed->throughput()->isFailing(request.stage)
                       ? tr("More remain: stage %1 is still failing its messages.").arg(request.stage)
                       : tr("More remain; requeue again for the rest."));
        Q_EMIT done(message);
    } else if (cmd == cmd::Set) {
        Q_EMIT done(tr("%1 of stage %2 set to %3; the Pools view shows it once the daemon has reloaded.")
                        .arg(r.value(field::Option).toString(), r.value(field::Stage).toString(),
                             r.value(field::Value).toVariant().toString()));
    } else if (cmd == cmd::Reload) {
        QStringList stages;
        for (const QJsonValue v : r.value(field::Stages).toArray())
            stages.append(v.toString());
        Q_EMIT done(tr("Configuration reloaded: %1.").arg(stages.join(u", "_s)));
    }
    // The picture changed: fetch it now rather than at the next tick.
    m_client->post(cmd::Status);
}

} // namespace pepsi::console
