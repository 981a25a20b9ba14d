// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "storage/dispatcherlock.h"
#include "storage/notifylistener.h"
#include "storage/overlaystore.h"
#include "storage/queuestore.h"
#include "storage/statsstore.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <memory>

namespace pepsi {

// The dispatcher's life with its database: connect (queue connection plus the
// LISTEN connection that carries the advisory lock), wait for the lock as a
// standby, notice a lost connection, reconnect with a capped backoff, and take
// the lock and LISTEN again. Workers and their reports carry on meanwhile;
// the dispatcher only stops claiming while the session is down.
class DatabaseSession : public QObject
{
    Q_OBJECT

public:
    enum class State { Down, WaitingForLock, Up };

    DatabaseSession(const QString &database, bool standby, QObject *parent);
    ~DatabaseSession() override;

    void open();
    // A statement failed: if it was the connection, go down and reconnect.
    void statementFailed(const QString &what);
    // A round trip on the LISTEN connection: a silent dead socket shows here.
    void checkAlive();
    void close();

    bool isUp() const { return m_state == State::Up; }
    QueueStore &store() { return *m_store; }
    StatsStore &stats() { return m_stats; }
    OverlayStore &overlay() { return m_overlay; }

Q_SIGNALS:
    // Connected, holding the lock, listening. `first`: the first time in this process.
    void up(bool first);
    void down(const QString &reason);
    // Another dispatcher holds the lock and this one must not run (exit 1).
    void lockedOut(const QString &holder);
    // Not serving, and why, in words for systemd's STATUS= (a standby's wait, an outage).
    void waiting(const QString &status);
    void notified(const QString &channel);

private:
    void attempt();
    void goDown(const QString &reason);
    void scheduleRetry(std::chrono::milliseconds delay);
    // A round trip on the named connection succeeds.
    static bool answers(const QString &connectionName);

    QString m_database;
    bool m_standby = false;
    bool m_everUp = false;
    State m_state = State::Down;
    std::unique_ptr<QueueStore> m_store;
    std::unique_ptr<NotifyListener> m_listener;
    std::unique_ptr<DispatcherLock> m_lock;
    StatsStore m_stats;
    OverlayStore m_overlay;
    QTimer m_retry;
    QElapsedTimer m_downSince;
    int m_failures = 0;
    bool m_outageLogged = false;
    bool m_waitLogged = false;
};

} // namespace pepsi
