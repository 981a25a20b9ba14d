// SPDX-License-Identifier: AGPL-3.0-or-later
#include "soakrun.h"

#include "daemonprocess.h"
#include "databasefaults.h"
#include "queueprobe.h"
#include "testcluster.h"
#include "testdatabase.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QFile>
#include <QRandomGenerator>
#include <QSqlQuery>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace {

constexpr int InsertBatch = 2000;
constexpr int RowLockSeconds = 10;

// Runs the event loop (the daemon's stderr must keep flowing) for `ms`.
void pump(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

int settled(const QMap<QString, int> &byStatus)
{
    return byStatus.value(u"done"_s) + byStatus.value(u"failed"_s) + byStatus.value(u"timeout"_s);
}

} // namespace

SoakRun::SoakRun(const SoakOptions &options)
    : m_options(options)
    , m_plan(options.messages, options.seed)
    , m_out(stdout)
{ }

SoakRun::~SoakRun() = default;

int SoakRun::run()
{
    if (!TestDatabase::isConfigured()) {
        m_out << "soak: PEPSI_TEST_DATABASE is not set: export PEPSI_TEST_DATABASE=$(scripts/pg-sandbox start)\n";
        return 77;
    }
    m_clock.start();
    m_db = std::make_unique<TestDatabase>(u"soak"_s);
    if (!m_db->isValid()) {
        m_out << "soak: " << m_db->errorString() << '\n';
        return 1;
    }
    m_queue = std::make_unique<QueueProbe>(m_db->db());
    QRandomGenerator random(m_options.seed ^ 0x5eed5eedu);
    const int n = m_options.messages;
    if (m_options.killDaemon)
        m_killAt = int(n * (0.2 + 0.25 * random.generateDouble()));
    if (m_options.restartDatabase)
        m_restartAt = int(n * (0.55 + 0.25 * random.generateDouble()));
    if (m_options.rowLocks)
        m_lockAt = int(n * (0.05 + 0.1 * random.generateDouble()));
    if (m_options.terminateSessions)
        m_terminateAt = int(n * (0.4 + 0.1 * random.generateDouble()));

    m_out << "soak: " << n << " messages through a -> b -> c, seed " << m_options.seed << ", database " << m_db->name()
          << '\n';
    for (const QString &stage : SoakPlan::Stages) {
        m_out << "  faults at " << stage << ':';
        const auto faults = m_plan.faultCounts().value(stage);
        for (auto it = faults.cbegin(); it != faults.cend(); ++it)
            m_out << ' ' << it.key() << ' ' << it.value();
        m_out << '\n';
    }
    m_out << "  daemon SIGKILL after " << m_killAt << " settled, PostgreSQL restart after " << m_restartAt
          << " settled, row locks after " << m_lockAt << " settled (held " << RowLockSeconds
          << " s), pg_terminate_backend after " << m_terminateAt << " settled (-1: not planned)\n";
    m_out.flush();

    if (!startDaemon() || !insertAll())
        return 1;
    settle();
    bool pass = report();
    if (m_daemon->isRunning()) {
        const int code = m_daemon->terminate(30000);
        m_out << "daemon stopped with exit status " << code << '\n';
        pass = pass && code == 0;
    }
    m_out << "result: " << (pass ? "PASS" : "FAIL") << '\n';
    m_out.flush();
    reconnectAll(); // the test database is dropped over the admin connection
    return pass ? 0 : 1;
}

bool SoakRun::startDaemon()
{
    auto daemon = std::make_unique<DaemonProcess>(m_db->uri());
    daemon->setOption(u"MAX_RUNTIME"_s, u"%1 s"_s.arg(SoakPlan::MaxRuntimeSeconds));
    daemon->setOption(u"TEMPFAIL_DELAY"_s, u"500 ms"_s);
    daemon->setOption(u"POLL_INTERVAL"_s, u"5 s"_s);
    daemon->setOption(u"STATS_INTERVAL"_s, u"10 s"_s);
    daemon->addStage(u"a"_s, DaemonProcess::fakeWorker(), {{u"NEXT"_s, u"b"_s}});
    daemon->addStage(u"b"_s, DaemonProcess::fakeWorker(), {{u"NEXT"_s, u"c"_s}});
    daemon->addStage(u"c"_s, DaemonProcess::fakeWorker());
    const QString config = daemon->writeConfig();
    // INFO: a DEBUG log of 100,000 messages would only fill memory.
    if (config.isEmpty() || !daemon->startWith({u"-c"_s, config, u"-L"_s, u"INFO"_s, u"serve"_s})
        || !daemon->waitForReady(30000)) {
        m_out << "soak: the daemon did not start:\n" << daemon->log() << '\n';
        return false;
    }
    m_daemon = std::move(daemon);
    return true;
}

