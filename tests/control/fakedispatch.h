// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "model/dispatchview.h"

#include <QPointer>
#include <QStringList>
#include <functional>

// The dispatcher's side of DispatchView / DispatchControl, scripted by the
// test: fixed snapshots, and a record of every admin call.
class FakeDispatch : public pepsi::DispatchView, public pepsi::DispatchControl
{
    Q_OBJECT

public:
    FakeDispatch();

    // Each read is one moment: m_betweenReads runs before it.
    pepsi::DaemonInfo info() const override { return read().info; }
    pepsi::StageGraph graph() const override { return read().graph; }
    pepsi::DispatchSettings settings() const override { return read().settings; }
    bool isDrained(const QString &stage) const override { return read().isDrained(stage); }
    QList<pepsi::PoolSnapshot> pools() const override { return read().pools; }
    QList<pepsi::WorkerSnapshot> workers() const override { return read().workers; }
    pepsi::StatsSnapshot stats() const override { return read().stats; }
    pepsi::DispatchPicture picture() const override { return read(); }
    // Both answer at once, as a warm cache would.
    void queueCounts(QObject *context, Freshness freshness, pepsi::Answer<pepsi::QueueCounts> answer) override;
    // m_messages filtered and paged as the daemon's query would; m_messageDetails by id.
    void messages(const pepsi::MessagesRequest &request, QObject *context,
                  pepsi::Answer<pepsi::MessagePage> answer) override;
    void message(qint64 id, QObject *context, pepsi::Answer<pepsi::MessageDetail> answer) override;

    // The admin calls answer at once.
    void reload(uint uid, QObject *context, pepsi::Answer<QStringList> answer) override;
    void drain(const QString &stage, uint uid, QObject *context, pepsi::Answer<bool> answer) override;
    void resume(const QString &stage, uint uid, QObject *context, pepsi::Answer<bool> answer) override;
    void requeue(const pepsi::RequeueRequest &request, uint uid, QObject *context,
                 pepsi::Answer<pepsi::RequeueOutcome> answer) override;
    void set(const pepsi::OverlaySetting &setting, uint uid, QObject *context, pepsi::Answer<bool> answer) override;

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
    QString m_queuesError; // non-empty: queueCounts() fails
    QString m_drainError;  // non-empty: drain() fails with it
    QList<pepsi::MessageRow> m_messages;
    QMap<qint64, pepsi::MessageDetail> m_messageDetails;
    QStringList
        m_calls; // "drain enrich 0", "requeue enrich failed 3 ids=1,2 limit=1000", "set stage-score PARALLELISM 8 0"
    // true: requeue() moves the matching rows of m_messages to pending and
    // counts them; false: it moves none and answers 3.
    bool m_requeueMovesRows = false;
    int m_queueQueries = 0;
    // true: queueCounts() keeps its answers until releaseAnswers(), as the
    // daemon's operator thread answers later; an asker gone by then gets none.
    bool m_deferAnswers = false;
    void releaseAnswers();
    QList<std::function<void()>> m_deferred;

private:
    pepsi::DispatchPicture read() const;
};
