// SPDX-License-Identifier: AGPL-3.0-or-later
#include "stageactions.h"

#include "control/protocol.h"

#include "controlclient.h"
#include "queuemodel.h"

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

StageActions::StageActions(ControlClient *client, QueueModel *queues, QWidget *dialogParent, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_queues(queues)
    , m_dialogParent(dialogParent)
    , m_drain(new QAction(QIcon(u":/icons/drain.png"_s), tr("&Drain stage"), this))
    , m_resume(new QAction(QIcon(u":/icons/resume.png"_s), tr("Re&sume stage"), this))
    , m_requeueFailed(new QAction(QIcon(u":/icons/requeue.png"_s), tr("Requeue &failed…"), this))
    , m_requeueTimeout(new QAction(tr("Requeue &timed out…"), this))
    , m_reload(new QAction(QIcon(u":/icons/reload.png"_s), tr("Re&load configuration"), this))
{
    m_drain->setToolTip(tr("Stop claiming messages for the selected stage; its workers finish what they hold."));
    m_resume->setToolTip(tr("Claim messages for the selected stage again."));
    m_requeueFailed->setToolTip(tr("Put the failed messages of the selected stage back to pending."));
    m_requeueTimeout->setToolTip(tr("Put the timed-out messages of the selected stage back to pending."));
    m_reload->setToolTip(tr("Re-read the configuration overlay and retire every worker."));
    m_reload->setShortcut(QKeySequence::Refresh);

    m_confirm = [this](const QString &title, const QString &question) {
        return QMessageBox::question(m_dialogParent, title, question) == QMessageBox::Yes;
    };
    connect(m_drain, &QAction::triggered, this, [this] {
        send(cmd::Drain, {{field::Stage, m_stage}}, tr("Draining %1").arg(m_stage));
    });
    connect(m_resume, &QAction::triggered, this, [this] {
        send(cmd::Resume, {{field::Stage, m_stage}}, tr("Resuming %1").arg(m_stage));
    });
    connect(m_requeueFailed, &QAction::triggered, this, [this] { requeue(value::Failed); });
    connect(m_requeueTimeout, &QAction::triggered, this, [this] { requeue(value::Timeout); });
    connect(m_reload, &QAction::triggered, this, [this] { send(cmd::Reload, {}, tr("Reloading")); });
    connect(client, &ControlClient::stateChanged, this, &StageActions::updateEnabled);
    connect(client, &ControlClient::versionReceived, this, &StageActions::updateEnabled);
    connect(client, &ControlClient::replied, this, &StageActions::onReplied);
    updateEnabled();
}

void StageActions::setStage(const QString &stage)
{
    m_stage = stage;
    updateEnabled();
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
    m_reload->setEnabled(admin);
    for (QAction *action : {m_drain, m_resume, m_requeueFailed, m_requeueTimeout})
        action->setEnabled(admin && !m_stage.isEmpty());
    for (QAction *action : all())
        action->setStatusTip(admin ? action->toolTip() : tr("Disabled: %1.").arg(why));
}

void StageActions::send(const QString &cmd, const QJsonObject &arguments, const QString &what)
{
    const qint64 id = m_client->send(cmd, arguments);
    if (id == 0) {
        Q_EMIT failed(tr("%1: not connected to the daemon.").arg(what));
        return;
    }
    m_waiting.insert(id, what);
}

void StageActions::requeue(const QString &status)
{
    const QString stage = m_stage;
    const bool failed = status == value::Failed;
    const qint64 count = m_queues->count(stage, status);
    if (count <= 0) {
        Q_EMIT done(failed ? tr("Stage %1 has no failed messages to requeue.").arg(stage)
                           : tr("Stage %1 has no timed-out messages to requeue.").arg(stage));
        return;
    }
    const int n = int(std::min<qint64>(count, std::numeric_limits<int>::max()));
    const QString question = failed
        ? tr("Put %n failed message(s) of stage %1 back to pending?", nullptr, n).arg(stage)
        : tr("Put %n timed-out message(s) of stage %1 back to pending?", nullptr, n).arg(stage);
    if (!m_confirm(tr("Requeue messages"), question))
        return;
    // The counts are at most a couple of seconds old; ask for all of them,
    // within the protocol's bound, and say so when more remain.
    const int limit = int(std::clamp<qint64>(count, 1, 10000));
    send(cmd::Requeue, {{field::Stage, stage}, {field::Status, status}, {field::Limit, limit}},
         failed ? tr("Requeueing the failed messages of %1").arg(stage)
                : tr("Requeueing the timed-out messages of %1").arg(stage));
}

void StageActions::onReplied(qint64 id, const QString &cmd, bool ok, const QJsonValue &result, const QString &error)
{
    const QString what = m_waiting.take(id);
    if (what.isEmpty())
        return; // not ours
    if (!ok) {
        Q_EMIT failed(tr("%1 failed: %2").arg(what, error));
        return;
    }
    const QJsonObject r = result.toObject();
    if (cmd == cmd::Drain)
        Q_EMIT done(tr("Stage %1 drained: it claims nothing until resumed.").arg(r.value(field::Stage).toString()));
    else if (cmd == cmd::Resume)
        Q_EMIT done(tr("Stage %1 resumed.").arg(r.value(field::Stage).toString()));
    else if (cmd == cmd::Requeue) {
        const int n = r.value(field::Requeued).toInt();
        QString message = tr("%n message(s) put back to pending.", nullptr, n);
        if (r.value(field::More).toBool())
            message += u' ' + tr("More remain; requeue again for the rest.");
        Q_EMIT done(message);
    } else if (cmd == cmd::Reload) {
        QStringList stages;
        for (const QJsonValue v : r.value(field::Stages).toArray())
            stages.append(v.toString());
        Q_EMIT done(tr("Configuration reloaded: %1.").arg(stages.join(u", "_s)));
    }
    // The picture changed: fetch it now rather than at the next tick.
    m_client->send(cmd::Status);
}

} // namespace pepsi::console
