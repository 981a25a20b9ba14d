// SPDX-License-Identifier: AGPL-3.0-or-later
#include "storage/statsstore.h"
#include "storage/queueconnection.h"

#include "storage/pgarray.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace pepsi {

namespace {

// A data-modifying CTE always runs, referenced or not: both tables change in
// one statement.
const QString AddStatsSql = QStringLiteral(R"sql(
WITH per_stage AS (
    INSERT INTO stage_stats AS s (stage, runs, failures, timeouts, crashes, busy_usec, updated)
    SELECT u.stage, u.runs, u.failures, u.timeouts, u.crashes, u.busy_usec, now()
      FROM unnest(:stages::text[], :runs::bigint[], :failures::bigint[], :timeouts::bigint[],
                  :crashes::bigint[], :busy::bigint[])
           AS u(stage, runs, failures, timeouts, crashes, busy_usec)
    ON CONFLICT (stage) DO UPDATE
       SET runs = s.runs + excluded.runs, failures = s.failures + excluded.failures,
           timeouts = s.timeouts + excluded.timeouts, crashes = s.crashes + excluded.crashes,
           busy_usec = s.busy_usec + excluded.busy_usec, updated = now()
)
UPDATE dispatch_stats
   SET stage_runs = stage_runs + :stage_runs, messages = messages + :messages, updated = now()
)sql");

} // namespace

StatsStore::StatsStore(QueueConnection &connection)
    : m_connection(connection)
{ }

bool StatsStore::add(const StatsDelta &delta)
{
    QStringList stages;
    QList<qint64> runs, failures, timeouts, crashes, busy;
    for (auto it = delta.stages.cbegin(); it != delta.stages.cend(); ++it) {
        stages << it.key();
        runs << it->runs;
        failures << it->failures;
        timeouts << it->timeouts;
        crashes << it->crashes;
        busy << it->busyUsec;
    }
    QSqlQuery query(m_connection.database());
    if (!query.prepare(AddStatsSql)) {
        m_lastError = QStringLiteral("writing statistics failed: ") + query.lastError().text().trimmed();
        return false;
    }
    query.bindValue(QStringLiteral(":stages"), pgTextArray(stages));
    query.bindValue(QStringLiteral(":runs"), pgIntArray(runs));
    query.bindValue(QStringLiteral(":failures"), pgIntArray(failures));
    query.bindValue(QStringLiteral(":timeouts"), pgIntArray(timeouts));
    query.bindValue(QStringLiteral(":crashes"), pgIntArray(crashes));
    query.bindValue(QStringLiteral(":busy"), pgIntArray(busy));
    query.bindValue(QStringLiteral(":stage_runs"), delta.stageRuns);
    query.bindValue(QStringLiteral(":messages"), delta.messages);
    if (query.exec())
        return true;
    m_lastError = QStringLiteral("writing statistics failed: ") + query.lastError().text().trimmed();
    return false;
}

} // namespace pepsi
