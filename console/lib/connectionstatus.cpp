// SPDX-License-Identifier: AGPL-3.0-or-later
#include "connectionstatus.h"

#include "control/protocol.h"

#include "controlclient.h"
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
    const auto state = m_client->state();
    QString text;
    QString color;
    switch (state) {
    case ControlClient::State::Connected:
        m_lostAt = {};
        text = tr("Connected to %1").arg(m_client->socketPath());
        color = u"#2e7d32"_s;
        break;
    case ControlClient::State::Connecting:
    case ControlClient::State::Handshaking:
    case ControlClient::State::Disconnected:
        if (m_uptimeAtVersion >= 0 && !m_lostAt.isValid())
            m_lostAt = QDateTime::currentDateTime();
        if (m_lostAt.isValid())
            text = tr("Reconnecting to %1 (lost at %2)…").arg(m_client->socketPath(), m_lostAt.toString(u"HH:mm:ss"_s));
        else if (!m_client->lastError().isEmpty())
            text = tr("No daemon on %1 yet; retrying every second…").arg(m_client->socketPath());
        else
            text = tr("Connecting to %1…").arg(m_client->socketPath());
        color = u"#b26a00"_s;
        m_tick.stop();
        break;
    case ControlClient::State::Incompatible:
        text = tr("Incompatible daemon on %1").arg(m_client->socketPath());
        color = u"#b00020"_s;
        m_tick.stop();
        break;
    }
    m_connection->setText(text);
    m_connection->setToolTip(m_client->lastError());
    m_connection->setStyleSheet(u"QLabel { color: %1; font-weight: bold; }"_s.arg(color));
    updateUptime();
}

void ConnectionStatus::onVersion(const QJsonObject &version)
{
    m_version->setText(tr("pepsi-dispatch %1 (pid %2, %3)")
                           .arg(version.value(field::Daemon).toString())
                           .arg(version.value(field::Pid).toInteger())
                           .arg(version.value(field::State).toString()));
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
