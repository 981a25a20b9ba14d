// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QList>
#include <QSqlDatabase>
#include <QString>
#include <QStringList>
#include <optional>

// One workqueue row as a test looks at it after the fact.
struct QueueRow
{
    qint64 id = 0;
    QString stage;
    QString status;
    std::optional<QString> dispatchError; // state.dispatch_error; nullopt: absent
    QJsonObject state;
    double updatedMinusTimeoutMs = 0; // updated - timeout; 0 without a timeout

    // state.runs.<stage> (the fake worker's writes at that stage); 0 when absent
    int runs(const QString &stage) const;
    // state.pids.<stage>: the worker that wrote last at that stage; 0 when absent
    qint64 pid(const QString &stage) const;
    // "id 7 at b done (dispatch_error: none) runs {a:1,b:1}": for failure messages
    QString describe() const;
};

// Puts scripted messages into the workqueue and reads them back, for tests
// that drive the daemon with the fake worker. Every insert is one statement:
// one NOTIFY, consecutive ids in the given order.
class QueueProbe
{
public:
    explicit QueueProbe(QSqlDatabase db);

    // One row per mode at `stage`, state.fake.<stage> = mode ("" leaves state
    // empty); the ids in the same order. Empty on failure (with a test warning).
    QList<qint64> insertModes(const QString &stage, const QStringList &modes);
    // One row per object as its whole state.fake (stage -> mode).
    QList<qint64> insertFakes(const QString &stage, const QList<QJsonObject> &fakes);
    // `count` rows with the same state.fake.
    QList<qint64> insert(const QString &stage, int count, const QJsonObject &fake = {});

    // count(*) WHERE where; -1 (with a warning) when the statement fails.
    int count(const QString &where);
    qint64 scalar(const QString &sql);
    // The first column of the first row as text; empty when there is none.
    QString text(const QString &sql);
    // "runs failures timeouts crashes" of stage_stats; empty without a row.
    QString stageStats(const QString &stage);
    // "stage_runs messages" of dispatch_stats.
    QString dispatchStats();
    std::optional<QueueRow> row(qint64 id);
    // Ordered by id; `where` is an SQL condition.
    QList<QueueRow> rows(const QString &where = QStringLiteral("true"));

    // A connection that the server dropped (a restart) is opened again.
    void reconnect();

private:
    QSqlDatabase m_db;
};