bool SoakRun::insertAll()
{
    const QList<QJsonObject> &fakes = m_plan.fakes();
    for (qsizetype from = 0; from < fakes.size(); from += InsertBatch) {
        const QList<QJsonObject> batch = fakes.mid(from, InsertBatch);
        const QList<qint64> ids = m_queue->insertFakes(u"a"_s, batch);
        if (ids.size() != batch.size()) {
            m_out << "soak: inserting messages " << from << ".. failed\n";
            return false;
        }
        for (qsizetype i = 0; i < ids.size(); ++i)
            m_index.insert(ids[i], int(from + i));
        QCoreApplication::processEvents();
    }
    m_out << "[" << Qt::fixed << qSetRealNumberPrecision(1) << elapsedSeconds() << " s] inserted " << fakes.size()
          << " messages\n";
    m_out.flush();
    return true;
}

void SoakRun::settle()
{
    QMap<QString, int> last;
    QElapsedTimer sinceChange, sinceProgress;
    sinceChange.start();
    sinceProgress.start();
    for (;;) {
        pump(250);
        QMap<QString, int> byStatus;
        QSqlQuery q(m_db->db());
        if (!q.exec(u"SELECT status::text, count(*) FROM workqueue GROUP BY 1"_s)) {
            reconnectAll();
            continue;
        }
        while (q.next())
            byStatus.insert(q.value(0).toString(), q.value(1).toInt());
        const int done = settled(byStatus);
        if (m_killAt >= 0 && done >= m_killAt) {
            m_killAt = -1;
            killDaemon();
        }
        if (m_restartAt >= 0 && done >= m_restartAt) {
            m_restartAt = -1;
            restartDatabase();
        }
        if (m_lockAt >= 0 && done >= m_lockAt) {
            m_lockAt = -1;
            lockRows();
        }
        if (m_lockedFor.isValid() && m_lockedFor.elapsed() >= RowLockSeconds * 1000)
            releaseRows();
        if (m_terminateAt >= 0 && done >= m_terminateAt) {
            m_terminateAt = -1;
            terminateSessions();
        }
        if (byStatus != last) {
            last = byStatus;
            sinceChange.restart();
        }
        if (sinceProgress.elapsed() >= 5000 || done == m_plan.size()) {
            progress(byStatus);
            sinceProgress.restart();
        }
        if (done == m_plan.size())
            return;
        if (!m_daemon->isRunning()) {
            m_events << u"the daemon exited on its own (status %1)"_s.arg(m_daemon->waitForExit(0));
            return;
        }
        if (sinceChange.elapsed() > m_options.stallSeconds * 1000) {
            m_events << u"nothing settled for %1 s: giving up"_s.arg(m_options.stallSeconds);
            return;
        }
    }
}

void SoakRun::progress(const QMap<QString, int> &byStatus)
{
    const double seconds = elapsedSeconds();
    m_out << "[" << Qt::fixed << qSetRealNumberPrecision(1) << seconds << " s] settled " << settled(byStatus) << '/'
          << m_plan.size() << " (" << qRound(settled(byStatus) / std::max(seconds, 0.1)) << "/s)";
    for (const char *status : {"pending", "running", "paused"})
        m_out << ' ' << status << ' ' << byStatus.value(QString::fromLatin1(status));
    m_out << '\n';
    m_out.flush();
}

