// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "model/dispatchboard.h"
#include "model/dispatchport.h"
#include "model/operatorqueries.h"

#include <QStringList>
#include <functional>

// The dispatcher as the control socket sees it, scripted by the test: the
// board's picture read afresh from the fixed snapshots below at every
// board().picture(), the port's calls answered on this object's thread (the
// test's "dispatch loop") and recorded, the queue counts answered from
// m_queues, uncached, on the asker's thread, a requeue's statement on the
// loop's, and the operator's reads at once from m_messages and
// m_messageDetails.
class FakeDispatch : public pepsi::DispatchPort, public pepsi::OperatorQueries
{
    Q_OBJECT

public:
    FakeDispatch();

    // What a ControlServer over this fake reads.
    const pepsi::DispatchBoard &board() const { return m_board; }
    // One moment: m_betweenReads runs before it.
    pepsi::DispatchPicture picture() const { return read(); }
    pepsi::DaemonInfo info() const { return read().info; }
    pepsi::StageGraph graph() const { return read().graph; }
    QList<pepsi::PoolSnapshot> pools() const { return read().pools; }
    QList<pepsi::WorkerSnapshot> workers() const { return read().workers; }
    pepsi::StatsSnapshot stats() const { return read().stats; }

    // m_messages filtered and paged as the daemon's query would; m_messageDetails by id.
    void messages(const pepsi::MessagesRequest &request, QObject *asker,
                  pepsi::Answer<pepsi::MessagePage> answer) override;
    void message(qint64 id, QObject *asker, pepsi::Answer<pepsi::MessageDetail> answer) override;
    // Counts answer at once, as a warm cache would (unless m_deferAnswers).
    void queueCounts(Freshness freshness, QObject *asker, pepsi::Answer<pepsi::QueueCounts> answer) override;
    // Moves rows as m_requeueMovesRows says; the call is recorded once the loop hears of it.
    void requeue(const pepsi::RequeueRequest &request, QObject *asker,
                 pepsi::Answer<pepsi::RequeueOutcome> answer) override;

    // m_workers replaced by `perStage` running workers at each of enrich and
    // score, each holding `idsEach` ids: a pool whose replies pass the line.
    void setBusyWorkers(int perStage, int idsEach);

    void emitEvent(const QString &name, const QJsonObject &fields)
    {
        Q_EMIT happened(pepsi::DispatchEvent{name, fields});
    }

    // Called before every read of the snapshots above: a test that changes
    // them here shows which reply reads two moments.
    std::function<void()> m_betweenReads;
    pepsi::DaemonInfo m_info;
    pepsi::StageGraph m_graph;
    pepsi::DispatchSettings m_settings;
    QSet<QString> m_drained;
    QList<pepsi::PoolSnapshot> m_pools;
    QList<pepsi::WorkerSnapshot> m_workers;
    pepsi::StatsSnapshot m_stats;
    pepsi::QueueCounts m_queues;
    QString m_queuesError; // non-empty: the queue counts fail
    QString m_drainError;  // non-empty: a drain fails with it
    QList<pepsi::MessageRow> m_messages;
    QMap<qint64, pepsi::MessageDetail> m_messageDetails;
    QStringList m_calls; // "drain enrich 0", "requeue enrich failed 3 ids=1,2 limit=1000 [reason=R]", "set stage-score
                         // PARALLELISM 8 0"
    // true: a requeue moves the matching rows of m_messages to pending and
    // counts them; false: it moves none and answers 3.
    bool m_requeueMovesRows = false;
    int m_queueQueries = 0;
    // true: the queue counts and the loop's answer to a requeue keep their
    // answers until releaseAnswers(), as the daemon answers them later; an
    // asker gone by then gets none.
    bool m_deferAnswers = false;
    void releaseAnswers();
    QList<std::function<void()>> m_deferred;

protected:
    // The admin calls answer at once (the requeue's unless m_deferAnswers).
    void reloadNow(uint uid, pepsi::Answer<pepsi::ReloadSnapshot> answer) override;
    void setDrained(const QString &stage, bool drained, uint uid, pepsi::Answer<bool> answer) override;
    void rowsRequeued(const pepsi::RequeueRequest &request, const pepsi::RequeueOutcome &outcome, uint uid,
                      pepsi::Answer<bool> answer) override;
    void writeSetting(const pepsi::OverlaySetting &setting, uint uid, pepsi::Answer<bool> answer) override;

private:
    pepsi::DispatchPicture read() const;

    pepsi::DispatchBoard m_board{-1}; // asks for a picture at every read: read() at once
};
