// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "config/configuration.h"

#include <QList>
#include <optional>

namespace pepsi {

class QueueConnection;

// Reads config_overlay, the database's layer over pepsi.conf.
class OverlayStore
{
public:
    explicit OverlayStore(QueueConnection &connection);
    std::optional<QList<OverlayRow>> read();
    QString lastError() const { return m_lastError; }

private:
    QueueConnection &m_connection;
    QString m_lastError;
};

} // namespace pepsi
