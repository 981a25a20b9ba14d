// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QHash>
#include <QObject>
#include <QString>
#include <functional>

class QAction;
class QWidget;

namespace pepsi::console {

class ConsoleFeed;
class ControlClient;
class ControlReply;

// The admin commands as QActions on the stage the operator chose, each named
// after it ("Drain enrich"): drain and resume (enabled by the stage's state,
// after a confirmation naming what the stage holds), requeue failed /
// timed-out messages (after a confirmation saying how many, from the queue
// counts, and whether the stage is failing right now; in batches of the
// daemon's limit until that many were moved) and reload. Enabled only while
// connected to a daemon that accepts admin commands from us (`version` →
// peer.admin). Every answer is reported: done() on success, failed() with the
// daemon's words otherwise.
class StageActions : public QObject
{
    Q_OBJECT

public:
    // (title, question) -> the user said yes. Tests replace the dialog.
    using Confirm = std::function<bool(const QString &title, const QString &question)>;

    StageActions(ControlClient *client, ConsoleFeed *feed, QWidget *dialogParent, QObject *parent = nullptr);

    QAction *drain() const { return m_drain; }
    QAction *resume() const { return m_resume; }
    QAction *requeueFailed() const { return m_requeueFailed; }
    QAction *requeueTimeout() const { return m_requeueTimeout; }
    QAction *reload() const { return m_reload; }
    QList<QAction *> all() const { return {m_drain, m_resume, m_requeueFailed, m_requeueTimeout, m_reload}; }

    // `set` (admin): the stage's PARALLELISM or QUEUE_LIMIT to `value`, after
    // a confirmation. The daemon writes the configuration overlay and reloads;
    // the Pools view shows the value once the reload's snapshot came.
    void setOption(const QString &stage, const QString &option, int value);

    void setStage(const QString &stage);
    QString stage() const { return m_stage; }
    void setConfirm(Confirm confirm) { m_confirm = std::move(confirm); }
    // Why the actions are disabled ("" when they are enabled).
    QString disabledReason() const;
    // Asks the operator (the dialog, or what setConfirm() put in its place).
    bool confirm(const QString &title, const QString &question) const { return m_confirm(title, question); }
    // "Stage enrich is failing now: 95 % of its runs in the last 10 s failed ...",
    // "Stage enrich failed its last 230 messages ..." (at least
    // FailedInARowWarning, none since), or "".
    static constexpr qint64 FailedInARowWarning = 10;
    QString failingWarning(const QString &stage) const;

Q_SIGNALS:
    void done(const QString &message);
    void failed(const QString &message);

private:
    struct Request
    {
        QString what;  // for the messages
        QString stage; // requeue: the batch's stage and status
        QString status;
        qint64 wanted = 0; // requeue: how many the operator agreed to move
        qint64 moved = 0;  // requeue: moved by the batches before this one

        static Request about(const QString &what, const QString &stage = {})
        {
            Request request;
            request.what = what;
            request.stage = stage;
            return request;
        }
    };

    void updateTexts();
    void updateEnabled();
    void send(const QString &cmd, const QJsonObject &arguments, const Request &request);
    void confirmDrain();
    void requeue(const QString &status);
    void sendRequeueBatch(const Request &request);
    void onReplied(const ControlReply &reply, Request request);

    ControlClient *m_client;
    ConsoleFeed *m_feed;
    QWidget *m_dialogParent;
    QAction *m_drain;
    QAction *m_resume;
    QAction *m_requeueFailed;
    QAction *m_requeueTimeout;
    QAction *m_reload;
    QString m_stage;
    Confirm m_confirm;
};

} // namespace pepsi::console
