// SPDX-License-Identifier: AGPL-3.0-or-later
#include "queueprobe.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

using namespace Qt::StringLiterals;

namespace {

const QString RowSql = u"SELECT workqueue_id, stage, status::text, state->>'dispatch_error', state::text, "
                       "coalesce(extract(epoch FROM updated - timeout) * 1000, 0)::float8 "
                       "FROM workqueue WHERE %1 ORDER BY workqueue_id"_s;

QueueRow fromQuery(const QSqlQuery &q)
{
    QueueRow row;
    row.id = q.value(0).toLongLong();
    row.stage = q.value(1).toString();
    row.status = q.value(2).toString();
    if (!q.isNull(3))
        row.dispatchError = q.value(3).toString();
    row.state = QJsonDocument::fromJson(q.value(4).toString().toUtf8()).object();
    row.updatedMinusTimeoutMs = q.value(5).toDouble();
    return row;
}

} // namespace

int QueueRow::runs(const QString &at) const { return state.value(u"runs"_s).toObject().value(at).toInt(); }

qint64 QueueRow::pid(const QString &at) const { return state.value(u"pids"_s).toObject().value(at).toInteger(); }

QString QueueRow::describe() const
{
    return u"id %1 at %2 %3 (dispatch_error: %4) runs %5"_s.arg(id).arg(
        stage, status, dispatchError ? u'"' + *dispatchError + u'"' : u"none"_s,
        QString::fromUtf8(QJsonDocument(state.value(u"runs"_s).toObject()).toJson(QJsonDocument::Compact)));
}

QueueProbe::QueueProbe(QSqlDatabase db)
    : m_db(std::move(db))
{ }

QList<qint64> QueueProbe::insertModes(const QString &stage, const QStringList &modes)
{
    QList<QJsonObject> fakes;
    fakes.reserve(modes.size());
    for (const QString &mode : modes)
        fakes.append(mode.isEmpty() ? QJsonObject() : QJsonObject{{stage, mode}});
    return insertFakes(stage, fakes);
}

QList<qint64> QueueProbe::insertFakes(const QString &stage, const QList<QJsonObject> &fakes)
{
    QJsonArray states;
    for (const QJsonObject &fake : fakes)
        states.append(fake.isEmpty() ? QJsonObject() : QJsonObject{{u"fake"_s, fake}});
    QSqlQuery q(m_db);
    q.prepare(u"INSERT INTO workqueue (stage, state) "
              "SELECT :stage, e.value FROM jsonb_array_elements(:states::jsonb) WITH ORDINALITY AS e(value, n) "
              "ORDER BY e.n RETURNING workqueue_id"_s);
    q.bindValue(u":stage"_s, stage);
    q.bindValue(u":states"_s, QString::fromUtf8(QJsonDocument(states).toJson(QJsonDocument::Compact)));
    QList<qint64> ids;
    if (!q.exec()) {
        qWarning("inserting %lld messages at %s failed: %s", qint64(fakes.size()), qPrintable(stage),
                 qPrintable(q.lastError().text()));
        return ids;
    }
    while (q.next())
        ids.append(q.value(0).toLongLong());
    return ids;
}

QList<qint64> QueueProbe::insert(const QString &stage, int count, const QJsonObject &fake)
{
    return insertFakes(stage, QList<QJsonObject>(count, fake));
}

qint64 QueueProbe::scalar(const QString &sql)
{
    QSqlQuery q(m_db);
    if (!q.exec(sql) || !q.next()) {
        qWarning("%s failed: %s", qPrintable(sql), qPrintable(q.lastError().text()));
        return -1;
    }
    return q.value(0).toLongLong();
}

QString QueueProbe::text(const QString &sql)
{
    QSqlQuery q(m_db);
    if (!q.exec(sql) || !q.next())
        return {};
    return q.value(0).toString();
}

QString QueueProbe::stageStats(const QString &stage)
{
    return text(
        u"SELECT concat_ws(' ', runs, failures, timeouts, crashes) FROM stage_stats WHERE stage = '%1'"_s.arg(stage));
}

QString QueueProbe::dispatchStats()
{
    return text(u"SELECT concat_ws(' ', stage_runs, messages) FROM dispatch_stats"_s);
}

int QueueProbe::count(const QString &where) { return int(scalar(u"SELECT count(*) FROM workqueue WHERE "_s + where)); }

std::optional<QueueRow> QueueProbe::row(qint64 id)
{
    const QList<QueueRow> found = rows(u"workqueue_id = %1"_s.arg(id));
    if (found.isEmpty())
        return std::nullopt;
    return found.constFirst();
}

QList<QueueRow> QueueProbe::rows(const QString &where)
{
    QList<QueueRow> result;
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    if (!q.exec(RowSql.arg(where))) {
        qWarning("reading workqueue rows (%s) failed: %s", qPrintable(where), qPrintable(q.lastError().text()));
        return result;
    }
    while (q.next())
        result.append(fromQuery(q));
    return result;
}

void QueueProbe::reconnect()
{
    // After a server restart isOpen() may still say true until a statement fails.
    QSqlQuery ping(m_db);
    if (m_db.isOpen() && ping.exec(u"SELECT 1"_s))
        return;
    m_db.close();
    if (!m_db.open())
        qWarning("reopening %s failed: %s", qPrintable(m_db.connectionName()), qPrintable(m_db.lastError().text()));
}
