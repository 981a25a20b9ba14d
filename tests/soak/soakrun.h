// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "soakplan.h"

#include <QElapsedTimer>
#include <QString>
#include <QTextStream>
#include <memory>

class DaemonProcess;
class DatabaseFaults;
class QueueProbe;
class TestDatabase;

struct SoakOptions
{
    int messages = 100000;
    quint32 seed = 0;
    int stallSeconds = 120; // give up when nothing settles for this long
    bool killDaemon = true; // SIGKILL the daemon once and start a fresh one
    bool restartDatabase = true;
    bool rowLocks = true;          // an operator's transaction holds row locks for a while
    bool terminateSessions = true; // pg_terminate_backend on the dispatcher's sessions
};

// One soak run: a fresh database, the daemon with three stages of the fake
// worker, the planned messages, a daemon SIGKILL and a PostgreSQL restart at
// random points, then the totals checked against the plan. run() returns
// the exit status: 0 pass, 1 a message lost, stuck or wrong, 77 no database.
class SoakRun
{
public:
    explicit SoakRun(const SoakOptions &options);
    ~SoakRun();

    int run();

private:
    bool startDaemon();
    bool insertAll();
    void settle();
    void killDaemon();
    void restartDatabase();
    void lockRows();
    void releaseRows();
    void terminateSessions();
    void reconnectAll();
    void progress(const QMap<QString, int> &byStatus);
    // The verdict; prints the report.
    bool report();
    double elapsedSeconds() const { return double(m_clock.elapsed()) / 1000.0; }

    SoakOptions m_options;
    SoakPlan m_plan;
    QTextStream m_out;
    QElapsedTimer m_clock;
    std::unique_ptr<TestDatabase> m_db;
    std::unique_ptr<QueueProbe> m_queue;
    std::unique_ptr<DaemonProcess> m_daemon;
    QList<std::shared_ptr<DaemonProcess>> m_previous; // killed ones, for their logs
    QHash<qint64, int> m_index;                       // workqueue_id -> plan index
    int m_killAt = -1;                                // settled messages that trigger the event
    int m_restartAt = -1;
    int m_lockAt = -1;
    int m_terminateAt = -1;
    QElapsedTimer m_lockedFor; // valid while rows are locked
    std::unique_ptr<DatabaseFaults> m_faults;
    int m_orphansAtKill = 0; // rows running when the daemon was killed
    QStringList m_events;
    QStringList m_problems; // anything that fails the run besides the rows
};
