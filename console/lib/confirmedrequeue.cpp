// SPDX-License-Identifier: AGPL-3.0-or-later
#include "confirmedrequeue.h"

#include "control/protocol.h"
#include "control/snapshotcodec.h"

#include "controlclient.h"
#include "messagerequeue.h"
#include "stageactions.h"

#include <QJsonObject>
#include <limits>

namespace pepsi::console {

using namespace Qt::StringLiterals;
namespace field = protocol::field;

namespace {

int intOf(qint64 n) { return int(std::min<qint64>(n, std::numeric_limits<int>::max())); }

} // namespace

ConfirmedRequeue::ConfirmedRequeue(ControlClient *client, StageActions *actions, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_actions(actions)
{ }

void ConfirmedRequeue::requeueIds(const Target &target, const QList<qint64> &ids)
{
    confirmAndRun(target, tr("the %Ln selected", nullptr, intOf(ids.size())), ids.size(),
                  [ids](MessageRequeue *requeue) { requeue->requeueIds(ids); });
}

void ConfirmedRequeue::requeueReason(const Target &target, const QString &reason)
{
    m_reason = reason;
    askCount(target, field::Reason, reason, [this](const ControlReply &reply) { onReasonCounted(reply); });
}

void ConfirmedRequeue::requeueRecent(const Target &target, int minutes)
{
    // The rows of the last minutes, whatever their reason.
    m_recentMinutes = minutes;
    askCount(target, field::MaxAgeMs, double(minutes) * 60000,
             [this](const ControlReply &reply) { onRecentCounted(reply); });
}

void ConfirmedRequeue::askCount(const Target &target, QLatin1StringView key, const QJsonValue &value,
                                const std::function<void(const ControlReply &)> &counted)
{
    m_target = target;
    if (m_count)
        m_count->abandon(); // the operator asked for another
    m_count = m_client->send(
        protocol::cmd::Messages,
        {{field::Stage, target.stage}, {field::Status, target.status}, {key, value}, {field::Reasons, true}});
    if (m_count)
        m_count->then(this, counted);
}

void ConfirmedRequeue::onReasonCounted(const ControlReply &reply)
{
    if (!reply.isOk())
        return Q_EMIT failed(tr("Counting the messages of that reason failed: %1").arg(reply.errorString()));
    const QString reason = m_reason;
    const QString shown = reason.isEmpty() ? tr("no reason") : reason.left(200);
    // The count confirmed is the count moved: rows that fail for the reason
    // while the operator reads the question are not part of it.
    const qint64 count = protocol::messagePageFromJson(reply.result().toObject()).reasonsTotal;
    confirmAndRun(m_target, tr("reason \"%1\"").arg(shown), count,
                  [reason, count](MessageRequeue *requeue) { requeue->requeueReason(reason, count); });
}

void ConfirmedRequeue::onRecentCounted(const ControlReply &reply)
{
    if (!reply.isOk())
        return Q_EMIT failed(tr("Counting the recent messages failed: %1").arg(reply.errorString()));
    // Every reason's rows, also those of the reasons the reply left off.
    const qint64 count = protocol::messagePageFromJson(reply.result().toObject()).reasonsTotal;
    const qint64 maxAgeMs = qint64(m_recentMinutes) * 60000;
    confirmAndRun(m_target, tr("those of the last %Ln minute(s)", nullptr, m_recentMinutes), count,
                  [maxAgeMs, count](MessageRequeue *requeue) { requeue->requeueRecent(maxAgeMs, count); });
}

void ConfirmedRequeue::confirmAndRun(const Target &target, const QString &what, qint64 count,
                                     const std::function<void(MessageRequeue *)> &start)
{
    if (count <= 0) {
        Q_EMIT done(
            tr("Nothing to requeue: %1 has no such messages in status %2.").arg(target.stage, target.statusName));
        return;
    }
    QString question = tr("Put %Ln message(s) of stage %1 in status %2 back to pending (%3)?", nullptr, intOf(count))
                           .arg(target.stage, target.statusName, what);
    if (count > protocol::MaxRequeueLimit)
        question += u' '
            + tr("The daemon moves at most %L1 at a time: the console asks in batches until all are moved.")
                  .arg(protocol::MaxRequeueLimit);
    if (const QString warning = m_actions->failingWarning(target.stage); !warning.isEmpty())
        question += u"\n\n"_s + warning;
    if (!m_actions->confirm(tr("Requeue messages of %1").arg(target.stage), question))
        return;
    m_running = new MessageRequeue(m_client, target.stage, target.status, this);
    connect(m_running, &MessageRequeue::progress, this, [this](qint64 moved, qint64 wanted) {
        Q_EMIT progress(wanted > 0 ? tr("Requeueing: %L1 of %L2 moved…").arg(moved).arg(wanted)
                                   : tr("Requeueing: reading the ids…"));
    });
    connect(m_running, &MessageRequeue::finished, this, [this, stage = target.stage](qint64 moved) {
        Q_EMIT done(tr("%Ln message(s) of stage %1 put back to pending.", nullptr, intOf(moved)).arg(stage));
        finish();
    });
    connect(m_running, &MessageRequeue::failed, this, [this](const QString &message) {
        Q_EMIT failed(message);
        finish();
    });
    Q_EMIT runningChanged(true);
    start(m_running);
}

void ConfirmedRequeue::finish()
{
    m_running->deleteLater();
    m_running = nullptr;
    Q_EMIT runningChanged(false);
}

} // namespace pepsi::console
