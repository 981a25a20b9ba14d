// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "service/servicenotifier.h"

#include <QObject>
#include <memory>

namespace pepsi {

class DatabaseSession;
class Dispatcher;
class PipelineApplier;

// The Dispatcher's life, which drives it: coming up (the database session,
// or as a standby the wait for the lock; the overlay; the orphan reset; the
// first pipeline), coming back after an outage, SIGHUP, and the one way out:
// every reason to end (a signal, a bad reload, the lock taken by another
// dispatcher, a database it cannot use) goes through stop(), where the first
// reason wins. It owns the database session and what systemd hears
// (ServiceNotifier), and decides every Lifecycle change.
//
// It drives rather than runs: the Dispatcher it belongs to does the rounds,
// and keeps the Lifecycle value those read; this class moves it through its
// private steps (attach the session, serve, stop the rounds, finish them)
// and never touches its pools, writers or timers itself. The pipeline it
// starts and reloads is the PipelineApplier's.
class DispatchLifecycle : public QObject
{
    Q_OBJECT

public:
    DispatchLifecycle(Dispatcher &dispatcher, PipelineApplier &pipeline, bool standby,
                      ServiceNotifier::FigureSource figures);
    ~DispatchLifecycle() override;

    // See the Dispatcher's of the same names.
    void start();
    void shutdown(int exitCode) { stop(exitCode, {}, StopMode::Drain); }
    void reloadFile();

    bool isStandby() const { return m_standby; }
    bool isDatabaseUp() const;
    // current_database() of the queue connection, once it was up.
    QString databaseName() const;
    // The session is down (or not up yet): why.
    QString lastDatabaseError() const;
    // The session is up: for the first time, or again after an outage (or
    // the first pipeline failed to start and is tried again).
    void databaseUp(bool first);
    // A reloaded file or graph that does not parse: drain and exit 1.
    void refuseReload(const QString &problems);
    // No worker is left: write what is left, close the session, finished().
    void finishStop();
    // The session goes (the Dispatcher's teardown, its pools gone first).
    void endSession();

Q_SIGNALS:
    void finished(int exitCode);
    void databaseLost(const QString &reason);
    void databaseRestored(qint64 afterMs);

private:
    // Drain: workers finish what they hold (a signal, a bad reload).
    // Abandon: another dispatcher owns the rows now, or nothing may be
    // written at all (see Dispatcher::stopRounds).
    enum class StopMode { Drain, Abandon };
    void stop(int exitCode, const QString &why, StopMode mode);
    bool isStopping() const;
    void watchSession();
    bool startPipeline();

    Dispatcher &m_d;
    PipelineApplier &m_pipeline;
    const bool m_standby;
    std::unique_ptr<DatabaseSession> m_session;
    ServiceNotifier m_notifier;
    int m_exitCode = 0;
};

} // namespace pepsi
