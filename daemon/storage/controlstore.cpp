// SPDX-License-Identifier: AGPL-3.0-or-later
#include "storage/controlstore.h"

#include "storage/messagestore.h"
#include "storage/pgarray.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace pepsi {

namespace {

// ARRAY[1000,10000,...]: the bucket bounds of `pending_ages`, for width_bucket().
QString pendingAgeBounds()
{
    QStringList bounds;
    for (qint64 bound : PendingAgeBoundsMs)
        bounds << QString::number(bound);
    return u"ARRAY[" + bounds.join(u',') + u"]::numeric[]";
}

} // namespace

// Pending rows are read through their partial index, and for each one its
// `updated` from the heap: a row's wait at a stage counts from when it became
// pending there (a stage's write moving it on, a requeue, a reset after a
// crash all set `updated`), not from its creation, which would give every
// stage of the pipeline the same age. The cost follows the backlog, never the
// history. running and paused rows are counted through their partial indexes
// (index-only where the visibility map allows); failed and timeout rows
// through workqueue_failed (schema version 2). Nothing here reads done rows.
// Columns: stage, status, count, oldest pending age in ms, then the six
// pending_ages buckets (width_bucket: 0 below the first bound, 5 past the last).
// No quote characters in comments inside the SQL (QSqlQuery placeholder parser).
const QString QueueCountsSql = QStringLiteral(R"sql(
WITH pending AS (
    SELECT stage, updated,
           width_bucket(extract(epoch FROM now() - updated) * 1000, %1) AS bucket
      FROM workqueue WHERE status = 'pending'
)
SELECT stage, 'pending', count(*),
       floor(extract(epoch FROM now() - min(updated)) * 1000)::bigint,
       count(*) FILTER (WHERE bucket = 0), count(*) FILTER (WHERE bucket = 1),
       count(*) FILTER (WHERE bucket = 2), count(*) FILTER (WHERE bucket = 3),
       count(*) FILTER (WHERE bucket = 4), count(*) FILTER (WHERE bucket = 5)
  FROM pending GROUP BY stage
UNION ALL
SELECT stage, 'running', count(*), NULL, NULL, NULL, NULL, NULL, NULL, NULL
  FROM workqueue WHERE status = 'running' GROUP BY stage
UNION ALL
SELECT stage, 'paused', count(*), NULL, NULL, NULL, NULL, NULL, NULL, NULL
  FROM workqueue WHERE status = 'paused' GROUP BY stage
UNION ALL
SELECT stage, status::text, count(*), NULL, NULL, NULL, NULL, NULL, NULL, NULL
  FROM workqueue WHERE status IN ('failed', 'timeout') GROUP BY stage, status
)sql")
                                   .arg(pendingAgeBounds());

