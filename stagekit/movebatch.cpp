// SPDX-License-Identifier: AGPL-3.0-or-later
#include "movebatch.h"

#include <QSet>
#include <utility>

namespace pepsi::stagekit {

namespace {

QByteArray parameter(int n) { return '$' + QByteArray::number(n); }

} // namespace

// Row i of the arrays is move i, and the WHERE clause is the single move's
// guard, row by row. "workqueue_id = ANY($1)" gives the planner the ids as an
// index condition: joined on the arrays alone it may walk every running row
// of workqueue_running, dead ones included, where a lookup per id is bounded.
QByteArray MoveBatch::statementFor(const StateUpdate &shape)
{
    const int extraParameters = int(shape.parameters().size());
    constexpr int FirstExtra = 5;
    QByteArray sql = "UPDATE workqueue AS w SET stage = m.next, status = m.status::workqueue_status, updated = now()";
    if (!shape.isEmpty())
        sql += ", state = " + shape.sqlExpression(FirstExtra, "m.p");
    sql += " FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[]";
    for (int j = 0; j < extraParameters; ++j)
        sql += ", " + parameter(FirstExtra + j) + "::text[]";
    sql += ") AS m(id, held, next, status";
    for (int j = 0; j < extraParameters; ++j)
        sql += ", p" + QByteArray::number(FirstExtra + j);
    return sql
        + ") WHERE w.workqueue_id = ANY($1::bigint[]) AND w.workqueue_id = m.id AND w.stage = m.held"
          " AND w.status = 'running' RETURNING w.workqueue_id";
}

Outcome notRunningAt(qint64 id, const QByteArray &stage)
{
    return Outcome::fail(1, "message " + QByteArray::number(id) + " is not running at stage " + stage);
}

Outcome MoveBatch::open(bool combine)
{
    m_open = true;
    m_combine = combine;
    m_begun = false;
    m_moves.clear();
    m_missed.clear();
    m_failedIds.clear();
    if (combine)
        return Outcome::ok();
    Outcome begun = begin();
    if (!begun.isOk())
        m_open = false;
    return begun;
}

Outcome MoveBatch::begin()
{
    const QueryResult begun = m_connection.command("BEGIN");
    m_begun = begun.ok();
    return begun.error;
}

bool MoveBatch::defer(Move move)
{
    if (!m_open || !m_combine)
        return false;
    // One UPDATE must not name a row twice: a second move of an id is
    // written after the first, on its own.
    for (const Move &waiting : std::as_const(m_moves)) {
        if (waiting.id == move.id)
            return false;
    }
    m_moves.append(std::move(move));
    return true;
}

Outcome MoveBatch::beforeStatement()
{
    if (!m_open || !m_combine)
        return Outcome::ok();
    if (!m_begun) {
        if (Outcome begun = begin(); !begun.isOk())
            return begun;
    }
    return flush();
}

bool MoveBatch::isUsable() const
{
    if (!m_connection.isUsable())
        return false;
    const PGTransactionStatusType status = PQtransactionStatus(m_connection.handle());
    return m_begun ? status == PQTRANS_INTRANS : status == PQTRANS_IDLE;
}

Outcome MoveBatch::finish()
{
    Outcome outcome = flush();
    if (outcome.isOk() && m_begun) {
        outcome = m_connection.command("COMMIT").error;
        m_begun = false; // committed, or rolled back by the failed COMMIT
    }
    if (!outcome.isOk())
        abandon();
    m_open = false;
    return outcome;
}

void MoveBatch::abandon()
{
    if (m_begun)
        (void)m_connection.command("ROLLBACK");
    m_begun = false;
    m_open = false;
    m_moves.clear();
}

bool MoveBatch::failedForOthers(qint64 id) const
{
    for (qint64 failed : m_failedIds) {
        if (failed != id)
            return true;
    }
    return false;
}

Outcome MoveBatch::flush()
{
    if (m_moves.isEmpty())
        return Outcome::ok();
    const QList<Move> moves = std::exchange(m_moves, {});

    // Grouped by shape, in the order each shape first appears.
    QList<QByteArray> shapes;
    QHash<QByteArray, QList<Move>> groups;
    for (const Move &move : moves) {
        const QByteArray shape = move.extra.isEmpty() ? QByteArray() : move.extra.sqlExpression(1);
        auto it = groups.find(shape);
        if (it == groups.end()) {
            shapes.append(shape);
            it = groups.insert(shape, {});
        }
        it->append(move);
    }
    // Several statements share a transaction, so that none commits alone.
    if (!m_begun && shapes.size() > 1) {
        if (Outcome begun = begin(); !begun.isOk())
            return begun;
    }
    for (const QByteArray &shape : std::as_const(shapes)) {
        if (Outcome written = writeGroup(groups.value(shape)); !written.isOk())
            return written;
    }
    return Outcome::ok();
}

Outcome MoveBatch::writeGroup(const QList<Move> &moves)
{
    const StateUpdate &shape = moves.constFirst().extra;
    const qsizetype extraParameters = shape.parameters().size();
    QList<QByteArray> ids, held, next, status;
    QList<QList<QByteArray>> extra(extraParameters);
    for (const Move &move : moves) {
        ids.append(QByteArray::number(move.id));
        held.append(move.held);
        next.append(move.next);
        status.append(move.status);
        const QList<QByteArray> values = move.extra.parameters();
        for (qsizetype j = 0; j < extraParameters; ++j)
            extra[j].append(values.at(j));
    }
    QList<QByteArray> parameters{'{' + ids.join(',') + '}', textArrayLiteral(held), textArrayLiteral(next),
                                 textArrayLiteral(status)};
    for (const QList<QByteArray> &column : std::as_const(extra))
        parameters.append(textArrayLiteral(column));

    const QueryResult result = m_connection.exec(statementFor(shape), parameters);
    if (!result.ok()) {
        m_failedIds.clear();
        for (const Move &move : moves)
            m_failedIds.append(move.id);
        return result.error;
    }
    QSet<qint64> matched;
    for (int i = 0; i < result.rows(); ++i)
        matched.insert(result.value(i, 0).toLongLong());
    for (const Move &move : moves) {
        if (!matched.contains(move.id))
            m_missed.insert(move.id, move.held);
    }
    return Outcome::ok();
}

} // namespace pepsi::stagekit
