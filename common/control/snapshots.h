// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "config/optionsource.h"

#include <QDateTime>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>
#include <array>
#include <optional>

// The values the control protocol carries (doc/control-protocol.rst): what
// the daemon's DispatchView hands out, and what a client parses a reply
// back into (control/snapshotcodec.h has their JSON both ways, for both ends).

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
// The reverse; nullopt for a name this side does not know.
std::optional<Lifecycle> lifecycleFromName(const QString &name);

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

    bool operator==(const PoolSnapshot &) const = default;
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
    QList<qint64> ids;     // held, head of line first (empty when asked without ids)
    qint64 held = -1;      // how many it holds; -1: ids.size()
    qint64 headId = -1;    // parsed replies: the head of line when ids were not sent; -1: ids.first()
    qint64 headAgeMs = -1; // -1: holds nothing, or not started yet
    qint64 maxRuntimeMs = 0;

    qint64 heldCount() const { return held >= 0 ? held : ids.size(); }
    // -1 when it holds nothing.
    qint64 headOfLine() const { return !ids.isEmpty() ? ids.first() : headId; }
    bool operator==(const WorkerSnapshot &) const = default;
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
    qint64 failedInARow = 0; // the latest runs that failed, since the stage's last success
    // Failed runs over all runs of the last 10 s (0 without runs), and whether
    // the stage is failing (doc/control-protocol.rst, stage_failing).
    double failureShare = 0;
    bool failing = false;

    bool operator==(const StageStatsSnapshot &) const = default;
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

    bool operator==(const StatsSnapshot &) const = default;
};

// The upper bounds of the first five pendingAges buckets (the sixth has
// none): a row of age 1000 ms is in "10s", not "1s".
inline constexpr std::array<qint64, 5> PendingAgeBoundsMs{1'000, 10'000, 60'000, 600'000, 3'600'000};

struct StageQueue
{
    qint64 pending = 0;
    qint64 running = 0;
    qint64 paused = 0;
    qint64 failed = 0;
    qint64 timeout = 0;
    // Measured from when the row became pending at this stage (its
    // `updated`), not from its creation: every stage's own wait.
    std::optional<qint64> oldestPendingAgeMs;
    // Pending rows by that age, in protocol::pendingAgeBuckets() order: under
    // 1 s, 1-10 s, 10-60 s, 1-10 min, 10-60 min, older (qshape's columns).
    std::array<qint64, 6> pendingAges{};

    bool operator==(const StageQueue &) const = default;
};

struct QueueCounts
{
    QDateTime takenAt; // UTC, when the query ran
    QMap<QString, StageQueue> stages;
    // Parsed `queues` replies: how old the counts were when the daemon sent
    // them ("age_ms"); -1: not said (the daemon writes it from takenAt).
    qint64 ageMs = -1;

    bool operator==(const QueueCounts &) const = default;
};

// One row of the `messages` reply.
struct MessageRow
{
    qint64 id = 0;
    QString stage;
    QString status; // "pending", "running", "paused", "failed", "timeout" (or "done" in `message`)
    qint64 claims = 0;
    QDateTime updated; // UTC
    QString reason;    // state.dispatch_error; empty: none (null on the wire)

    bool operator==(const MessageRow &) const = default;
};

// One reason of `messages` with "reasons": true: how many rows of the stage
// and status have it, and when the first and the last of them got there.
struct ReasonCount
{
    QString reason; // cut as MessageRow::reason; empty: rows without one (null on the wire)
    qint64 count = 0;
    QDateTime oldest; // UTC, the least `updated`
    QDateTime newest; // UTC, the greatest `updated`

    bool operator==(const ReasonCount &) const = default;
};

// The `messages` reply: rows in id order, and where the next page starts;
// or, when the reasons were asked for, the reasons by count instead of rows.
struct MessagePage
{
    QList<MessageRow> rows;
    std::optional<qint64> nextAfterId; // none: this was the last page
    bool byReason = false;             // "reasons": true was asked: `reasons` instead of `rows`
    QList<ReasonCount> reasons;        // most frequent first, at most protocol::MaxMessageReasons
    bool moreReasons = false;          // further reasons were left off
    qint64 reasonsTotal = 0;           // the rows of every reason, those left off too

    bool operator==(const MessagePage &) const = default;
};

// The `message` reply: one row, its state whole or cut.
struct MessageDetail
{
    // `state` of a row is cut to this many bytes of its JSON text.
    static constexpr qsizetype MaxStateBytes = qsizetype(16) * 1024;