namespace {

// One statement: pick up to limit + 1 matching rows in id order, skipping
// rows locked by another session, move the first `limit` of them back to
// pending (re-checking the status: only this dispatcher and the stages write
// rows, and a stage may have moved one meanwhile) and remove dispatch_error.
// The extra row only tells whether more match. The reason is compared as
// `messages` and `reasons` list it (MessageStore::MaxReasonChars), so that a
// reason from their lists finds its rows.
const QString RequeueSql = QStringLiteral(R"sql(
WITH picked AS (
    SELECT workqueue_id FROM workqueue
     WHERE stage = :stage AND status = CAST(:status AS workqueue_status)
       AND (cardinality(CAST(:ids AS bigint[])) = 0 OR workqueue_id = ANY (CAST(:ids2 AS bigint[])))
       AND (CAST(:maxage AS bigint) < 0 OR updated >= now() - CAST(:maxage2 AS bigint) * interval '1 millisecond')
       AND (NOT CAST(:byreason AS boolean) OR coalesce(left(state ->> 'dispatch_error', %1), '') = CAST(:reason AS text))
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
)sql")
                               .arg(MessageStore::MaxReasonChars);

// The delete and the insert touch different rows: one statement, one
// transaction, one config_changed.
const QString SetOverlaySql = QStringLiteral(R"sql(
WITH gone AS (
    DELETE FROM config_overlay
     WHERE lower(btrim(section)) = lower(:section) AND lower(btrim(option)) = lower(:option)
       AND NOT (section = :section2 AND option = :option2)
)
INSERT INTO config_overlay (section, option, value) VALUES (:section3, :option3, :value)
    ON CONFLICT (section, option) DO UPDATE SET value = excluded.value
)sql");

// The rows withOverlay() would apply to the option (names compare as there).
const QString OverlayRowsWhere =
    QStringLiteral(" WHERE lower(btrim(section)) = lower(:section) AND lower(btrim(option)) = lower(:option)");
const QString CountOverlaySql = QStringLiteral("SELECT count(*) FROM config_overlay") + OverlayRowsWhere;
const QString UnsetOverlaySql = QStringLiteral("DELETE FROM config_overlay") + OverlayRowsWhere;

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
            for (int bucket = 0; bucket < int(stage.pendingAges.size()); ++bucket)
                stage.pendingAges[size_t(bucket)] = query.value(4 + bucket).toLongLong();
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
    query.bindValue(QStringLiteral(":byreason"), request.reason.has_value());
    // Never a null string: NULL would equal nothing, "" asks for the rows without a reason.
    const QString reason = request.reason.value_or(QString());
    query.bindValue(QStringLiteral(":reason"), reason.isNull() ? QStringLiteral("") : reason);
    query.bindValue(QStringLiteral(":limit"), request.limit);
    query.bindValue(QStringLiteral(":limit2"), request.limit);
    query.bindValue(QStringLiteral(":limit3"), request.limit);
    if (!query.exec() || !query.next()) {
        m_lastError = QStringLiteral("requeue failed: ") + query.lastError().text().trimmed();
        return std::nullopt;
    }
    return RequeueOutcome{query.value(0).toLongLong(), query.value(1).toBool()};
}

bool ControlStore::setOverlay(const OverlaySetting &setting)
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    if (!query.prepare(SetOverlaySql)) {
        m_lastError =
            QStringLiteral("preparing the config_overlay write failed: ") + query.lastError().text().trimmed();
        return false;
    }
    for (const char *name : {":section", ":section2", ":section3"})
        query.bindValue(QLatin1StringView(name), setting.section);
    for (const char *name : {":option", ":option2", ":option3"})
        query.bindValue(QLatin1StringView(name), setting.option);
    query.bindValue(QStringLiteral(":value"), setting.value.value_or(QString()));
    if (!query.exec()) {
        m_lastError = QStringLiteral("writing config_overlay (%1, %2) failed: ").arg(setting.section, setting.option)
            + query.lastError().text().trimmed();
        return false;
    }
    return true;
}

std::optional<bool> ControlStore::unsetOverlay(const OverlaySetting &setting)
{
    // Looked for first: the trigger notifies per statement, so a DELETE that
    // removes nothing would still reload the graph, retiring every worker,
    // for an `unset` that is refused.
    QSqlQuery count(QSqlDatabase::database(m_connectionName, false));
    const bool prepared = count.prepare(CountOverlaySql);
    count.bindValue(QStringLiteral(":section"), setting.section);
    count.bindValue(QStringLiteral(":option"), setting.option);
    if (!prepared || !count.exec() || !count.next()) {
        m_lastError = QStringLiteral("reading config_overlay (%1, %2) failed: ").arg(setting.section, setting.option)
            + count.lastError().text().trimmed();
        return std::nullopt;
    }
    if (count.value(0).toLongLong() == 0)
        return false;
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    if (!query.prepare(UnsetOverlaySql)) {
        m_lastError =
            QStringLiteral("preparing the config_overlay removal failed: ") + query.lastError().text().trimmed();
        return std::nullopt;
    }
    query.bindValue(QStringLiteral(":section"), setting.section);
    query.bindValue(QStringLiteral(":option"), setting.option);
    if (!query.exec()) {
        m_lastError = QStringLiteral("removing config_overlay (%1, %2) failed: ").arg(setting.section, setting.option)
            + query.lastError().text().trimmed();
        return std::nullopt;
    }
    return query.numRowsAffected() > 0;
}

} // namespace pepsi
