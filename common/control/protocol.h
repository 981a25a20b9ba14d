// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QLatin1StringView>
#include <QString>
#include <QStringList>

// The control protocol's one vocabulary (doc/control-protocol.rst), shared
// by the daemon (daemon/control), the console and any other client: nothing
// outside this library spells a command, an event or a field name, or
// restates a limit.
namespace pepsi::protocol {

// The `protocol` of the `version` reply; a client refuses any other.
inline constexpr int Version = 1;

// Every line, either way, is at most this long with its newline.
inline constexpr qsizetype MaxLine = qsizetype(64) * 1024;
// A line of `bytesWithoutNewline` bytes may be sent and must be accepted.
constexpr bool fitsInLine(qsizetype bytesWithoutNewline, qsizetype maxLine = MaxLine)
{
    return bytesWithoutNewline >= 0 && bytesWithoutNewline < maxLine;
}

// `requeue`: at most this many ids in one request, and `limit` 1..MaxRequeueLimit.
inline constexpr int MaxRequeueIds = 10000;
inline constexpr int MaxRequeueLimit = 10000;
inline constexpr int DefaultRequeueLimit = 1000;

// CONTROL_SOCKET's default (doc/man/pepsi.conf.rst): /run/pepsi/dispatch.sock
// for root, $XDG_RUNTIME_DIR/pepsi/dispatch.sock for anyone else, and
// /tmp/pepsi-UID/dispatch.sock when XDG_RUNTIME_DIR is unset.
QString defaultSocketPath();

using Name = QLatin1StringView;

// Command names ("cmd").
namespace cmd {
inline constexpr Name Drain{"drain"};
inline constexpr Name Help{"help"};
inline constexpr Name Message{"message"};
inline constexpr Name Messages{"messages"};
inline constexpr Name Metrics{"metrics"};
inline constexpr Name Queues{"queues"};
inline constexpr Name Reload{"reload"};
inline constexpr Name Requeue{"requeue"};
inline constexpr Name Resume{"resume"};
inline constexpr Name Set{"set"};
inline constexpr Name Stages{"stages"};
inline constexpr Name Stats{"stats"};
inline constexpr Name Status{"status"};
inline constexpr Name Subscribe{"subscribe"};
inline constexpr Name Unsubscribe{"unsubscribe"};
inline constexpr Name Unset{"unset"};
inline constexpr Name Version{"version"};
inline constexpr Name Workers{"workers"};
inline constexpr Name Reasons{"reasons"}; // a stage's failure reasons by count
} // namespace cmd

// Event names ("event").
namespace event {
inline constexpr Name WorkerStarted{"worker_started"};
inline constexpr Name WorkerExited{"worker_exited"};
inline constexpr Name WorkerCrashed{"worker_crashed"};
inline constexpr Name WorkerKilled{"worker_killed"};
inline constexpr Name StartFailed{"start_failed"};
inline constexpr Name CooldownEntered{"cooldown_entered"};
inline constexpr Name CooldownLeft{"cooldown_left"};
inline constexpr Name StageDrained{"stage_drained"};
inline constexpr Name StageResumed{"stage_resumed"};
inline constexpr Name Requeued{"requeued"};
inline constexpr Name Reload{"reload"};
inline constexpr Name DatabaseLost{"database_lost"};
inline constexpr Name DatabaseRestored{"database_restored"};
inline constexpr Name State{"state"};
inline constexpr Name Tick{"tick"};
// what fails, as it happens
inline constexpr Name MessageFailed{"message_failed"};
inline constexpr Name StageFailing{"stage_failing"};
inline constexpr Name StageRecovered{"stage_recovered"};
} // namespace event

// Every event name, in the order `help` lists them.
const QStringList &eventNames();

// The keys of "pending_ages" (doc/control-protocol.rst, `queues`; as
// Postfix's qshape): pending rows by age, youngest bucket first: "1s", "10s",
// "1m", "10m", "1h", "older".
const QStringList &pendingAgeBuckets();

// `set`: the [stage-NAME] options it may write, as named in pepsi.conf.
const QStringList &settableOptions();

// `messages`: "limit" is 1..MaxMessagesLimit.
inline constexpr int MaxMessagesLimit = 500;
// `messages` with "reasons": true: at most this many reasons, the most frequent first.
inline constexpr int MaxMessageReasons = 100;

// Field names of requests, replies and events.
namespace field {
// the envelope
inline constexpr Name Id{"id"};
inline constexpr Name Cmd{"cmd"};
inline constexpr Name Ok{"ok"};
inline constexpr Name Result{"result"};
inline constexpr Name Error{"error"};
inline constexpr Name Event{"event"};
inline constexpr Name Seq{"seq"};
inline constexpr Name Time{"time"};
// version
inline constexpr Name Daemon{"daemon"};
inline constexpr Name Protocol{"protocol"};
inline constexpr Name Pid{"pid"};
inline constexpr Name Started{"started"};
inline constexpr Name UptimeMs{"uptime_ms"};
inline constexpr Name Host{"host"};
inline constexpr Name Database{"database"};
inline constexpr Name User{"user"};
inline constexpr Name Role{"role"};
inline constexpr Name State{"state"};
inline constexpr Name Standby{"standby"};
inline constexpr Name Peer{"peer"};
inline constexpr Name Uid{"uid"};
inline constexpr Name Admin{"admin"};
// status, stats, queues
inline constexpr Name Totals{"totals"};
inline constexpr Name QueuesAt{"queues_at"};
inline constexpr Name QueuesError{"queues_error"};
inline constexpr Name Stages{"stages"};
inline constexpr Name Queue{"queue"};
inline constexpr Name Stats{"stats"};
inline constexpr Name Since{"since"};
inline constexpr Name At{"at"};
inline constexpr Name AgeMs{"age_ms"};
// a pool (status.stages.NAME)
inline constexpr Name Workers{"workers"};
inline constexpr Name Busy{"busy"};
inline constexpr Name Idle{"idle"};
inline constexpr Name Starting{"starting"};
inline constexpr Name Retiring{"retiring"};
inline constexpr Name Parallelism{"parallelism"};
inline constexpr Name QueueLimit{"queue_limit"};
inline constexpr Name InFlight{"in_flight"};
inline constexpr Name Capacity{"capacity"};
inline constexpr Name Cooldown{"cooldown"};
inline constexpr Name CooldownUntil{"cooldown_until"};
inline constexpr Name CooldownReason{"cooldown_reason"};
inline constexpr Name Drained{"drained"};
inline constexpr Name Retired{"retired"};
// a worker
inline constexpr Name Stage{"stage"};
inline constexpr Name Messages{"messages"};
inline constexpr Name Ids{"ids"};
inline constexpr Name Held{"held"};
inline constexpr Name HeadId{"head_id"};
inline constexpr Name HeadAgeMs{"head_age_ms"};
inline constexpr Name MaxRuntimeMs{"max_runtime_ms"};
// statistics
inline constexpr Name Runs{"runs"};
inline constexpr Name Failures{"failures"};
inline constexpr Name Timeouts{"timeouts"};
inline constexpr Name Crashes{"crashes"};
inline constexpr Name BusyUsec{"busy_usec"};
inline constexpr Name FailedInARow{"failed_in_a_row"};
inline constexpr Name Rate10s{"rate_10s"};
inline constexpr Name Rate60s{"rate_60s"};
inline constexpr Name Claimed{"claimed"};
inline constexpr Name Rounds{"rounds"};
inline constexpr Name StageRuns{"stage_runs"};
inline constexpr Name Completed{"completed"};
// queue counts
inline constexpr Name Pending{"pending"};
inline constexpr Name Running{"running"};
inline constexpr Name Paused{"paused"};
inline constexpr Name Failed{"failed"};
inline constexpr Name Timeout{"timeout"};
inline constexpr Name OldestPendingAgeMs{"oldest_pending_age_ms"};
// pending rows by age (pendingAgeBuckets() names its keys)
inline constexpr Name PendingAges{"pending_ages"};
// stages
inline constexpr Name Program{"program"};
inline constexpr Name MaxMessages{"max_messages"};
inline constexpr Name Next{"next"};
inline constexpr Name Fuse{"fuse"};
inline constexpr Name Predecessors{"predecessors"};
inline constexpr Name Settings{"settings"};
inline constexpr Name WorkerIdleTimeoutMs{"worker_idle_timeout_ms"};
inline constexpr Name PollIntervalMs{"poll_interval_ms"};
inline constexpr Name StatsIntervalMs{"stats_interval_ms"};
inline constexpr Name TempfailDelayMs{"tempfail_delay_ms"};
inline constexpr Name DbPoolSize{"db_pool_size"};
inline constexpr Name ConfigFile{"config_file"};
// subscribe, requeue, help
inline constexpr Name Events{"events"};
inline constexpr Name Subscribed{"subscribed"};
inline constexpr Name Status{"status"};
inline constexpr Name MaxAgeMs{"max_age_ms"};
inline constexpr Name Limit{"limit"};
inline constexpr Name Requeued{"requeued"};
inline constexpr Name More{"more"};
inline constexpr Name Total{"total"}; // messages with "reasons": the rows of every reason
inline constexpr Name Commands{"commands"};
inline constexpr Name Summary{"summary"};
inline constexpr Name Args{"args"};
inline constexpr Name Type{"type"};
inline constexpr Name Required{"required"};
// event fields
inline constexpr Name Reason{"reason"};
inline constexpr Name Cause{"cause"};
inline constexpr Name MessageId{"message_id"};
inline constexpr Name Detail{"detail"};
inline constexpr Name Stderr{"stderr"};
inline constexpr Name Until{"until"};
inline constexpr Name Count{"count"};
inline constexpr Name Source{"source"};
inline constexpr Name AfterMs{"after_ms"};
// message_failed, stage_failing, stage_recovered; a stage's statistics
inline constexpr Name FailureShare{"failure_share"};
inline constexpr Name Failing{"failing"};
// messages, message
inline constexpr Name AfterId{"after_id"};
inline constexpr Name NextAfterId{"next_after_id"};
inline constexpr Name Claims{"claims"};
inline constexpr Name Updated{"updated"};
inline constexpr Name Created{"created"};
inline constexpr Name Truncated{"truncated"};
// messages with "reasons": true (reasons by count; "reason" filters the rows)
inline constexpr Name Reasons{"reasons"};
inline constexpr Name Oldest{"oldest"};
inline constexpr Name Newest{"newest"};
// set
inline constexpr Name Option{"option"};
inline constexpr Name Value{"value"};
// metrics
inline constexpr Name Text{"text"};
// reload (reply and event): what changed
inline constexpr Name Changed{"changed"};
inline constexpr Name Added{"added"};
inline constexpr Name Removed{"removed"};
inline constexpr Name Old{"old"};
inline constexpr Name New{"new"};
// stages: where each option's value comes from, and the file's value under an overlay row
inline constexpr Name Sources{"sources"};
inline constexpr Name FileValues{"file_values"};
// last: from here on `Name` in this namespace is this field, not the type
inline constexpr QLatin1StringView Name{"name"};
} // namespace field

// Values of fields that the protocol fixes.
namespace value {
// requeue's "status"
inline constexpr Name Failed{"failed"};
inline constexpr Name Timeout{"timeout"};
// version's "role"
inline constexpr Name Active{"active"};
inline constexpr Name Standby{"standby"};
// a worker's "state"
inline constexpr Name Starting{"starting"};
inline constexpr Name Running{"running"};
inline constexpr Name Stopping{"stopping"};
// a row's "status" (`messages`)
inline constexpr Name Pending{"pending"};
inline constexpr Name Paused{"paused"};
inline constexpr Name Done{"done"};
// a `reload` event's "source": what made the daemon read its configuration again
inline constexpr Name Notify{"notify"};       // config_overlay changed (its config_changed notification)
inline constexpr Name Socket{"socket"};       // the `reload` command
inline constexpr Name Reconnect{"reconnect"}; // the database came back
inline constexpr Name Signal{"signal"};       // SIGHUP
inline constexpr Name Set{"set"};             // the `set` command's config_overlay write
// a `stages` option's source (config/optionsource.h)
inline constexpr Name File{"file"};
inline constexpr Name Overlay{"overlay"};
inline constexpr Name Default{"default"};
} // namespace value

} // namespace pepsi::protocol
