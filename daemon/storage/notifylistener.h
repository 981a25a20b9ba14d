// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QObject>
#include <QSqlDriver>
#include <QString>

namespace pepsi {

// The dispatcher's dedicated LISTEN connection (claims run on another one, so
// a notification is never held up behind a query). It also carries the
// dispatcher's advisory lock, which lives exactly as long as this session.
class NotifyListener : public QObject
{
    Q_OBJECT

public:
    static inline const QString WorkqueueChannel = QStringLiteral("workqueue");
    static inline const QString ConfigChannel = QStringLiteral("config_changed");

    NotifyListener(QString connectionName, QObject *parent);
    ~NotifyListener() override;

    bool open(const QString &database, const QString &applicationName);
    bool subscribe();
    void close();
    bool isOpen() const;
    QString connectionName() const { return m_connectionName; }
    QString lastError() const { return m_lastError; }

Q_SIGNALS:
    void notified(const QString &channel, const QString &payload);

private:
    QString m_connectionName;
    QString m_lastError;
};

} // namespace pepsi
