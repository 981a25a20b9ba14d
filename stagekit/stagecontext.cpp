// SPDX-License-Identifier: AGPL-3.0-or-later
#include "stagecontext.h"

namespace pepsi::stagekit {

namespace {

// $1 id, $2 the stage that holds the row: the guard every stage write carries
constexpr char Guard[] = " WHERE workqueue_id = $1 AND stage = $2 AND status = 'running'";

} // namespace

StageContext::StageContext(PgConnection &connection, Configuration configuration, StageGraph graph, QString stage,
                           MoveBatch *batch)
    : m_connection(connection)
    , m_batch(batch)
    , m_configuration(std::move(configuration))
    , m_graph(std::move(graph))
    , m_stage(std::move(stage))
    , m_stageConfig(m_graph.stage(m_stage))
{
    Q_ASSERT_X(m_stageConfig, "StageContext", "the caller checks that the stage is in the graph");
}

QueryResult StageContext::exec(const QByteArray &sql, const QList<QByteArray> &parameters)
{
    if (m_batch) {
        if (Outcome before = m_batch->beforeStatement(); !before.isOk())
            return {nullptr, std::move(before)};
    }
    return m_connection.exec(sql, parameters);
}

Outcome StageContext::advance(qint64 id, const StateUpdate &extra)
{
    if (m_stageConfig->next.isEmpty())
        return move(id, m_stage, "done", extra);
    return advanceTo(id, m_stageConfig->next.constFirst(), extra);
}

Outcome StageContext::advanceTo(qint64 id, const QString &next, const StateUpdate &extra)
{
    if (!m_stageConfig->next.contains(next)) {
        return Outcome::fail(1,
                             "stage " + m_stage.toUtf8() + " cannot advance message " + QByteArray::number(id) + " to "
                                 + next.toUtf8() + ": not in its NEXT ("
                                 + m_stageConfig->next.join(QLatin1Char(' ')).toUtf8() + ')');
    }
    if (!fusesInto(next))
        return move(id, next, "pending", extra);
    // Still running, now at `next`: no claim can take it, and the dispatcher's
    // guard (claim token and status, not stage) still covers it.
    Outcome outcome = move(id, next, "running", extra);
    if (outcome.isOk())
        m_fusedStage = next;
    return outcome;
}

bool StageContext::fusesInto(const QString &next) const
{
    const StageConfig *successor = m_graph.stage(next);
    return successor && successor->fuse && successor->name != m_stage && successor->program == m_stageConfig->program;
}

Outcome StageContext::finish(qint64 id, Final status, const StateUpdate &extra)
{
    return move(id, m_stage, status == Final::Done ? "done" : "failed", extra);
}

Outcome StageContext::pause(qint64 id, std::chrono::milliseconds delay, const QByteArray &reason,
                            const StateUpdate &extra)
{
    StateUpdate update = extra;
    update.set({QStringLiteral("pause_reason")}, QString::fromUtf8(reason));
    const QByteArray sql =
        "UPDATE workqueue SET status = 'paused', timeout = now() + $3::bigint * interval '1 millisecond', "
        "updated = now(), state = "
        + update.sqlExpression(4) + Guard;
    return guarded(
        id, sql,
        QList<QByteArray>{QByteArray::number(id), m_stage.toUtf8(), QByteArray::number(qint64(delay.count()))}
            + update.parameters());
}

Outcome StageContext::move(qint64 id, const QString &stage, const char *status, const StateUpdate &extra)
{
    // A move into a fused stage is written now: its handler runs next, on the row.
    if (m_batch && qstrcmp(status, "running") != 0
        && m_batch->defer({id, m_stage.toUtf8(), stage.toUtf8(), QByteArray(status), extra})) {
        return Outcome::ok();
    }
    QByteArray sql = "UPDATE workqueue SET stage = $3, status = $4::workqueue_status, updated = now()";
    if (!extra.isEmpty())
        sql += ", state = " + extra.sqlExpression(5);
    sql += Guard;
    return guarded(id, sql,
                   QList<QByteArray>{QByteArray::number(id), m_stage.toUtf8(), stage.toUtf8(), QByteArray(status)}
                       + extra.parameters());
}

Outcome StageContext::guarded(qint64 id, const QByteArray &sql, const QList<QByteArray> &parameters)
{
    const QueryResult result = exec(sql, parameters);
    if (!result.ok())
        return result.error;
    if (result.affectedRows() == 0)
        return notRunningAt(id, m_stage.toUtf8());
    return Outcome::ok();
}

} // namespace pepsi::stagekit
