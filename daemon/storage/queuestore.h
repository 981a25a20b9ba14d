// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "model/ticket.h"
#include "storage/pgstatement.h"
#include "storage/queueconnection.h"

#include <QHash>
#include <QList>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>
#include <limits>
#include <memory>
#include <optional>

namespace pepsi {

struct StageDemand
{
    QString stage;
    int capacity = 0;
    // The walk starts here (ClaimFloors): below it nothing is pending at the
    // stage that the dispatcher was not told of. By default, below every id.
    qint64 floor = std::numeric_limits<qint64>::min();
};

struct ClaimedMessage
{
    Ticket ticket;
    QString stage;
};

struct ClaimRound
{
    QList<ClaimedMessage> claimed;
    qint64 resumed = 0;                 // paused rows that were due and are pending again
    QHash<QString, qint64> resumedFrom; // per stage, the lowest id among them
    // Per stage asked for, the lowest pending id from its floor that it did
    // not claim (past the cap, or locked); absent: none was left.
    QHash<QString, qint64> unclaimedFrom;
    std::optional<qint64> nextPausedInMs; // the earliest paused row still waiting
    qint64 skippedLocked = 0;             // due or claimable rows another session holds a lock on
};

// The claim round's statement as claimRound() prepares it (:stages text[],
// :caps integer[], :floors bigint[]); tst_queuestore checks its plan.
extern const QString ClaimRoundSql;
// Its parameters as PostgreSQL array literals, for `demands`: :stages, :caps
// and :floors, in that order (also how the tests spell them in EXPLAIN).
QList<QByteArray> claimValues(const QList<StageDemand> &demands);

// Every statement the dispatcher runs against workqueue, in one place, on one
// connection of its own. All writes to handed-out rows carry the claim guard.
class QueueStore
{
public:
    explicit QueueStore(QueueConnection &connection);
    ~QueueStore();

    // Drops the statements prepared on the connection; before it closes.
    void forgetStatements();
    QString lastError() const { return m_lastError; }

    // One statement: due paused rows -> pending, claim up to each stage's
    // capacity (oldest first from the stage's floor, via the partial pending
    // index), where each stage's next walk may start, and the time of the
    // next paused row. Rows resumed here are claimable from the next round.
    std::optional<ClaimRound> claimRound(const QList<StageDemand> &demands);

    // Guarded writes for messages that did not succeed; one statement per batch.
    // Returns the number of rows changed, or nothing when the batch should be
    // written again later (connection lost, timeout, lock): then nothing or
    // part of it was written, and writing it again is harmless (the guard).
    // A batch the server refuses on a live connection is split: every entry
    // it can take is written, and the one it cannot is logged (written
    // without its reason if that helps), never kept to block later batches.
    std::optional<qint64> settle(const Settlements &settlements);

    // Running rows that no worker of ours holds go back to pending: at start
    // (nothing held) the rows a previous dispatcher left, after a reconnect a
    // claim that committed but whose answer was lost with the connection.
    // Only the lock holder may call it.
    std::optional<qint64> resetOrphansExcept(const QList<qint64> &held);

private:
    enum class SettleStep { Written, Rejected, TryLater };

    bool run(QSqlQuery &query, const char *what);
    SettleStep settleBatch(const Settlements &settlements, qint64 *changed);
    SettleStep settleSplitting(const Settlements &settlements, qint64 *changed);

    QueueConnection &m_connection;
    QString m_lastError;
    PgStatement m_claim;
    std::unique_ptr<QSqlQuery> m_settle;
};

} // namespace pepsi
