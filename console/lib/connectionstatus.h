// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QDateTime>
#include <QElapsedTimer>
#include <QLabel>
#include <QTimer>
#include <QWidget>

namespace pepsi::console {

class ControlClient;

// The status bar's permanent part: connection state (and, while the daemon is
// away, that the console is reconnecting by itself), daemon version, uptime.
class ConnectionStatus : public QWidget
{
    Q_OBJECT

public:
    explicit ConnectionStatus(ControlClient *client, QWidget *parent = nullptr);

    QString connectionText() const { return m_connection->text(); }
    QString versionText() const { return m_version->text(); }
    QString uptimeText() const { return m_uptime->text(); }

private:
    void onStateChanged();
    void onVersion(const QJsonObject &version);
    void updateUptime();

    ControlClient *m_client;
    QLabel *m_connection;
    QLabel *m_version;
    QLabel *m_uptime;
    QTimer m_tick;
    QElapsedTimer m_since; // since the version reply
    qint64 m_uptimeAtVersion = -1;
    QDateTime m_lostAt;
};

} // namespace pepsi::console