void SoakRun::killDaemon()
{
    const QList<qint64> workers = m_daemon->workerPids();
    m_daemon->kill();
    QElapsedTimer clock;
    clock.start();
    QList<qint64> survivors = workers;
    while (!survivors.isEmpty() && clock.elapsed() < 5000) {
        pump(20);
        survivors.removeIf([](qint64 pid) { return DaemonProcess::isGone(pid); });
    }
    const int orphans = m_queue->count(u"status = 'running'"_s);
    m_orphansAtKill = orphans;
    const QString event = u"%1 s: daemon SIGKILLed with %2 rows running; %3 of its %4 workers outlived it by 5 s"_s
                              .arg(elapsedSeconds(), 0, 'f', 1)
                              .arg(orphans)
                              .arg(survivors.size())
                              .arg(workers.size());
    m_events << event;
    m_out << event << '\n';
    if (!survivors.isEmpty())
        m_problems << u"workers of the killed daemon survived it"_s;
    m_previous.append(std::shared_ptr<DaemonProcess>(std::move(m_daemon)));
    if (!startDaemon())
        m_problems << u"the fresh daemon did not start"_s;
}

void SoakRun::restartDatabase()
{
    TestCluster cluster;
    if (!cluster.probe()) {
        m_events << u"PostgreSQL restart skipped: "_s + cluster.whyNot();
        return;
    }
    QElapsedTimer clock;
    clock.start();
    QString error;
    const bool restarted = cluster.restart(&error);
    reconnectAll();
    const QString event = u"%1 s: PostgreSQL restarted (%2 ms)"_s.arg(elapsedSeconds(), 0, 'f', 1).arg(clock.elapsed());
    m_events << (restarted ? event : u"PostgreSQL restart failed: "_s + error);
    m_out << m_events.last() << '\n';
    if (!restarted)
        m_problems << error;
}

void SoakRun::lockRows()
{
    m_faults = std::make_unique<DatabaseFaults>(m_db->newConnection(u"rowlocks"_s));
    const QString what = m_faults->lockRows(20, 5);
    const QString event = u"%1 s: an open transaction holds row locks: %2"_s.arg(elapsedSeconds(), 0, 'f', 1).arg(what);
    m_events << event;
    m_out << event << '\n';
    if (m_faults->holdsLocks())
        m_lockedFor.start();
    else
        m_problems << what;
}

void SoakRun::releaseRows()
{
    m_faults->releaseRows();
    m_lockedFor.invalidate();
    m_events << u"%1 s: row locks released"_s.arg(elapsedSeconds(), 0, 'f', 1);
    m_out << m_events.last() << '\n';
}

void SoakRun::terminateSessions()
{
    DatabaseFaults faults(m_db->db());
    const int ended = faults.terminateDispatcher(m_daemon->pid());
    m_events << u"%1 s: pg_terminate_backend ended %2 sessions of the dispatcher"_s.arg(elapsedSeconds(), 0, 'f', 1)
                    .arg(ended);
    m_out << m_events.last() << '\n';
    if (ended < 1)
        m_problems << u"no dispatcher session to end"_s;
}

void SoakRun::reconnectAll()
{
    for (const QString &name : QSqlDatabase::connectionNames()) {
        QSqlDatabase db = QSqlDatabase::database(name, false);
        QSqlQuery ping(db);
        if (db.isOpen() && ping.exec(u"SELECT 1"_s))
            continue;
        db.close();
        db.open();
    }
}

