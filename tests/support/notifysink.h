// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QSocketNotifier>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <memory>

// systemd's end of NOTIFY_SOCKET for tests of a Type=notify daemon: a
// datagram socket in a temporary directory that keeps every message with its
// arrival time. Started as root, the daemon sends as the service account, so
// the directory and the socket are open to it.
class NotifySink : public QObject
{
public:
    struct Message
    {
        qint64 atMs = 0;
        QByteArray text;
    };

    NotifySink();
    ~NotifySink() override;

    bool isValid() const { return m_fd >= 0; }
    // The value for NOTIFY_SOCKET.
    QString path() const { return m_path; }

    // Messages carrying `field` (READY=1, STATUS=, WATCHDOG=1, ...), in order.
    QList<Message> with(const QByteArray &field) const;
    int count(const QByteArray &field) const { return int(with(field).size()); }
    // Every message so far, in order.
    QList<Message> all() const;
    // The STATUS= values in order.
    QStringList statuses() const;
    // Every message with its time, one a line (for failure output).
    QString describe() const;

private:
    void drain() const;

    QTemporaryDir m_dir;
    QString m_path;
    int m_fd = -1;
    QElapsedTimer m_clock;
    std::unique_ptr<QSocketNotifier> m_notifier;
    mutable QList<Message> m_messages;
};
