// SPDX-License-Identifier: AGPL-3.0-or-later
#include "controlreply.h"

#include "controlclient.h"

namespace pepsi::console {

ControlReply::ControlReply(qint64 id, const QString &command, ControlClient *client)
    : QObject(client)
    , m_id(id)
    , m_command(command)
{ }

void ControlReply::then(QObject *context, std::function<void(const ControlReply &)> handler)
{
    connect(this, &ControlReply::finished, context, [this, handler = std::move(handler)] {
        deleteLater();
        handler(*this);
    });
    connect(context, &QObject::destroyed, this, &ControlReply::abandon);
}

void ControlReply::abandon()
{
    disconnect();
    deleteLater();
}

void ControlReply::finish(bool ok, const QJsonValue &result, const QString &error)
{
    if (m_finished)
        return;
    m_finished = true;
    m_ok = ok;
    m_result = ok ? result : QJsonValue();
    m_error = ok ? QString() : error;
    Q_EMIT finished();
}

} // namespace pepsi::console
