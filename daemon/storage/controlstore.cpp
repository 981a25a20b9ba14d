// SPDX-License-Identifier: AGPL-3.0-or-later
#include "storage/controlstore.h"

#include "storage/pgarray.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace pepsi {

// Pending, running and paused rows are counted through their partial indexes
// (index-only where the visibility map allows), so the cost follows the
// backlog. The oldest pending row is the lowest pending id of the stage: ids
// are handed out in insertion order, and this reads one heap row per stage.
// failed and timeout rows are counted through workqueue_failed (schema
// version 2); nothing here reads the done rows.
// No quote characters in comments inside the SQL (QSqlQuery placeholder parser).
const QString QueueCountsSql = QStringLiteral(R"sql(
WITH pending AS (
    SELECT stage, count(*) AS n, min(workqueue_id) AS oldest
      FROM workqueue WHERE status = 'pending' GROUP BY stage
)
SELECT p.stage, 'pending', p.n,
       (SELECT floor(extract(epoch FROM now() - w.created) * 1000)::bigint
          FROM workqueue w WHERE w.workqueue_id = p.oldest)
  FROM pending p
UNION ALL
SELECT stage, 'running', count(*), NULL FROM workqueue WHERE status = 'running' GROUP BY stage
UNION ALL
SELECT stage, 'paused', count(*), NULL FROM workqueue WHERE status = 'paused' GROUP BY stage
UNION ALL
SELECT stage, status::text, count(*), NULL FROM workqueue WHERE status IN ('failed', 'timeout') GROUP BY stage, status
)sql");

namespace {

// One statement: pick up to limit + 1 matching rows in id order, skipping
// rows locked by another session, move the first `limit` of them back to
// pending (re-checking the status: only this dispatcher and the stages write
// rows, and a stage may have moved one meanwhile) and remove dispatch_error.
// The extra row only tells whether more match.
const QString RequeueSql = QStringLiteral(R"sql(
WITH picked AS (
    SELECT workqueue_id FROM workqueue
     WHERE stage = :stage AND status = CAST(:status AS workqueue_status)
       AND (cardinality(CAST(:ids AS bigint[])) = 0 OR workqueue_id = ANY (CAST(:ids2 AS bigint[])))
       AND (CAST(:maxage AS bigint) < 0 OR updated >= now() - CAST(:maxage2 AS bigint) * interval '1 millisecond')
     ORDER BY workqueue_id
     LIMIT CAST(:limit AS integer) + 1
       FOR UPDATE SKIP LOCKED
), moved AS (
    UPDATE workqueue w
       SET status = 'pending', timeout = NULL, state = w.state - 'dispatch_error', updated = now()
     WHERE w.workqueue_id IN (SELECT workqueue_id FROM picked ORDER BY workqueue_id LIMIT CAST(:limit2 AS integer))
       AND w.status = CAST(:status2 AS workqueue_status)
    RETURNING 1
)
SELECT (SELECT count(*) FROM moved), (SELECT count(*) FROM picked) > CAST(:limit3 AS integer)
)sql");

} // namespace

ControlStore::ControlStore(QString connectionName)
    : m_connectionName(std::move(connectionName))
{ }

std::optional<QueueCounts> ControlStore::queueCounts()
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.setForwardOnly(true);
    if (!query.exec(QueueCountsSql)) {
        m_lastError = QStringLiteral("counting the queue failed: ") + query.lastError().text().trimmed();
        return std::nullopt;
    }
    QueueCounts counts;
    counts.takenAt = QDateTime::currentDateTimeUtc();
    while (query.next()) {
        StageQueue &stage = counts.stages[query.value(0).toString()];
        const QString status = query.value(1).toString();
        const qint64 n = query.value(2).toLongLong();
        if (status == u"pending") {
            stage.pending = n;
            if (!query.isNull(3))
                stage.oldestPendingAgeMs = std::max<qint64>(0, query.value(3).toLongLong());
        } else if (status == u"running") {
            stage.running = n;
        } else if (status == u"paused") {
            stage.paused = n;
        } else if (status == u"failed") {
            stage.failed = n;
        } else if (status == u"timeout") {
            stage.timeout = n;
        }
    }
    return counts;
}

std::optional<RequeueOutcome> ControlStore::requeue(const RequeueRequest &request)
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    if (!query.prepare(RequeueSql)) {
        m_lastError = QStringLiteral("preparing the requeue failed: ") + query.lastError().text().trimmed();
        return std::nullopt;
    }
    const QString ids = pgIntArray(request.ids);
    const qint64 maxAge = request.maxAgeMs.value_or(-1);
    query.bindValue(QStringLiteral(":stage"), request.stage);
    query.bindValue(QStringLiteral(":status"), request.status);
    query.bindValue(QStringLiteral(":status2"), request.status);
    query.bindValue(QStringLiteral(":ids"), ids);
    query.bindValue(QStringLiteral(":ids2"), ids);
    query.bindValue(QStringLiteral(":maxage"), maxAge);
    query.bindValue(QStringLiteral(":maxage2"), maxAge);
    query.bindValue(QStringLiteral(":limit"), request.limit);
    query.bindValue(QStringLiteral(":limit2"), request.limit);
    query.bindValue(QStringLiteral(":limit3"), request.limit);
    if (!query.exec() || !query.next()) {
        m_lastError = QStringLiteral("requeue failed: ") + query.lastError().text().trimmed();
        return std::nullopt;
    }
    return RequeueOutcome{query.value(0).toLongLong(), query.value(1).toBool()};
}

} // namespace pepsi
