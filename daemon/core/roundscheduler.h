// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QObject>
#include <QTimer>
#include <chrono>
#include <optional>
#include <utility>

namespace pepsi {

// When the dispatcher runs its next claim round: every wake of one loop pass
// coalesced into one round, the earliest paused row, a row another session
// held locked, a statement that failed on a live connection, and the
// POLL_INTERVAL heartbeat, the safety net for rows nobody announced.
// A worker's freed room alone asks for a round that may find no stage to
// claim for; only the other wakes (rows announced, a pause or lock to look
// at again, the heartbeat) need the statement itself. A round left without
// it still has its look at paused rows done soon: a stage may have paused
// its row itself, and only the statement learns when that pause ends.
class RoundScheduler : public QObject
{
    Q_OBJECT

public:
    // While a row is locked by another session, how often to look again.
    static constexpr std::chrono::milliseconds LockedRowRetry{500};
    // After a statement failed on a live connection (a timeout, say).
    static constexpr std::chrono::milliseconds StatementRetry{1000};
    // After a round ran no statement: the latest its look at paused rows
    // comes, however often rooms free meanwhile.
    static constexpr std::chrono::milliseconds SkippedLook{20};

    explicit RoundScheduler(QObject *parent = nullptr);

    // POLL_INTERVAL: the heartbeat's period (restarted if it runs), and the
    // farthest a retry is armed.
    void setPollInterval(std::chrono::milliseconds interval);
    void startHeartbeat() { m_heartbeat.start(); }
    // No heartbeat and no retries any more (a round already asked for still runs).
    void stop();

    // A round soon: once this loop pass is over, however often it is asked.
    void request();
    // A round soon for a worker's freed room: its statement is worth running
    // only if some stage has something to claim and room for it.
    void requestForRoom();
    // Whether a wake since the last call needs the round's statement even
    // with no stage to claim for (its resumes, its look at paused and locked
    // rows); clears it.
    bool takeStatementDue() { return std::exchange(m_statementDue, false); }
    // The round ran no statement (nothing to claim): one runs within SkippedLook.
    void statementSkipped();
    // What the round just run saw: the next paused row (in ms; none: none),
    // and whether rows another session held locked were skipped.
    void roundRan(std::optional<qint64> nextPausedInMs, bool skippedLocked);
    // A statement failed on a live connection: try again in a second.
    void retryAfterError();

    // What is armed now (the heartbeat, a retry after a round or an error).
    bool isHeartbeatRunning() const { return m_heartbeat.isActive(); }
    bool isRetryArmed() const { return m_retry.isActive(); }
    bool isErrorRetryArmed() const { return m_errorRetry.isActive(); }
    bool isSkippedLookArmed() const { return m_skippedLook.isActive(); }

    // When to look again after a round; none: at the heartbeat.
    static std::optional<std::chrono::milliseconds> retryDelay(std::optional<qint64> nextPausedInMs, bool skippedLocked,
                                                               std::chrono::milliseconds pollInterval);

Q_SIGNALS:
    void roundDue();
    void heartbeat();
    void errorRetryDue();

private:
    QTimer m_round;       // zero-delay: coalesces every wake of one loop pass
    QTimer m_retry;       // the earliest paused row, or a locked one
    QTimer m_errorRetry;  // a statement failed on a live connection
    QTimer m_heartbeat;   // POLL_INTERVAL
    QTimer m_skippedLook; // the statement a round without one still owes
    std::chrono::milliseconds m_pollInterval{0};
    bool m_statementDue = false;
};

} // namespace pepsi