bool SoakRun::report()
{
    const QList<QueueRow> rows = m_queue->rows();
    QMap<QString, int> byStatus;
    QMap<QString, QMap<int, int>> runsHistogram; // stage -> runs -> messages
    int statusWrong = 0, errorWrong = 0, missingRuns = 0, extraRuns = 0, unknown = 0;
    QStringList examples;
    const auto example = [&examples](const QString &what, const QueueRow &row) {
        if (examples.size() < 10)
            examples << what + u": "_s + row.describe();
    };
    for (const QueueRow &row : rows) {
        ++byStatus[row.status];
        for (const QString &stage : SoakPlan::Stages)
            ++runsHistogram[stage][row.runs(stage)];
        const int index = m_index.value(row.id, -1);
        if (index < 0) {
            ++unknown;
            continue;
        }
        if (row.status != u"done"_s && row.status != u"failed"_s && row.status != u"timeout"_s)
            continue; // counted as stuck or lost below
        const SoakPlan::Expected expected = m_plan.expected(index);
        if (row.status != expected.status || row.stage != expected.stage) {
            ++statusWrong;
            example(u"expected %1 at %2"_s.arg(expected.status, expected.stage), row);
        }
        const bool fromTryLater = row.dispatchError && row.dispatchError->startsWith(u"status 75: "_s);
        const bool errorMatches = expected.errorIsPrefix
            ? row.dispatchError && expected.error && row.dispatchError->startsWith(*expected.error)
            : row.dispatchError == expected.error;
        const bool errorOk = expected.status != u"done"_s ? errorMatches
            : expected.triedLater                         ? fromTryLater
                                                          : (!row.dispatchError || fromTryLater); // an outage's 75
        if (!errorOk) {
            ++errorWrong;
            example(u"expected dispatch_error %1"_s.arg(expected.error.value_or(u"none"_s)), row);
        }
        bool extra = false;
        for (const QString &stage : SoakPlan::Stages) {
            const int want = expected.runs.value(stage, 0);
            if (row.runs(stage) < want) {
                ++missingRuns;
                example(u"ran %1 less than planned"_s.arg(stage), row);
            }
            extra = extra || row.runs(stage) > want;
        }
        extraRuns += extra ? 1 : 0;
    }
    const int stuck = byStatus.value(u"running"_s);
    const int lost = byStatus.value(u"pending"_s) + byStatus.value(u"paused"_s) + (m_plan.size() - int(rows.size()));

    m_out << "\n=== soak report ===\n";
    m_out << "messages " << m_plan.size() << ", seed " << m_options.seed << ", duration " << Qt::fixed
          << qSetRealNumberPrecision(1) << elapsedSeconds() << " s\n";
    for (const QString &event : std::as_const(m_events))
        m_out << "event: " << event << '\n';
    m_out << "done " << byStatus.value(u"done"_s) << ", failed " << byStatus.value(u"failed"_s) << ", timeout "
          << byStatus.value(u"timeout"_s) << ", stuck running " << stuck << ", lost " << lost << " (pending "
          << byStatus.value(u"pending"_s) << ", paused " << byStatus.value(u"paused"_s) << ", missing rows "
          << m_plan.size() - rows.size() << ")\n";
    m_out << "against the plan: " << statusWrong << " wrong final status/stage, " << errorWrong
          << " wrong dispatch_error, " << missingRuns << " missing stage runs, " << extraRuns
          << " messages with reruns (allowed: at most the " << m_orphansAtKill << " rows in flight at the SIGKILL), "
          << unknown << " unknown rows\n";
    for (const QString &stage : SoakPlan::Stages) {
        m_out << "runs per message at " << stage << ':';
        const QMap<int, int> &histogram = runsHistogram[stage];
        for (auto it = histogram.cbegin(); it != histogram.cend(); ++it)
            m_out << "  " << it.key() << "x: " << it.value();
        m_out << '\n';
    }
    int lostLines = 0, restoredLines = 0;
    QList<DaemonProcess *> daemons;
    for (const auto &previous : std::as_const(m_previous))
        daemons << previous.get();
    daemons << m_daemon.get();
    for (DaemonProcess *daemon : std::as_const(daemons)) {
        lostLines += daemon->countLog(QRegularExpression(u"^WARNING pepsi.dispatch.store: database connection lost"_s));
        restoredLines +=
            daemon->countLog(QRegularExpression(u"^INFO pepsi.dispatch.store: database connection restored"_s));
    }
    m_out << "daemon log: 'database connection lost' " << lostLines << ", 'database connection restored' "
          << restoredLines << '\n';
    m_out << "statistics: stage_stats.runs " << m_queue->scalar(u"SELECT coalesce(sum(runs), 0) FROM stage_stats"_s)
          << ", crashes " << m_queue->scalar(u"SELECT coalesce(sum(crashes), 0) FROM stage_stats"_s) << ", timeouts "
          << m_queue->scalar(u"SELECT coalesce(sum(timeouts), 0) FROM stage_stats"_s)
          << " (the killed daemon's unflushed deltas are gone)\n";
    for (const QString &line : std::as_const(examples))
        m_out << "  e.g. " << line << '\n';
    for (const QString &problem : std::as_const(m_problems))
        m_out << "problem: " << problem << '\n';
    m_out.flush();
    return stuck == 0 && lost == 0 && statusWrong == 0 && errorWrong == 0 && missingRuns == 0 && unknown == 0
        && extraRuns <= m_orphansAtKill && m_problems.isEmpty();
}
