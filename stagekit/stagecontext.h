// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "movebatch.h"
#include "outcome.h"
#include "pgconnection.h"
#include "stateupdate.h"

#include "config/configuration.h"
#include "config/stagegraph.h"

#include <QString>
#include <chrono>
#include <utility>

namespace pepsi::stagekit {

// What a stage's handler works with: its stage, the pipeline, the
// configuration (file plus database overlay) and the worker's one database
// connection, plus the guarded writes that move a message on.
//
// Every write the kit makes to a row is guarded by
//   WHERE workqueue_id = $id AND stage = <this stage> AND status = 'running'
// so a stage never moves a row it does not hold. Zero rows matched is a
// failure: "message <id> is not running at stage <stage>".
//
// In a batch with WorkerOptions::combineMoves, advance(), advanceTo() (to a
// stage that does not fuse) and finish() return ok() once the move is kept;
// the kit writes the batch's moves together before it commits, and answers a
// message whose move then matched nothing with that failure instead of the
// handler's ok() (MoveBatch).
//
// Stage fusion: an advance to a successor with FUSE = YES and the same
// PROGRAM leaves the row 'running' there instead of 'pending'; the worker
// loop then runs that stage's handler in the same pass (takeFusedStage()).
class StageContext
{
public:
    enum class Final { Done, Failed };

    // `batch`: the worker's batch of moves (WorkerSession), if any.
    StageContext(PgConnection &connection, Configuration configuration, StageGraph graph, QString stage,
                 MoveBatch *batch = nullptr);
    StageContext(const StageContext &) = delete;
    StageContext &operator=(const StageContext &) = delete;

    // The raw libpq connection (autocommit). Prefer exec(): it prepares once
    // and turns a lost connection into a 75 answer. Statements you prepare
    // yourself are gone after the kit resets a lost connection.
    PGconn *connection() const { return m_connection.handle(); }
    QString stage() const { return m_stage; }
    QString stageSection() const { return QStringLiteral("stage-") + m_stage; } // "stage-enrich"
    const StageConfig &stageConfig() const { return *m_stageConfig; }
    const StageGraph &graph() const { return m_graph; }
    const Configuration &configuration() const { return m_configuration; }

    // A bound statement; see QueryResult for how failures are classified.
    QueryResult exec(const QByteArray &sql, const QList<QByteArray> &parameters = {});

    // To the first NEXT stage as 'pending' ('running' when it fuses); at a
    // terminal stage: 'done'.
    Outcome advance(qint64 id, const StateUpdate &extra = {});
    // To a named successor (one of NEXT) as 'pending' ('running' when it fuses).
    Outcome advanceTo(qint64 id, const QString &next, const StateUpdate &extra = {});
    // Ends the message here: 'done' or 'failed'.
    Outcome finish(qint64 id, Final status, const StateUpdate &extra = {});
    // 'paused' until now() + delay, with the reason in state.pause_reason; the
    // dispatcher makes it pending at this stage again when the time is due.
    Outcome pause(qint64 id, std::chrono::milliseconds delay, const QByteArray &reason, const StateUpdate &extra = {});

    // Whether this stage's worker runs `next` itself: FUSE = YES and the same
    // PROGRAM (as configured).
    bool fusesInto(const QString &next) const;
    // For the worker loop: the stage a successful advance left the row
    // running at, for it to run in the same pass; empty when none. Clears it.
    QString takeFusedStage() { return std::exchange(m_fusedStage, QString()); }

private:
    Outcome move(qint64 id, const QString &stage, const char *status, const StateUpdate &extra);
    Outcome guarded(qint64 id, const QByteArray &sql, const QList<QByteArray> &parameters);

    PgConnection &m_connection;
    MoveBatch *m_batch;
    Configuration m_configuration;
    StageGraph m_graph;
    QString m_stage;
    const StageConfig *m_stageConfig = nullptr;
    QString m_fusedStage;
};

} // namespace pepsi::stagekit
