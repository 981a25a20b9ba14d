// SPDX-License-Identifier: AGPL-3.0-or-later
#include "controlrun.h"

#include "benchdatabase.h"
#include "benchsetup.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocalSocket>
#include <QProcess>
#include <QSqlQuery>
#include <QTextStream>
#include <QVariant>

#include <csignal>
#include <memory>

namespace pepsi::bench {

namespace {

using namespace std::chrono_literals;

constexpr int ListenTimeoutMs = 60'000; // daemon start -> its control socket answers
constexpr auto StageOfPool = "hold";

// Open rows only, one partial index each: a single `status IN (...)` matches
// neither index's predicate and scans the history (550 ms a call at 3 M rows,
// a fifth of a core taken from the run it measures).
const QString OpenRowsSql = QStringLiteral("SELECT (SELECT count(*) FROM workqueue WHERE status = 'pending')"
                                           "     + (SELECT count(*) FROM workqueue WHERE status = 'running')");
const QString AnyLeftSql = QStringLiteral("SELECT EXISTS (SELECT 1 FROM workqueue WHERE status = 'pending')"
                                          "    OR EXISTS (SELECT 1 FROM workqueue WHERE status = 'running')"
                                          "    OR EXISTS (SELECT 1 FROM workqueue WHERE status = 'paused')");

QList<PollRequest> scheduleOf(ControlClient client)
{
    switch (client) {
    case ControlClient::None:
        return {};
    case ControlClient::Console: // what pepsi-console asks while its window is open
        return {{QStringLiteral("workers"), R"({"cmd":"workers"})", 1000ms},
                {QStringLiteral("status"), R"({"cmd":"status"})", 2000ms}};
    case ControlClient::FastStatus:
        return {{QStringLiteral("status"), R"({"cmd":"status"})", 100ms}};
    }
    return {};
}

// The history once, with the statistics a table this size would have.
std::optional<QString> fill(const BenchOptions &o, BenchDatabase &db, double *seconds)
{
    progress(QStringLiteral("control: filling %1 done and %2 failed rows").arg(o.historyRows).arg(o.failedRows));
    QElapsedTimer clock;
    clock.start();
    if (auto error = fillHistory(db, o.historyRows, o.failedRows))
        return error;
    if (!db.exec(QStringLiteral("VACUUM ANALYZE workqueue")))
        return db.lastError();
    *seconds = double(clock.elapsed()) / 1000.0;
    return std::nullopt;
}

QString logOf(const BenchOptions &o, const QString &name)
{
    return o.workDir + QStringLiteral("/daemon-%1.log").arg(name);
}

// Starts the daemon and waits until its control socket answers.
std::optional<QString> startListening(const BenchOptions &o, const QString &config, const QString &log,
                                      QProcess *daemon)
{
    if (auto error = startDaemon(o, config, log, daemon))
        return error;
    QLocalSocket probe;
    if (!connectWhenListening(probe, controlSocketPath(o), ListenTimeoutMs)) {
        (void)stopDaemon(daemon, log);
        return QStringLiteral("the daemon's control socket %1 did not answer within %2 s; see %3")
            .arg(controlSocketPath(o))
            .arg(ListenTimeoutMs / 1000)
            .arg(log);
    }
    probe.disconnectFromServer();
    return std::nullopt;
}

// Polls until no row is open; the error when the daemon exited or stalled.
std::optional<QString> waitUntilDrained(const BenchOptions &o, BenchDatabase &db, QProcess *daemon, const QString &log)
{
    qint64 lastOpen = -1;
    QElapsedTimer clock, sinceProgress;
    clock.start();
    sinceProgress.start();
    for (int poll = 1;; ++poll) {
        if (daemon->waitForFinished(200))
            return QStringLiteral("the daemon exited (status %1) during the run; see %2")
                .arg(daemon->exitCode())
                .arg(log);
        const QVariant left = db.scalar(AnyLeftSql);
        if (!left.isValid())
            return db.lastError();
        if (!left.toBool())
            return std::nullopt;
        if (poll % 10 != 0)
            continue;
        const qint64 open = db.scalar(OpenRowsSql).toLongLong();
        progress(QStringLiteral("control: %1 s: %2 messages open").arg(clock.elapsed() / 1000).arg(open));
        if (open != lastOpen) {
            lastOpen = open;
            sinceProgress.restart();
        } else if (sinceProgress.elapsed() > o.stallSeconds * 1000LL) {
            ::kill(pid_t(daemon->processId()), SIGKILL);
            daemon->waitForFinished(10'000);
            return QStringLiteral("no message moved for %1 s; the daemon was killed; see %2")
                .arg(o.stallSeconds)
                .arg(log);
        }
    }
}

std::optional<QString> collectRows(BenchDatabase &db, qint64 historyEnd, ControlRun *run)
{
    // This run's rows only (ids past the history): the primary key's range.
    QSqlQuery q = db.query(QStringLiteral("SELECT count(*) FILTER (WHERE status = 'done'),"
                                          "       count(*) FILTER (WHERE status IN ('failed', 'timeout')),"
                                          "       extract(epoch FROM max(updated) - min(created))"
                                          "  FROM workqueue WHERE workqueue_id > %1")
                               .arg(historyEnd));
    if (!q.next())
        return db.lastError();
    run->done = q.value(0).toLongLong();
    run->failed = q.value(1).toLongLong();
    run->wallSeconds = q.value(2).toDouble();
    if (run->wallSeconds > 0)
        run->hopsPerSecond = 3.0 * double(run->done) / run->wallSeconds;
    return std::nullopt;
}

Result<ControlRun, QString> runOne(const BenchOptions &o, BenchDatabase &db, const QString &config, qint64 historyEnd,
                                   ControlClient client, int index)
{
    ControlRun run;
    run.index = index;
    run.client = client;
    // The previous run's rows go; VACUUM so that their dead tuples cost the next run nothing.
    if (!db.exec(QStringLiteral("DELETE FROM workqueue WHERE workqueue_id > %1").arg(historyEnd))
        || !db.exec(QStringLiteral("VACUUM workqueue")))
        return db.lastError();
    const QString log = logOf(o, QString::number(index));
    progress(QStringLiteral("control: run %1, client %2").arg(index).arg(clientName(client)));
    QProcess daemon;
    if (auto error = startListening(o, config, log, &daemon))
        return *error;

    ControlPoller poller(controlSocketPath(o), scheduleOf(client));
    if (client != ControlClient::None) {
        if (auto error = poller.start()) {
            (void)stopDaemon(&daemon, log);
            return *error;
        }
    }
    const auto flowStart = BenchClock::now();
    // One statement: one NOTIFY, as pepsi-ingress would send for a batch.
    if (!db.exec(QStringLiteral("INSERT INTO workqueue (stage) SELECT '%1' FROM generate_series(1, %2)")
                     .arg(stageNames().constFirst())
                     .arg(o.messages)))
        return db.lastError();
    const auto drained = waitUntilDrained(o, db, &daemon, log);
    const auto flowEnd = BenchClock::now();
    poller.stop();
    if (drained)
        return *drained;
    const auto stopped = stopDaemon(&daemon, log);
    if (!stopped)
        return stopped.error();
    run.daemonExitCode = stopped.value();

    run.clientError = poller.error();
    for (const PollSample &sample : poller.samples()) {
        run.largestReplyBytes = std::max(run.largestReplyBytes, sample.bytes);
        run.replyErrors += sample.ok ? 0 : 1;
        if (sample.sent >= flowStart && sample.sent <= flowEnd)
            run.flowing << sample;
    }
    if (auto error = collectRows(db, historyEnd, &run))
        return *error;
    return run;
}

std::optional<QString> writePoolConfig(const BenchOptions &o, const QString &path, const QString &program)
{
    QString section;
    QTextStream out(&section);
    out << "\n[stage-" << StageOfPool << "]\nPROGRAM = " << program << "\nPARALLELISM = " << o.poolSize
        << "\nQUEUE_LIMIT = " << o.queueLimit << '\n';
    out.flush();
    return writeConfigFile(o, path, section);
}

// Waits until the workers hold `held` rows, as running rows show.
std::optional<QString> waitUntilHeld(const BenchOptions &o, BenchDatabase &db, QProcess *daemon, const QString &log,
                                     qint64 held)
{
    const QString runningSql = QStringLiteral("SELECT count(*) FROM workqueue WHERE status = 'running'");
    QElapsedTimer clock;
    clock.start();
    for (;;) {
        if (daemon->waitForFinished(200))
            return QStringLiteral("the daemon exited (status %1); see %2").arg(daemon->exitCode()).arg(log);
        const qint64 running = db.scalar(runningSql).toLongLong();
        if (running >= held)
            return std::nullopt;
        if (clock.elapsed() > o.stallSeconds * 1000LL)
            return QStringLiteral("the workers held %1 of %2 messages after %3 s; see %4")
                .arg(running)
                .arg(held)
                .arg(o.stallSeconds)
                .arg(log);
    }
}

} // namespace

QString clientName(ControlClient client)
{
    switch (client) {
    case ControlClient::None:
        return QStringLiteral("none");
    case ControlClient::Console:
        return QStringLiteral("console");
    case ControlClient::FastStatus:
        return QStringLiteral("status-100ms");
    }
    return {};
}

Result<ControlResult, QString> runControl(const BenchOptions &o)
{
    BenchDatabase db;
    const auto config = prepareRun(o, db);
    if (!config)
        return config.error();
    ControlResult result;
    result.logFile = logOf(o, QStringLiteral("N"));
    result.fsync = db.scalar(QStringLiteral("SHOW fsync")).toString();
    if (auto error = fill(o, db, &result.fillSeconds))
        return *error;
    const qint64 historyEnd = qint64(o.historyRows) + o.failedRows; // fillHistory's ids: 1 .. historyEnd
    int index = 0;
    for (int round = 0; round < o.controlRepeat; ++round) {
        for (const ControlClient client : {ControlClient::None, ControlClient::Console, ControlClient::FastStatus}) {
            auto run = runOne(o, db, *config, historyEnd, client, ++index);
            if (!run)
                return run.error();
            result.runs << run.value();
        }
    }
    return result;
}

Result<PoolResult, QString> runPool(const BenchOptions &o)
{
    const QString program = o.buildDir + QStringLiteral("/tests/fakeworker/pepsi-fakeworker");
    if (!QFileInfo(program).isExecutable())
        return QStringLiteral("%1 is missing: build pepsi-fakeworker").arg(program);
    BenchDatabase db;
    if (const auto prepared = prepareRun(o, db); !prepared)
        return prepared.error();
    const QString config = o.workDir + QStringLiteral("/pepsi-pool.conf");
    if (auto error = writePoolConfig(o, config, program))
        return *error;
    double fillSeconds = 0;
    if (auto error = fill(o, db, &fillSeconds))
        return *error;

    PoolResult result;
    result.logFile = logOf(o, QStringLiteral("pool"));
    result.held = qint64(o.poolSize) * o.queueLimit;
    // Every worker full, and more waiting: the fake worker hangs on each
    // message until it is stopped, so nothing moves while we look.
    const QByteArray hang =
        QJsonDocument(QJsonObject{{QStringLiteral("fake"),
                                   QJsonObject{{QString::fromLatin1(StageOfPool), QStringLiteral("hang")}}}})
            .toJson(QJsonDocument::Compact);
    if (!db.exec(
            QStringLiteral("INSERT INTO workqueue (stage, state) SELECT '%1', '%2'::jsonb FROM generate_series(1, %3)")
                .arg(QString::fromLatin1(StageOfPool), QString::fromUtf8(hang))
                .arg(result.held + o.poolSize)))
        return db.lastError();
    progress(QStringLiteral("control: one stage of %1 workers x %2 ids").arg(o.poolSize).arg(o.queueLimit));
    QProcess daemon;
    if (auto error = startListening(o, config, result.logFile, &daemon))
        return *error;
    if (auto error = waitUntilHeld(o, db, &daemon, result.logFile, result.held)) {
        (void)stopDaemon(&daemon, result.logFile);
        return *error;
    }

    QLocalSocket socket;
    if (!connectWhenListening(socket, controlSocketPath(o), 5000))
        return QStringLiteral("cannot connect to %1: %2").arg(controlSocketPath(o), socket.errorString());
    const QByteArray stage = QByteArray("\"") + StageOfPool + '"';
    const QList<std::pair<QString, QByteArray>> requests = {
        {QStringLiteral("workers"), R"({"cmd":"workers"})"},
        {QStringLiteral("workers-no-ids"), R"({"cmd":"workers","ids":false})"},
        {QStringLiteral("workers-stage"), R"({"cmd":"workers","stage":)" + stage + '}'},
        {QStringLiteral("status"), R"({"cmd":"status"})"},
        {QStringLiteral("status-stage"), R"({"cmd":"status","stage":)" + stage + '}'},
        {QStringLiteral("queues"), R"({"cmd":"queues"})"},
    };
    for (const auto &[name, request] : requests) {
        const OneReply reply = askOnce(socket, request);
        result.replies << PoolReply{name, request, reply.bytes, reply.ok, reply.error};
        if (name == u"status" && reply.ok)
            result.workers = QJsonDocument::fromJson(reply.line)
                                 .object()
                                 .value(QStringLiteral("result"))[QStringLiteral("totals")][QStringLiteral("workers")]
                                 .toInt();
        if (socket.state() != QLocalSocket::ConnectedState && !connectWhenListening(socket, controlSocketPath(o), 5000))
            break; // a client the daemon dropped connects again, as the console would
    }
    socket.disconnectFromServer();
    const auto stopped = stopDaemon(&daemon, result.logFile);
    if (!stopped)
        return stopped.error();
    result.daemonExitCode = stopped.value();
    return result;
}

} // namespace pepsi::bench
