// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QObject>
#include <QTimer>
#include <chrono>
#include <optional>

namespace pepsi {

// When the dispatcher runs its next claim round: every wake of one loop pass
// coalesced into one round, the earliest paused row, a row another session
// held locked, a statement that failed on a live connection, and the
// POLL_INTERVAL heartbeat, the safety net for rows nobody announced.
class RoundScheduler : public QObject
{
    Q_OBJECT

public:
    // While a row is locked by another session, how often to look again.
    static constexpr std::chrono::milliseconds LockedRowRetry{500};
    // After a statement failed on a live connection (a timeout, say).
    static constexpr std::chrono::milliseconds StatementRetry{1000};

    explicit RoundScheduler(QObject *parent = nullptr);

    // POLL_INTERVAL: the heartbeat's period (restarted if it runs), and the
    // farthest a retry is armed.
    void setPollInterval(std::chrono::milliseconds interval);
    void startHeartbeat() { m_heartbeat.start(); }
    // No heartbeat and no retries any more (a round already asked for still runs).
    void stop();

    // A round soon: once this loop pass is over, however often it is asked.
    void request();
    // What the round just run saw: the next paused row (in ms; none: none),
    // and whether rows another session held locked were skipped.
    void roundRan(std::optional<qint64> nextPausedInMs, bool skippedLocked);
    // A statement failed on a live connection: try again in a second.
    void retryAfterError();

    // What is armed now (the heartbeat, a retry after a round or an error).
    bool isHeartbeatRunning() const { return m_heartbeat.isActive(); }
    bool isRetryArmed() const { return m_retry.isActive(); }
    bool isErrorRetryArmed() const { return m_errorRetry.isActive(); }

    // When to look again after a round; none: at the heartbeat.
    static std::optional<std::chrono::milliseconds> retryDelay(std::optional<qint64> nextPausedInMs, bool skippedLocked,
                                                               std::chrono::milliseconds pollInterval);

Q_SIGNALS:
    void roundDue();
    void heartbeat();
    void errorRetryDue();

private:
    QTimer m_round;      // zero-delay: coalesces every wake of one loop pass
    QTimer m_retry;      // the earliest paused row, or a locked one
    QTimer m_errorRetry; // a statement failed on a live connection
    QTimer m_heartbeat;  // POLL_INTERVAL
    std::chrono::milliseconds m_pollInterval{0};
};

} // namespace pepsi
