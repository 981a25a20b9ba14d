// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "model/snapshots.h"

#include <QString>
#include <optional>

namespace pepsi {

// The count behind queueCounts(); tst_operatorqueries checks its plan: it
// must read indexes only, never the history of done rows.
extern const QString QueueCountsSql;

// The statements behind the control socket's `queues`, `requeue`, `set` and `unset`,
// on the operator connection (storage/operatorthread.h). Each is a single
// autocommit statement with bounded work.
class ControlStore
{
public:
    explicit ControlStore(QString connectionName);

    // Row counts per stage for pending, running, paused, failed and timeout,
    // and the pending rows by age (the oldest, and pending_ages), in one query.
    std::optional<QueueCounts> queueCounts();
    // Moves at most request.limit matching rows back to pending in one
    // statement, skipping rows another session holds locked.
    std::optional<RequeueOutcome> requeue(const RequeueRequest &request);
    // Writes the config_overlay row, replacing any row that names the same
    // option in another case or with blanks around it (the overlay compares
    // names that way): its trigger's config_changed reloads the graph.
    bool setOverlay(const OverlaySetting &setting);
    // Removes the config_overlay rows that name the option (in any case, with
    // blanks around it), whose trigger's config_changed reloads the graph;
    // false, and no statement that would notify, when there is none.
    std::optional<bool> unsetOverlay(const OverlaySetting &setting);

    QString lastError() const { return m_lastError; }

private:
    QString m_connectionName;
    QString m_lastError;
};

} // namespace pepsi
