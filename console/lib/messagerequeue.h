// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>

namespace pepsi::console {

class ControlClient;
class ControlReply;

// One requeue the operator confirmed, sent as batches within the daemon's
// bounds (protocol::MaxRequeueIds, MaxRequeueLimit) until it is done: the
// ids given; or every row of one reason (its ids paged with `messages`
// "reason" first, then moved by id), the oldest up to the count the operator
// agreed to; or the rows that reached the status in the last maxAgeMs, up to
// the count the operator agreed to. Rows that got the reason after the
// confirmation stay: the operator did not agree to them. progress() after
// each batch; finished() with how many moved, or failed() with the daemon's words.
class MessageRequeue : public QObject
{
    Q_OBJECT

public:
    MessageRequeue(ControlClient *client, QString stage, QString status, QObject *parent = nullptr);

    void requeueIds(const QList<qint64> &ids);
    void requeueReason(const QString &reason, qint64 wanted);
    void requeueRecent(qint64 maxAgeMs, qint64 wanted);

    QString stage() const { return m_stage; }
    QString status() const { return m_status; }
    qint64 moved() const { return m_moved; }
    bool isRunning() const { return !m_waiting.isNull(); }

Q_SIGNALS:
    // `moved` of `wanted` so far (wanted: 0 while the ids of a reason are read).
    void progress(qint64 moved, qint64 wanted);
    void finished(qint64 moved);
    void failed(const QString &message);

private:
    enum class Step { Ids, Collect, Recent };

    void send(const QJsonObject &arguments, const QString &cmd);
    void nextIdBatch();
    void collect(qint64 afterId);
    void sendRecent();
    void onReplied(const ControlReply &reply);

    ControlClient *m_client;
    QString m_stage;
    QString m_status;
    Step m_step = Step::Ids;
    QList<qint64> m_ids; // to move; m_next: the first not yet sent
    qsizetype m_next = 0;
    QString m_reason;
    qint64 m_maxAgeMs = 0;
    qint64 m_wanted = 0;
    qint64 m_moved = 0;
    QPointer<ControlReply> m_waiting; // the request on its way
    qint64 m_collectAfter = 0;        // the after_id of the page of ids on its way
    int m_collectLimit = 0;           // its limit, so that the page fits in a protocol line
};

} // namespace pepsi::console
