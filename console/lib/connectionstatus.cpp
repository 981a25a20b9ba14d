// SPDX-License-Identifier: AGPL-3.0-or-later
#include "connectionstatus.h"

#include "control/protocol.h"

#include "controlclient.h"
#include "eventtext.h"
#include "keyedtablemodel.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QJsonObject>

namespace pepsi::console {

using namespace Qt::StringLiterals;
namespace field = protocol::field;

ConnectionStatus::ConnectionStatus(ControlClient *client, QWidget *parent)
    : QWidget(parent)
    , m_client(client)
    , m_connection(new QLabel(this))
    , m_version(new QLabel(this))
    , m_uptime(new QLabel(this))
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_connection);
    layout->addWidget(m_version);
    layout->addWidget(m_uptime);
    m_connection->setObjectName(u"connection"_s);
    m_version->setObjectName(u"version"_s);
    m_uptime->setObjectName(u"uptime"_s);
    m_tick.setInterval(1000);
    connect(&m_tick, &QTimer::timeout, this, &ConnectionStatus::updateUptime);
    connect(client, &ControlClient::stateChanged, this, &ConnectionStatus::onStateChanged);
    connect(client, &ControlClient::versionReceived, this, &ConnectionStatus::onVersion);
    connect(client, &ControlClient::errorOccurred, this, &ConnectionStatus::onStateChanged);
    onStateChanged();
}

void ConnectionStatus::onStateChanged()
{
    // Short texts: the status bar's messages share the line with this one.
    // The socket's path is in the window title and the tooltip.
    const auto state = m_client->state();
    QString text;
    QString color;
    const QString retry = formatDuration(m_client->retryInterval());
    switch (state) {
    case ControlClient::State::Connected:
        m_lostAt = {};
        text = tr("Connected");
        color = u"#2e7d32"_s;
        break;
    case ControlClient::State::Connecting:
    case ControlClient::State::Handshaking:
    case ControlClient::State::Disconnected:
        if (m_uptimeAtVersion >= 0 && !m_lostAt.isValid())
            m_lostAt = QDateTime::currentDateTime();
        if (m_client->isBackingOff() && m_client->target().isSsh())
            text = tr("ssh failed; retrying every %1").arg(retry);
        else if (m_client->isBackingOff())
            text = tr("Not the daemon's socket; retrying every %1").arg(retry);
        else if (m_lostAt.isValid())
            text = tr("Not connected since %1; retrying every %2").arg(m_lostAt.toString(u"HH:mm:ss"_s), retry);
        else if (!m_client->lastError().isEmpty())
            text = tr("No daemon yet; retrying every %1").arg(retry);
        else
            text = tr("Connecting…");
        color = u"#b26a00"_s;
        m_tick.stop();
        // The daemon's pid and state were true of the daemon that went.
        m_version->clear();
        break;
    case ControlClient::State::Incompatible:
        text = tr("Incompatible daemon");
        color = u"#b00020"_s;
        m_tick.stop();
        break;
    }
    m_connection->setText(text);
    const QString error = m_client->lastError();
    m_connection->setToolTip(error.isEmpty() ? m_client->socketPath() : m_client->socketPath() + u'\n' + error);
    m_connection->setStyleSheet(u"QLabel { color: %1; font-weight: bold; }"_s.arg(color));
    updateUptime();
}

void ConnectionStatus::onVersion(const QJsonObject &version)
{
    m_version->setText(tr("pepsi-dispatch %1, pid %2, %3")
                           .arg(version.value(field::Daemon).toString())
                           .arg(version.value(field::Pid).toInteger())
                           .arg(EventText::daemonState(version.value(field::State).toString())));
    m_uptimeAtVersion = version.value(field::UptimeMs).toInteger();
    m_since.start();
    m_tick.start();
    updateUptime();
}

void ConnectionStatus::updateUptime()
{
    if (m_client->state() != ControlClient::State::Connected || m_uptimeAtVersion < 0) {
        m_uptime->clear();
        return;
    }
    m_uptime->setText(tr("up %1").arg(formatDuration(m_uptimeAtVersion + m_since.elapsed())));
}

} // namespace pepsi::console