    MessageRow row;
    QDateTime created;
    std::optional<QDateTime> timeout; // paused: when it is retried
    QByteArray state;                 // the row's state as JSON text, at most MaxStateBytes
    bool truncated = false;           // `state` was cut (and is no longer valid JSON)

    bool operator==(const MessageDetail &) const = default;
};

// The pools' part of the `status` totals: the sums over every pool of the
// daemon (a `status` of one stage lists one pool, and still the whole sums).
struct PoolTotals
{
    int workers = 0;
    int busy = 0;
    int inFlight = 0;
    int capacity = 0;

    static PoolTotals of(const QList<PoolSnapshot> &pools);
    bool operator==(const PoolTotals &) const = default;
};

// The `status` reply: one snapshot of pools, queue counts and statistics.
struct StatusSnapshot
{
    QDateTime time;
    Lifecycle state = Lifecycle::Starting;
    StatsSnapshot stats;       // totals and each stage's statistics (`since` is not in `status`)
    PoolTotals poolTotals;     // the daemon's sums: a client shows them, never adds up `pools`
    QList<PoolSnapshot> pools; // in stage-name order
    std::optional<QueueCounts> queues;
    QString queuesError; // why `queues` is missing

    bool operator==(const StatusSnapshot &) const = default;
};

// One stage of the `stages` reply: the graph as loaded.
struct StageInfo
{
    QString name;
    QString program;
    int parallelism = 0;
    int queueLimit = 0;
    int maxMessages = 0;
    QStringList next;
    bool fuse = false;
    QStringList predecessors;
    bool drained = false;
    OptionSources sources; // PROGRAM, PARALLELISM, QUEUE_LIMIT, MAX_MESSAGES, NEXT, FUSE

    bool operator==(const StageInfo &) const = default;
};

// The dispatcher's settings in the `stages` reply.
struct SettingsSnapshot
{
    qint64 maxRuntimeMs = 0;
    qint64 workerIdleTimeoutMs = 0;
    qint64 pollIntervalMs = 0;
    qint64 statsIntervalMs = 0;
    qint64 tempfailDelayMs = 0;
    int dbPoolSize = 0;
    QString configFile; // empty: none (null on the wire)

    bool operator==(const SettingsSnapshot &) const = default;
};

// The `stages` reply: stages sorted by name, and the settings.
struct StagesSnapshot
{
    QList<StageInfo> stages;
    SettingsSnapshot settings;

    bool operator==(const StagesSnapshot &) const = default;
};

// One stage of a `tick` event: its figures of the moment.
struct TickStage
{
    double rate10s = 0;
    int inFlight = 0;
    int busy = 0;
    int idle = 0;
    int workers = 0;
    int capacity = 0;

    bool operator==(const TickStage &) const = default;
};

// The `tick` event's fields (its "event", "seq" and "time" are every event's).
struct TickSnapshot
{
    qint64 claimed = 0;   // rows, since the tick before
    qint64 completed = 0; // stage runs that ended, since the tick before
    PoolTotals pools;     // of the moment, as in `status`
    double rate10s = 0;
    QMap<QString, TickStage> stages;

    bool operator==(const TickSnapshot &) const = default;
};

// A `message_failed` event's fields: `count` runs of `stage` failed or
// timed out since its last one; `reason` is the latest one's
// state.dispatch_error.
struct MessageFailedEvent
{
    QString stage;
    qint64 count = 0;
    QString reason;

    bool operator==(const MessageFailedEvent &) const = default;
};

// A `stage_failing` or `stage_recovered` event's fields: the share of the
// stage's runs over the last 10 s that failed, from 0 to 1.
struct StageFailureEvent
{
    QString stage;
    double failureShare = 0;

    bool operator==(const StageFailureEvent &) const = default;
};

// One option of a stage that a reload changed, as named in pepsi.conf
// ("PROGRAM", "PARALLELISM", ...), with its value before and after.
struct OptionChange
{
    QString option;
    QString before;
    QString after;

    bool operator==(const OptionChange &) const = default;
};

// What a reload changed: stages added and removed (names, sorted), and per
// stage that both graphs have, the options whose value differs.
struct ReloadChanges
{
    QStringList added;
    QStringList removed;
    QMap<QString, QList<OptionChange>> changed;

    bool isEmpty() const { return added.isEmpty() && removed.isEmpty() && changed.isEmpty(); }
    bool operator==(const ReloadChanges &) const = default;
};

// The `reload` reply, and the `reload` event's fields with its "source".
struct ReloadSnapshot
{
    QStringList stages; // the new graph's names
    ReloadChanges changed;
    QString source; // the event's (protocol::value::Socket, ...); not in the reply

    bool operator==(const ReloadSnapshot &) const = default;
};

} // namespace pepsi
