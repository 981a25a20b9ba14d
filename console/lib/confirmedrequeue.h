// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <functional>

class QJsonValue;

namespace pepsi::console {

class ControlClient;
class ControlReply;
class MessageRequeue;
class StageActions;

// A requeue of the Messages view as the operator meets it: for one reason or
// the last minutes the true count first (the list of reasons may be minutes
// old while the stage kept failing), then the question naming stage, status
// and count, with the warning while the stage fails, then the batches of a
// MessageRequeue. One at a time.
class ConfirmedRequeue : public QObject
{
    Q_OBJECT

public:
    // What is requeued: `status` as the protocol says it, `statusName` as the
    // operator reads it (translated).
    struct Target
    {
        QString stage;
        QString status;
        QString statusName;
    };

    ConfirmedRequeue(ControlClient *client, StageActions *actions, QObject *parent = nullptr);

    void requeueIds(const Target &target, const QList<qint64> &ids);
    void requeueReason(const Target &target, const QString &reason);
    void requeueRecent(const Target &target, int minutes);
    bool isRunning() const { return m_running != nullptr; }

Q_SIGNALS:
    // A requeue began or ended (the view's buttons follow; after one, its lists).
    void runningChanged(bool running);
    void progress(const QString &text);
    void done(const QString &message);
    void failed(const QString &message);

private:
    // Counts the target's rows matching `key`; the former count on its way is dropped.
    void askCount(const Target &target, QLatin1StringView key, const QJsonValue &value,
                  const std::function<void(const ControlReply &)> &counted);
    void onReasonCounted(const ControlReply &reply);
    void onRecentCounted(const ControlReply &reply);
    // Asks, then runs the requeue; `count` is the true count it names.
    void confirmAndRun(const Target &target, const QString &what, qint64 count,
                       const std::function<void(MessageRequeue *)> &start);
    void finish();

    ControlClient *m_client;
    StageActions *m_actions;
    MessageRequeue *m_running = nullptr;
    Target m_target;                // of the count on its way
    QPointer<ControlReply> m_count; // the count on its way, before its confirmation
    QString m_reason;               // of a count of one reason
    int m_recentMinutes = 0;        // of a count of the last minutes
};

} // namespace pepsi::console
