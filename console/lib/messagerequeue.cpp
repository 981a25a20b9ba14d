// SPDX-License-Identifier: AGPL-3.0-or-later
#include "messagerequeue.h"

#include "control/protocol.h"
#include "control/snapshotcodec.h"

#include "controlclient.h"

#include <QJsonArray>
#include <QJsonObject>
#include <algorithm>

namespace pepsi::console {

namespace cmd = protocol::cmd;
namespace field = protocol::field;

MessageRequeue::MessageRequeue(ControlClient *client, QString stage, QString status, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_stage(std::move(stage))
    , m_status(std::move(status))
{ }

void MessageRequeue::requeueIds(const QList<qint64> &ids)
{
    m_step = Step::Ids;
    m_ids = ids;
    m_next = 0;
    m_wanted = ids.size();
    nextIdBatch();
}

void MessageRequeue::requeueReason(const QString &reason, qint64 wanted)
{
    // Moved by id: `requeue` has no reason filter, and the ids are what the
    // operator was shown the count of.
    m_step = Step::Collect;
    m_reason = reason;
    m_wanted = wanted;
    m_ids.clear();
    // Every row of the page carries the reason: as many as fit in a line,
    // with room for the other fields and for escapes.
    const qsizetype rowBytes = 200 + 2 * reason.toUtf8().size();
    m_collectLimit = int(std::clamp<qsizetype>(protocol::MaxLine / 2 / rowBytes, 1, protocol::MaxMessagesLimit));
    collect(0);
}

void MessageRequeue::requeueRecent(qint64 maxAgeMs, qint64 wanted)
{
    m_step = Step::Recent;
    m_maxAgeMs = maxAgeMs;
    m_wanted = wanted;
    sendRecent();
}

void MessageRequeue::send(const QJsonObject &arguments, const QString &cmd)
{
    m_waiting = m_client->send(cmd, arguments);
    if (!m_waiting) {
        Q_EMIT failed(tr("Requeueing messages of %1: not connected to the daemon (%Ln moved).", nullptr, int(m_moved))
                          .arg(m_stage));
        return;
    }
    m_waiting->then(this, [this](const ControlReply &reply) { onReplied(reply); });
}

void MessageRequeue::nextIdBatch()
{
    if (m_next >= m_ids.size()) {
        Q_EMIT finished(m_moved);
        return;
    }
    // Within the daemon's bound and within one line: 10,000 ids of ten
    // digits would not fit in 64 KiB (the stage's name and the rest take
    // less than 1 KiB).
    QJsonArray batch;
    qsizetype bytes = 1024 + m_stage.toUtf8().size();
    while (m_next < m_ids.size() && batch.size() < protocol::MaxRequeueIds) {
        const qsizetype idBytes = QByteArray::number(m_ids.at(m_next)).size() + 1;
        if (!protocol::fitsInLine(bytes + idBytes))
            break;
        bytes += idBytes;
        batch.append(double(m_ids.at(m_next++)));
    }
    const qsizetype size = batch.size();
    // The default limit (1,000) would cut a batch of ids short.
    send({{field::Stage, m_stage},
          {field::Status, m_status},
          {field::Ids, batch},
          {field::Limit, int(std::min<qsizetype>(size, protocol::MaxRequeueLimit))}},
         cmd::Requeue);
}

void MessageRequeue::collect(qint64 afterId)
{
    send({{field::Stage, m_stage},
          {field::Status, m_status},
          {field::Reason, m_reason},
          {field::AfterId, double(afterId)},
          {field::Limit, m_collectLimit}},
         cmd::Messages);
    m_collectAfter = afterId;
}

void MessageRequeue::sendRecent()
{
    const qint64 left = std::clamp<qint64>(m_wanted - m_moved, 1, protocol::MaxRequeueLimit);
    send({{field::Stage, m_stage},
          {field::Status, m_status},
          {field::MaxAgeMs, double(m_maxAgeMs)},
          {field::Limit, int(left)}},
         cmd::Requeue);
}

void MessageRequeue::onReplied(const ControlReply &reply)
{
    m_waiting = nullptr;
    const QString cmd = reply.command();
    const bool ok = reply.isOk();
    if (!ok && cmd == cmd::Messages && m_collectLimit > 1) {
        m_collectLimit = std::max(1, m_collectLimit / 4); // the page did not fit in a line
        return collect(m_collectAfter);
    }
    if (!ok) {
        Q_EMIT failed(tr("Requeueing messages of %1 failed after %Ln moved: %2", nullptr, int(m_moved))
                          .arg(m_stage, reply.errorString()));
        return;
    }
    const QJsonObject r = reply.result().toObject();
    if (cmd == cmd::Messages) {
        const MessagePage page = protocol::messagePageFromJson(r);
        for (const MessageRow &row : page.rows) {
            if (m_ids.size() >= m_wanted)
                break;
            m_ids.append(row.id);
        }
        Q_EMIT progress(0, 0);
        if (page.nextAfterId && m_ids.size() < m_wanted)
            return collect(*page.nextAfterId);
        m_step = Step::Ids;
        m_next = 0;
        m_wanted = m_ids.size();
        return nextIdBatch();
    }
    const qint64 batch = r.value(field::Requeued).toInteger();
    m_moved += batch;
    Q_EMIT progress(m_moved, m_wanted);
    if (m_step == Step::Ids)
        return nextIdBatch();
    // Recent: more match and the operator agreed to more; a batch that moved
    // nothing ends it (the rows are locked elsewhere).
    if (r.value(field::More).toBool() && batch > 0 && m_moved < m_wanted)
        return sendRecent();
    Q_EMIT finished(m_moved);
}

} // namespace pepsi::console
