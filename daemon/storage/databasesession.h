// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "storage/connectionwatch.h"
#include "storage/dispatcherlock.h"
#include "storage/notifylistener.h"
#include "storage/overlaystore.h"
#include "storage/queueconnection.h"
#include "storage/queuestore.h"
#include "storage/statsstore.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <memory>

namespace pepsi {

// The dispatcher's life with its database: the queue connection, which
// writes and holds the advisory lock, and the LISTEN connection. It checks the
// schema once, waits for the lock as a standby, notices a connection the
// server closed as it happens, reconnects with a capped backoff (keeping a
// connection that still works, so a lost LISTEN connection does not give up
// the lock), and takes the lock and LISTENs again. Workers and their reports
// carry on meanwhile; the dispatcher only stops writing while it is not up.
class DatabaseSession : public QObject
{
    Q_OBJECT

public:
    DatabaseSession(const QString &database, const SessionLimits &limits, bool standby, QObject *parent);
    ~DatabaseSession() override;

    void open();
    // A statement failed. If its connection is gone, the session goes down
    // and reconnects; true when the session is still up (the statement failed
    // on a live connection: a timeout, a row lock, a bad value).
    bool statementFailed(const QString &what);
    // A round trip on the queue connection: a silent dead peer shows here.
    void checkAlive();
    void close();

    bool isUp() const { return m_state == State::Up; }
    // While down: why.
    QString lastError() const { return m_lastError; }
    // current_database() of the queue connection, read once it is first up.
    QString databaseName() const { return m_databaseName; }
    QueueStore &store() { return *m_store; }
    StatsStore &stats() { return m_stats; }
    OverlayStore &overlay() { return m_overlay; }

Q_SIGNALS:
    // Connected, holding the lock, listening. `first`: the first time in this process.
    void up(bool first);
    // Up again after an outage (or after the database was unreachable at start).
    void restored(qint64 afterMs);
    void down(const QString &reason);
    // Waiting for the lock: a standby, or our own earlier session still ending.
    void waitingForLock(const QString &holder);
    // Another dispatcher holds the lock and this one must not run (exit 1).
    void lockedOut(const QString &holder);
    // Not serving, and why, in words for systemd's STATUS= (a standby's wait, an outage).
    void waiting(const QString &status);
    // The schema is missing or older than this build needs (exit 78).
    void schemaRefused(const QString &message);
    // payload: what the sender said (the workqueue trigger: where the rows it inserted start).
    void notified(const QString &channel, const QString &payload);

private:
    enum class State { Down, WaitingForLock, Up };

    void attempt();
    // Takes the lock on the fresh queue connection; false when it did not
    // (and it has already decided what follows).
    bool takeLock();
    void waitForLock(const QString &holder, std::chrono::milliseconds retry, bool closeAll);
    void goDown(const QString &reason);
    void onConnectionLost(const QString &which, const QString &reason);
    void logAttempt(const QString &reason, std::chrono::milliseconds next);
    // Drops what is prepared on the queue connection, then closes it.
    void closeQueue();
    QString currentDatabase() const;

    QString m_database;
    SessionLimits m_limits;
    bool m_standby = false;
    bool m_everUp = false;
    bool m_schemaChecked = false;
    bool m_sawLockFree = false; // a standby takes a free lock only when it saw it free a second before
    State m_state = State::Down;
    QueueConnection m_queue; // before the stores, which run on it
    std::unique_ptr<QueueStore> m_store;
    std::unique_ptr<NotifyListener> m_listener;
    std::unique_ptr<DispatcherLock> m_lock;
    StatsStore m_stats;
    OverlayStore m_overlay;
    ConnectionWatch m_queueWatch;
    QTimer m_retry;
    QElapsedTimer m_downSince;
    QElapsedTimer m_lastAttemptLine;
    QString m_lockHolder;
    QString m_lastError;
    QString m_databaseName;
    int m_failures = 0;
    int m_quietAttempts = 0; // failed attempts not logged since the last line
    bool m_outageLogged = false;
    bool m_waitLogged = false;    // a standby said whom it waits for
    bool m_ownWaitLogged = false; // waiting for our own ended session
};

} // namespace pepsi
