// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "model/snapshots.h"

#include <QString>
#include <optional>

namespace pepsi {

// The count behind queueCounts(); tst_operatorqueries checks its plan: it
// must read indexes only, never the history of done rows.
extern const QString QueueCountsSql;

// The statements behind the control socket's `queues` and `requeue`, on the
// operator connection (storage/operatorthread.h). Both are single autocommit
// statements with bounded work.
class ControlStore
{
public:
    explicit ControlStore(QString connectionName);

    // Row counts per stage for pending, running, paused, failed and timeout,
    // and the age of the oldest pending row per stage, in one query.
    std::optional<QueueCounts> queueCounts();
    // Moves at most request.limit matching rows back to pending in one
    // statement, skipping rows another session holds locked.
    std::optional<RequeueOutcome> requeue(const RequeueRequest &request);

    QString lastError() const { return m_lastError; }

private:
    QString m_connectionName;
    QString m_lastError;
};

} // namespace pepsi
