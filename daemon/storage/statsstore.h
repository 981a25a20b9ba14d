// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "model/statsdelta.h"

#include <QString>

namespace pepsi {

class QueueConnection;

// Adds a statistics delta to stage_stats and dispatch_stats in one statement
// (so in one transaction), on the queue connection.
class StatsStore
{
public:
    explicit StatsStore(QueueConnection &connection);
    bool add(const StatsDelta &delta);
    QString lastError() const { return m_lastError; }

private:
    QueueConnection &m_connection;
    QString m_lastError;
};

} // namespace pepsi
