// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "outcome.h"
#include "pgconnection.h"
#include "stateupdate.h"

#include <QByteArray>
#include <QHash>
#include <QList>

namespace pepsi::stagekit {

// The answer a guarded write gives when its guard matched no row.
Outcome notRunningAt(qint64 id, const QByteArray &stage);

// The transaction of a commitBatches batch (WorkerLoop::runBatch), and, with
// WorkerOptions::combineMoves, the moves its handlers made, written together:
// one UPDATE per shape of move (its StateUpdate's kinds and depths) for the
// whole batch, from arrays, instead of one per message. Each row keeps the
// guard of a single move (its id, the stage that holds it, 'running');
// RETURNING tells which ids it matched, and missedAt() names the others.
//
// Combining, the transaction begins only when a handler runs a statement of
// its own: a batch whose handlers only advance is one statement in
// autocommit, one round trip instead of BEGIN, an UPDATE per message and
// COMMIT. Before any other statement of a handler's context the moves
// deferred so far are written, so every statement sees the writes before it.
class MoveBatch
{
public:
    struct Move
    {
        qint64 id = 0;
        QByteArray held;   // the stage whose guard the write carries
        QByteArray next;   // the stage it moves to
        QByteArray status; // pending, done or failed
        StateUpdate extra;
    };

    explicit MoveBatch(PgConnection &connection)
        : m_connection(connection)
    { }

    // A batch starts. Without combining, its transaction begins now (the
    // error is every message's answer).
    Outcome open(bool combine);
    bool isOpen() const { return m_open; }

    // Keeps a move to write with the batch; false when it must be written
    // now (not combining, or a move of that id is already waiting).
    bool defer(Move move);
    // Before any statement a handler's context runs during the batch: begins
    // the transaction and writes the moves deferred so far.
    Outcome beforeStatement();
    // After a handler: whether the batch can go on (its transaction, when it
    // began one, is neither aborted nor ended; the connection lives).
    bool isUsable() const;

    // After the last handler: writes what is deferred and commits. The batch
    // is closed either way; after a failure nothing of it is committed.
    Outcome finish();
    // Rolls back what was begun and closes the batch.
    void abandon();

    // The stage at which the deferred move of `id` matched no row (the row
    // was no longer running there); empty when it matched or there was none.
    QByteArray missedAt(qint64 id) const { return m_missed.value(id); }
    // Whether the statement that broke the batch wrote a deferred move of an
    // id other than `id`: then the failure is not known to be id's.
    bool failedForOthers(qint64 id) const;

    // The statement that writes moves of `shape` (for the plan test).
    static QByteArray statementFor(const StateUpdate &shape);

private:
    Outcome begin();
    Outcome flush();
    Outcome writeGroup(const QList<Move> &moves);

    PgConnection &m_connection;
    bool m_open = false;
    bool m_combine = false;
    bool m_begun = false;
    QList<Move> m_moves;
    QHash<qint64, QByteArray> m_missed;
    QList<qint64> m_failedIds;
};

} // namespace pepsi::stagekit
