// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <optional>

// The values DispatchView hands out (core/dispatchview.h): copies taken in one
// call. Kept apart from the interface so that the pools can fill them without
// seeing the control side.

namespace pepsi {

// The daemon's life, one state at a time (doc/control-protocol.rst, "state").
enum class Lifecycle {
    Starting,       // before the first connection
    WaitingForLock, // a standby; or a dispatcher whose own dead backend still holds the lock
    Running,        // holds the lock, claims
    Reconnecting,   // the database is unreachable; workers carry on, nothing is claimed
    Stopping,       // stopping workers, flushing what can be flushed
    Stopped,
};
// "starting", "waiting_for_lock", "running", "reconnecting", "stopping", "stopped"
QString lifecycleName(Lifecycle state);

struct DaemonInfo
{
    QString version;
    qint64 pid = 0;
    QDateTime startedAt; // UTC
    QString host;
    QString database;     // the database name (never a password)
    QString user;         // the account the daemon runs as
    bool standby = false; // started with --standby
    Lifecycle lifecycle = Lifecycle::Starting;
    QString lockHolder;    // WaitingForLock: who holds the lock
    QString databaseError; // Reconnecting: why
};

struct PoolSnapshot
{
    QString stage;
    int workers = 0; // live processes = busy + idle + starting + retiring
    int busy = 0;
    int idle = 0;
    int starting = 0;
    int retiring = 0;
    int parallelism = 0;
    int queueLimit = 0;
    int inFlight = 0;
    int capacity = 0; // queueLimit x parallelism; 0 while drained, in cooldown or retired
    std::optional<QDateTime> cooldownUntil;
    QString cooldownReason;
    bool drained = false;
    bool retired = false; // gone from the graph, workers still finishing
};

struct WorkerSnapshot
{
    enum class State { Starting, Running, Stopping };
    qint64 pid = 0;
    QString stage;
    State state = State::Starting;
    bool retiring = false;
    qint64 messages = 0; // status lines answered
    qint64 uptimeMs = 0;
    QList<qint64> ids;     // held, head of line first
    qint64 headAgeMs = -1; // -1: holds nothing, or not started yet
    qint64 maxRuntimeMs = 0;
};

struct StageStatsSnapshot
{
    qint64 runs = 0;
    qint64 failures = 0;
    qint64 timeouts = 0;
    qint64 crashes = 0;
    qint64 busyUsec = 0;
    double rate10s = 0; // runs ended per second over the last 10 s
    double rate60s = 0;
};

struct StatsSnapshot
{
    QDateTime since;
    qint64 claimed = 0;
    qint64 rounds = 0;
    qint64 stageRuns = 0;
    qint64 messages = 0;
    double rate10s = 0;
    double rate60s = 0;
    QMap<QString, StageStatsSnapshot> stages;
};

struct StageQueue
{
    qint64 pending = 0;
    qint64 running = 0;
    qint64 paused = 0;
    qint64 failed = 0;
    qint64 timeout = 0;
    std::optional<qint64> oldestPendingAgeMs;
};

struct QueueCounts
{
    QDateTime takenAt; // UTC, when the query ran
    QMap<QString, StageQueue> stages;
};

struct RequeueRequest
{
    QString stage;
    QString status;                 // "failed" or "timeout"
    QList<qint64> ids;              // empty: any
    std::optional<qint64> maxAgeMs; // only rows whose `updated` is at most this old
    int limit = 1000;               // 1..10000
};

struct RequeueOutcome
{
    qint64 requeued = 0;
    bool more = false;
};

// Something that happened, for subscribers (doc/control-protocol.rst, Events):
// the event name and its fields, without "event", "seq" and "time", which the
// control socket adds.
struct DispatchEvent
{
    QString name;
    QJsonObject fields;
};

} // namespace pepsi
