// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QList>
#include <QObject>
#include <QString>
#include <functional>

class QJsonValue;

namespace pepsi::console {

class ControlClient;
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
    void onReplied(qint64 id, const QString &cmd, bool ok, const QJsonValue &result, const QString &error);
    qint64 askCount(const Target &target, QLatin1StringView key, const QJsonValue &value);
    // Asks, then runs the requeue; `count` is the true count it names.
    void confirmAndRun(const Target &target, const QString &what, qint64 count,
                       const std::function<void(MessageRequeue *)> &start);
    void finish();

    ControlClient *m_client;
    StageActions *m_actions;
    MessageRequeue *m_running = nullptr;
    Target m_target;            // of the count on its way
    qint64 m_reasonRequest = 0; // the count of one reason now, before its confirmation
    QString m_reason;
    qint64 m_recentRequest = 0; // the count of the last minutes, before its confirmation
    int m_recentMinutes = 0;
};

} // namespace pepsi::console
