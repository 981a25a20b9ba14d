// SPDX-License-Identifier: AGPL-3.0-or-later
#include "storage/queuestore.h"

#include "db/database.h"
#include "model/logcategories.h"
#include "protocol/statusline.h"
#include "storage/pgarray.h"

#include <QSqlError>
#include <QVariant>
#include <libpq-fe.h>

namespace pepsi {

// Resume due paused rows, claim for every stage with spare capacity, and find
// the next paused deadline, in one round trip. This dispatcher is the only
// pending -> running writer (advisory lock), but an operator may hold a row
// lock (an open transaction): both picks skip locked rows, so one such row
// stalls nothing, and it is taken by the first round after the lock goes.
// Each stage is walked from its floor (:floors, the lowest id that may still
// be pending there, see ClaimFloors): the entries below it are rows claimed
// long ago, which a snapshot held elsewhere keeps in the index, and walking
// them cost a round a buffer visit each. The round says where the next walk
// may start: per stage, the lowest pending id it saw and did not claim.
// Rows are (kind, id, stage, n):
//   c  a claimed row: its id, stage and claim token;
//   r  rows resumed at a stage: the lowest id and how many;
//   f  a stage asked for: the lowest pending id from its floor left
//      unclaimed (locked by another session, or past the cap), NULL if none;
//   s  the summary: ms to the next paused row, due paused rows left locked.
// No quote characters in comments inside the SQL: the placeholder parser of
// QSqlQuery takes one for the start of a literal and leaves :names unbound.
const QString ClaimRoundSql = QStringLiteral(R"sql(
WITH resumed AS (
    UPDATE workqueue SET status = 'pending', updated = now()
     WHERE workqueue_id = ANY (ARRAY(
            SELECT r.workqueue_id FROM workqueue r
             WHERE r.status = 'paused' AND (r.timeout IS NULL OR r.timeout <= now())
               FOR UPDATE SKIP LOCKED))
    RETURNING workqueue_id, stage
), claimed AS (
    -- The ids are picked first (an InitPlan run once, per stage through the
    -- partial index from the floor, stopping at the cap) and then updated
    -- through the primary key. Two forms below look odd on purpose; both keep
    -- the plan right when the statistics are stale (taken while a burst was
    -- still pending):
    --  * the stage is a range of one, so that (stage, workqueue_id) is an
    --    ordering only the partial index gives; with a plain equality the
    --    planner may walk the primary key through every finished row instead;
    --  * the status re-check is written as text: the plain form matches the
    --    predicate of the partial index, and the planner may then scan that
    --    whole index, dead entries included, for the outer update.
    UPDATE workqueue w
       SET status = 'running', claims = w.claims + 1, updated = now()
     WHERE w.workqueue_id = ANY (ARRAY(
            SELECT p.workqueue_id
              FROM unnest(:stages::text[], :caps::integer[], :floors::bigint[]) AS d(stage, cap, from_id)
             CROSS JOIN LATERAL (
                    SELECT q.workqueue_id FROM workqueue q
                     WHERE q.status = 'pending' AND q.stage >= d.stage AND q.stage <= d.stage
                       AND q.workqueue_id >= d.from_id
                     ORDER BY q.stage, q.workqueue_id
                     LIMIT d.cap
                       FOR UPDATE SKIP LOCKED) AS p))
       AND w.status::text = 'pending'
    RETURNING w.workqueue_id, w.stage, w.claims
)
SELECT 'c', workqueue_id, stage, claims::bigint FROM claimed
UNION ALL
SELECT 'r', min(workqueue_id), stage, count(*) FROM resumed GROUP BY stage
UNION ALL
-- The claimed rows are still pending in this statement: passed over by id.
SELECT 'f', (SELECT q.workqueue_id FROM workqueue q
              WHERE q.status = 'pending' AND q.stage >= d.stage AND q.stage <= d.stage
                AND q.workqueue_id >= d.from_id
                AND q.workqueue_id <> ALL (ARRAY(SELECT c.workqueue_id FROM claimed c))
              ORDER BY q.stage, q.workqueue_id
              LIMIT 1),
       d.stage, NULL
  FROM unnest(:stages::text[], :floors::bigint[]) AS d(stage, from_id)
UNION ALL
SELECT 's',
       (SELECT ceil(extract(epoch FROM min(timeout) - now()) * 1000)::bigint
          FROM workqueue WHERE status = 'paused' AND timeout > now()),
       NULL,
       -- Due paused rows left paused: another session holds a lock on them.
       -- Nothing announces the lock going away, so the dispatcher looks again soon.
       (SELECT count(*) FROM workqueue r
         WHERE r.status = 'paused' AND (r.timeout IS NULL OR r.timeout <= now()))
       - (SELECT count(*) FROM resumed)
)sql");

namespace {

// The guard: the row is still running under this claim. Only a claim bumps
// `claims`, so a row the stage already advanced (pending at the next stage, or
// claimed again since) never matches. The stage is deliberately not matched: a
// worker that fuses a successor keeps the row running at that successor.
const QString SettleSql = QStringLiteral(R"sql(
UPDATE workqueue w
   SET status = u.status::workqueue_status,
       timeout = CASE WHEN u.status = 'paused'
                      THEN now() + u.pause_ms * interval '1 millisecond' ELSE w.timeout END,
       state = CASE WHEN u.reason IS NULL THEN w.state
                    ELSE jsonb_set(w.state, '{dispatch_error}', to_jsonb(u.reason)) END,
       updated = now()
  FROM unnest(:ids::bigint[], :claims::integer[], :statuses::text[], :reasons::text[], :pauses::bigint[])
       AS u(id, claims, status, reason, pause_ms)
 WHERE w.workqueue_id = u.id AND w.claims = u.claims AND w.status = 'running'
)sql");

const QString ResetOrphansExceptSql =
    QStringLiteral("UPDATE workqueue SET status = 'pending', updated = now() "
                   "WHERE status = 'running' AND workqueue_id <> ALL (:held::bigint[])");

QString statusName(Settlement::Outcome outcome)
{
    switch (outcome) {
    case Settlement::Outcome::Requeue:
        return QStringLiteral("pending");
    case Settlement::Outcome::Fail:
        return QStringLiteral("failed");
    case Settlement::Outcome::Timeout:
        return QStringLiteral("timeout");
    case Settlement::Outcome::Pause:
        return QStringLiteral("paused");
    }
    return {};
}

qint64 bigint(const PGresult *result, int row, int column)
{
    return QByteArrayView(PQgetvalue(result, row, column), PQgetlength(result, row, column)).toLongLong();
}

} // namespace

QList<QByteArray> claimValues(const QList<StageDemand> &demands)
{
    QStringList stages;
    QByteArray caps = "{", floors = "{";
    for (const StageDemand &demand : demands) {
        if (!stages.isEmpty()) {
            caps += ',';
            floors += ',';
        }
        stages << demand.stage;
        caps += QByteArray::number(demand.capacity);
        floors += QByteArray::number(demand.floor);
    }
    return {pgTextArray(stages).toUtf8(), caps + '}', floors + '}'};
}

QueueStore::QueueStore(QueueConnection &connection)
    : m_connection(connection)
    , m_claim("pepsi_claim_round", ClaimRoundSql,
              {QStringLiteral(":stages"), QStringLiteral(":caps"), QStringLiteral(":floors")})
{ }

QueueStore::~QueueStore() = default;

void QueueStore::forgetStatements()
{
    // A prepared QSqlQuery deallocates its statement on the connection it was
    // prepared on: it must go while that connection is still open.
    m_claim.forget();
    m_settle.reset();
}

bool QueueStore::run(QSqlQuery &query, const char *what)
{
    // Every statement here is a single autocommit statement, so re-running one
    // that lost a serialization or deadlock race is safe. Under READ COMMITTED
    // with one writer per row these should not happen; this is cheap insurance.
    constexpr int MaxAttempts = 3;
    for (int attempt = 1;; ++attempt) {
        if (query.exec())
            return true;
        const QSqlError error = query.lastError();
        const QString code = error.nativeErrorCode();
        if ((code == u"40001" || code == u"40P01") && attempt < MaxAttempts) {
            qCDebug(lcStore) << what << "hit" << code << "; running it again";
            continue;
        }
        m_lastError = QStringLiteral("%1 failed: %2")
                          .arg(QLatin1String(what),
                               error.type() == QSqlError::NoError ? QStringLiteral("the database connection is closed")
                                                                  : error.text().trimmed());
        return false;
    }
}

std::optional<ClaimRound> QueueStore::claimRound(const QList<StageDemand> &demands)
{
    // As run() does for QSqlQuery: one autocommit statement, safe to run again.
    constexpr int MaxAttempts = 3;
    const QList<QByteArray> values = claimValues(demands);
    PgResult rows;
    for (int attempt = 1; !rows; ++attempt) {
        rows = m_claim.exec(m_connection, values);
        const QByteArray &code = m_claim.sqlState();
        if (!rows && (code == "40001" || code == "40P01") && attempt < MaxAttempts) {
            qCDebug(lcStore) << "the claim round hit" << code << "; running it again";
            continue;
        }
        if (!rows) {
            m_lastError = QStringLiteral("the claim round failed: ") + m_claim.error();
            return std::nullopt;
        }
    }
    const PGresult *result = rows.get();
    const int count = PQntuples(result);
    ClaimRound round;
    round.claimed.reserve(count);
    QHash<QString, int> claimedAt;
    // Rows come grouped by stage: one QString per run of the same name.
    QString stage;
    QByteArrayView stageBytes;
    for (int row = 0; row < count; ++row) {
        const char kind = *PQgetvalue(result, row, 0);
        const QByteArrayView name(PQgetvalue(result, row, 2), PQgetlength(result, row, 2));
        const bool noStage = PQgetisnull(result, row, 2) != 0;
        if (name != stageBytes || stage.isNull() != noStage) {
            stage = noStage ? QString() : QString::fromUtf8(name);
            stageBytes = name;
        }
        const bool hasId = PQgetisnull(result, row, 1) == 0;
        switch (kind) {
        case 'c':
            round.claimed.append({Ticket{bigint(result, row, 1), int(bigint(result, row, 3))}, stage});
            ++claimedAt[stage];
            break;
        case 'r':
            round.resumedFrom.insert(stage, bigint(result, row, 1));
            round.resumed += bigint(result, row, 3);
            break;
        case 'f':
            if (hasId)
                round.unclaimedFrom.insert(stage, bigint(result, row, 1));
            break;
        case 's':
            if (hasId)
                round.nextPausedInMs = bigint(result, row, 1);
            round.skippedLocked += bigint(result, row, 3);
            break;
        default:
            break;
        }
    }
    // A stage that got less than it asked for while a pending row is left
    // unclaimed: another session holds a lock on that row.
    for (const StageDemand &demand : demands) {
        if (claimedAt.value(demand.stage) < demand.capacity && round.unclaimedFrom.contains(demand.stage))
            ++round.skippedLocked;
    }
    return round;
}

std::optional<qint64> QueueStore::settle(const Settlements &settlements)
{
    if (settlements.isEmpty())
        return 0;
    if (!m_settle) {
        m_settle = std::make_unique<QSqlQuery>(m_connection.database());
        if (!m_settle->prepare(SettleSql)) {
            m_lastError = QStringLiteral("preparing the settlement failed: ") + m_settle->lastError().text();
            m_settle.reset();
            return std::nullopt;
        }
    }
    qint64 changed = 0;
    if (settleSplitting(settlements, &changed) != SettleStep::Written)
        return std::nullopt;
    return changed;
}

QueueStore::SettleStep QueueStore::settleBatch(const Settlements &settlements, qint64 *changed)
{
    QList<qint64> ids, claims, pauses;
    QStringList statuses, reasons;
    for (const Settlement &s : settlements) {
        ids << s.ticket.id;
        claims << s.ticket.claim;
        statuses << statusName(s.outcome);
        reasons << (s.reason.isEmpty() ? QString() : s.reason);
        pauses << s.pauseMs;
    }
    m_settle->bindValue(QStringLiteral(":ids"), pgIntArray(ids));
    m_settle->bindValue(QStringLiteral(":claims"), pgIntArray(claims));
    m_settle->bindValue(QStringLiteral(":statuses"), pgTextArray(statuses));
    m_settle->bindValue(QStringLiteral(":reasons"), pgTextArray(reasons));
    m_settle->bindValue(QStringLiteral(":pauses"), pgIntArray(pauses));
    if (run(*m_settle, "writing message outcomes")) {
        *changed += m_settle->numRowsAffected();
        m_settle->finish();
        return SettleStep::Written;
    }
    const QString code = m_settle->lastError().nativeErrorCode();
    // Worth trying again later as it is: the connection is gone, or the
    // statement ran into a timeout, a lock or a shortage on the server.
    const bool passing = code.isEmpty() || code.startsWith(u"08") || code.startsWith(u"57") || code.startsWith(u"53")
        || code == u"55P03" || code == u"40001" || code == u"40P01";
    if (passing || !m_connection.answers())
        return SettleStep::TryLater;
    return SettleStep::Rejected;
}

QueueStore::SettleStep QueueStore::settleSplitting(const Settlements &settlements, qint64 *changed)
{
    const SettleStep step = settleBatch(settlements, changed);
    if (step != SettleStep::Rejected)
        return step;
    // The server refused this batch on a live connection: something in one
    // entry it cannot take. Write the rest; keeping the batch would refuse
    // every later outcome with it.
    if (settlements.size() > 1) {
        const qsizetype half = settlements.size() / 2;
        for (const Settlements &part : {settlements.first(half), settlements.sliced(half)}) {
            if (settleSplitting(part, changed) == SettleStep::TryLater)
                return SettleStep::TryLater;
        }
        return SettleStep::Written;
    }
    const Settlement &refused = settlements.constFirst();
    const QString why = m_lastError;
    Settlement plain = refused;
    plain.reason = QStringLiteral("the dispatcher could not store the reason of this outcome");
    const SettleStep retried = refused.reason.isEmpty() ? SettleStep::Rejected : settleBatch({plain}, changed);
    if (retried == SettleStep::TryLater)
        return retried;
    if (retried == SettleStep::Written)
        qCWarning(lcStore).noquote() << "message" << refused.ticket.id << "outcome" << statusName(refused.outcome)
                                     << "written without its reason, which the database refused:" << why
                                     << "; the reason was:" << quoteForLog(refused.reason.toUtf8());
    else
        qCCritical(lcStore).noquote() << "message" << refused.ticket.id << "outcome" << statusName(refused.outcome)
                                      << "cannot be written and is dropped:" << why
                                      << "; the row stays running until the next start-up reset";
    return SettleStep::Written;
}

std::optional<qint64> QueueStore::resetOrphansExcept(const QList<qint64> &held)
{
    QSqlQuery query(m_connection.database());
    if (!query.prepare(ResetOrphansExceptSql)) {
        m_lastError =
            QStringLiteral("resetting running rows no worker holds failed: ") + query.lastError().text().trimmed();
        return std::nullopt;
    }
    query.bindValue(QStringLiteral(":held"), pgIntArray(held));
    if (!run(query, "resetting running rows no worker holds"))
        return std::nullopt;
    return query.numRowsAffected();
}

} // namespace pepsi
