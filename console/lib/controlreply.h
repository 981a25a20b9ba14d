// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QJsonValue>
#include <QObject>
#include <QString>
#include <functional>

namespace pepsi::console {

class ControlClient;

// The answer to one request of ControlClient::send(), as QNetworkReply is to
// one of QNetworkAccessManager: finished() comes once, with the daemon's
// result or an error (the daemon's refusal, or a connection that went before
// the answer came). Only the one who asked hears it. The reply is the
// client's child; whoever asked deletes it with deleteLater() when done with
// it (deleting it before it finished abandons the request: its answer is
// dropped when it comes).
class ControlReply : public QObject
{
    Q_OBJECT

public:
    qint64 id() const { return m_id; }
    QString command() const { return m_command; }
    bool isFinished() const { return m_finished; }
    // The daemon answered "ok": true.
    bool isOk() const { return m_ok; }
    // The daemon's "result" (null unless isOk()).
    QJsonValue result() const { return m_result; }
    // The daemon's "error", or why no answer came; empty when isOk().
    QString errorString() const { return m_error; }

    // Calls `handler` with this reply once it finished, in `context`, then
    // deletes the reply; a context that goes first takes the reply with it.
    void then(QObject *context, std::function<void(const ControlReply &)> handler);
    // The asker no longer wants the answer: no one hears it, and the reply goes.
    void abandon();

Q_SIGNALS:
    void finished();

private:
    friend class ControlClient;
    ControlReply(qint64 id, const QString &command, ControlClient *client);
    void finish(bool ok, const QJsonValue &result, const QString &error);

    qint64 m_id;
    QString m_command;
    bool m_finished = false;
    bool m_ok = false;
    QJsonValue m_result;
    QString m_error;
};

} // namespace pepsi::console
