// SPDX-License-Identifier: AGPL-3.0-or-later
// The dispatcher's core as a real process: flow through stages, the worker
// cap, pipelining and packing, idle reaping, recycling, a stage that cannot
// start, descriptor hygiene and failure reports. Workers are the fake worker,
// scripted per message by state.fake.<stage>.
#include "daemonprocess.h"
#include "daemonstart.h"
#include "daemontest.h"
#include "sampler.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QSqlError>
#include <QSqlQuery>
#include <QTest>
#include <QTimer>

#include <fcntl.h>
#include <memory>
#include <sys/resource.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

class tst_DispatchCore : public DaemonTest
{
    Q_OBJECT

private Q_SLOTS:
    void threeStageFlow();
    void parallelismIsACap();
    void pipelinesAndPacks();
    void reapsIdleWorkers();
    void recyclesAfterMaxMessages();
    void missingProgramIsHeldOff();
    void workersInheritNoDescriptors();
    void openFileLimitRaisedForTheDaemonOnly();
    void failureKeepsTheWorker_data();
    void failureKeepsTheWorker();

private:
    // `count` rows at `stage`; `fake` is state.fake (stage -> mode), may be empty.
    bool insertMessages(const QString &stage, int count, const QJsonObject &fake = {});
    QVariant scalar(const QString &sql);
};

namespace {

// The soft limit of open files of a process, from /proc/PID/limits; -1: unknown.
qint64 softFileLimit(qint64 pid)
{
    QFile limits(u"/proc/%1/limits"_s.arg(pid));
    if (!limits.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : limits.readAll().split('\n'))
        if (line.startsWith("Max open files"))
            return line.mid(int(sizeof "Max open files")).simplified().split(' ').value(0).toLongLong();
    return -1;
}

// Samples a value every 20 ms while the test waits, keeping the largest.
class MaxSampler
{
public:
    explicit MaxSampler(std::function<qsizetype()> sample)
        : m_sampler([this, sample = std::move(sample)] { m_max = std::max(m_max, sample()); })
    { }
    qsizetype max() const { return m_max; }
    int samples() const { return m_sampler.samples(); }

private:
    qsizetype m_max = 0; // before m_sampler: it takes its first sample as it is made
    Sampler m_sampler;
};

} // namespace

bool tst_DispatchCore::insertMessages(const QString &stage, int count, const QJsonObject &fake)
{
    return !m_queue->insert(stage, count, fake).isEmpty();
}

QVariant tst_DispatchCore::scalar(const QString &sql)
{
    QSqlQuery q(m_db->db());
    if (!q.exec(sql) || !q.next()) {
        qWarning("%s failed: %s", qPrintable(sql), qPrintable(q.lastError().text()));
        return {};
    }
    return q.value(0);
}

// 1. Every message passes a -> b -> c once and ends done.
void tst_DispatchCore::threeStageFlow()
{
    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"a"_s, DaemonProcess::fakeWorker(), {{u"NEXT"_s, u"b"_s}});
    daemon.addStage(u"b"_s, DaemonProcess::fakeWorker(), {{u"NEXT"_s, u"c"_s}});
    daemon.addStage(u"c"_s, DaemonProcess::fakeWorker());
    QVERIFY(startReady(daemon));

    QVERIFY(insertMessages(u"a"_s, 500));
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status = 'done'"_s), 500, 20000);
    QCOMPARE(m_queue->count(u"stage = 'c'"_s), 500);
    QCOMPARE(m_queue->count(u"(state->'runs'->>'a')::int = 1 AND (state->'runs'->>'b')::int = 1 "
                            "AND (state->'runs'->>'c')::int = 1"_s),
             500);
    QCOMPARE(m_queue->count(u"state ? 'dispatch_error'"_s), 0);
    QCOMPARE(daemon.terminate(), 0);
}

// 2. PARALLELISM bounds the stage's live worker processes.
void tst_DispatchCore::parallelismIsACap()
{
    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"s"_s, DaemonProcess::fakeWorker(), {{u"PARALLELISM"_s, u"2"_s}});
    QVERIFY(startReady(daemon));

    MaxSampler ofStage([&daemon] { return daemon.workerPids(u"s"_s).size(); });
    // The only stage: every child counts, even one between fork and exec.
    MaxSampler children([&daemon] { return daemon.workerPids().size(); });
    QVERIFY(insertMessages(u"s"_s, 200, {{u"s"_s, u"slow:20"_s}}));
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status = 'done'"_s), 200, 20000);
    qInfo("%d samples; at most %lld workers of the stage, %lld children", ofStage.samples(), qint64(ofStage.max()),
          qint64(children.max()));
    QVERIFY(ofStage.samples() > 20);
    QVERIFY(ofStage.max() > 0);
    QVERIFY2(ofStage.max() <= 2, qPrintable(u"%1 workers at once"_s.arg(ofStage.max())));
    QVERIFY2(children.max() <= 2, qPrintable(u"%1 children at once"_s.arg(children.max())));
    QCOMPARE(m_queue->count(u"(state->'runs'->>'s')::int = 1"_s), 200);
    QCOMPARE(daemon.terminate(), 0);
}

// 3. Four slow messages all go to one worker at once (QUEUE_LIMIT 4): one
// worker holds four unanswered ids rather than four workers one each.
void tst_DispatchCore::pipelinesAndPacks()
{
    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"s"_s, DaemonProcess::fakeWorker(), {{u"PARALLELISM"_s, u"4"_s}, {u"QUEUE_LIMIT"_s, u"4"_s}});
    QVERIFY(startReady(daemon));

    QVERIFY(insertMessages(u"s"_s, 4, {{u"s"_s, u"slow:300"_s}}));
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status = 'running'"_s), 4, 5000);
    MaxSampler workers([&daemon] { return daemon.workerPids().size(); });
    // The claim commits a moment before the daemon forks the worker.
    QTRY_COMPARE_WITH_TIMEOUT(daemon.workerPids().size(), 1, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status = 'done'"_s), 4, 10000);
    QCOMPARE(workers.max(), 1);
    QCOMPARE(scalar(u"SELECT count(DISTINCT state->'pids'->>'s') FROM workqueue"_s).toInt(), 1);
    QCOMPARE(m_queue->count(u"(state->'runs'->>'s')::int = 1"_s), 4);
    QCOMPARE(daemon.terminate(), 0);
}

// 4. A quiet stage goes back to zero workers after WORKER_IDLE_TIMEOUT.
void tst_DispatchCore::reapsIdleWorkers()
{
    DaemonProcess daemon(m_db->uri());
    daemon.setOption(u"WORKER_IDLE_TIMEOUT"_s, u"300 ms"_s);
    daemon.addStage(u"s"_s, DaemonProcess::fakeWorker(), {{u"PARALLELISM"_s, u"3"_s}, {u"QUEUE_LIMIT"_s, u"1"_s}});
    QVERIFY(startReady(daemon));

    MaxSampler workers([&daemon] { return daemon.workerPids().size(); });
    QVERIFY(insertMessages(u"s"_s, 30, {{u"s"_s, u"slow:20"_s}}));
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status = 'done'"_s), 30, 15000);
    QVERIFY(workers.max() > 0);
    QTRY_COMPARE_WITH_TIMEOUT(daemon.workerPids().size(), 0, 5000);
    QVERIFY2(daemon.countLog(QRegularExpression(u"idle; stopping it"_s)) > 0, qPrintable(daemon.log()));
    // The stage still works after going to zero.
    QVERIFY(insertMessages(u"s"_s, 1));
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status = 'done'"_s), 31, 10000);
    QCOMPARE(daemon.terminate(), 0);
}

// 5. A worker recycles after MAX_MESSAGES: a new process takes over.
void tst_DispatchCore::recyclesAfterMaxMessages()
{
    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"s"_s, DaemonProcess::fakeWorker(), {{u"PARALLELISM"_s, u"1"_s}, {u"MAX_MESSAGES"_s, u"5"_s}});
    QVERIFY(startReady(daemon));

    QVERIFY(insertMessages(u"s"_s, 20));
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status = 'done'"_s), 20, 15000);
    QCOMPARE(m_queue->count(u"(state->'runs'->>'s')::int = 1"_s), 20);
    const int pids = scalar(u"SELECT count(DISTINCT state->'pids'->>'s') FROM workqueue"_s).toInt();
    QVERIFY2(pids >= 4, qPrintable(u"%1 distinct workers ran 20 messages"_s.arg(pids)));
    const int most = scalar(u"SELECT max(n) FROM (SELECT count(*) AS n FROM workqueue "
                            "GROUP BY state->'pids'->>'s') AS per_worker"_s)
                         .toInt();
    QVERIFY2(most <= 5, qPrintable(u"one worker ran %1 messages with MAX_MESSAGES = 5"_s.arg(most)));
    QCOMPARE(daemon.terminate(), 0);
}

// 6. A stage whose PROGRAM is missing is held off (one warning, no spinning,
// its rows stay pending) while the healthy stage runs.
void tst_DispatchCore::missingProgramIsHeldOff()
{
    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"broken"_s, u"/nonexistent/x"_s);
    daemon.addStage(u"good"_s, DaemonProcess::fakeWorker());
    QVERIFY(startReady(daemon));

    QVERIFY(insertMessages(u"broken"_s, 5));
    QVERIFY(insertMessages(u"good"_s, 50));
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"stage = 'good' AND status = 'done'"_s), 50, 15000);
    QVERIFY2(daemon.waitForLog(QRegularExpression(u"cannot run workers"_s)), qPrintable(daemon.log()));

    // A window: that the daemon does not spin shows only as CPU time it does
    // not spend over a while (a spinning loop burns ~3 s of it in 3 s; the
    // retries of a held-off stage cost a few ms).
    constexpr int QuietWindowMs = 3000;
    const qint64 before = daemon.cpuTimeMs();
    QTest::qWait(QuietWindowMs);
    const qint64 spent = daemon.cpuTimeMs() - before;
    qInfo("daemon CPU over %d ms with a broken stage: %lld ms (%lld ms in all)", QuietWindowMs, spent, before + spent);
    QVERIFY2(spent < 150, qPrintable(u"%1 ms of CPU in %2 ms"_s.arg(spent).arg(QuietWindowMs)));

    // None lost, none left running (a claim round may hold them for an instant).
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"stage = 'broken' AND status = 'running'"_s), 0, 1000);
    QCOMPARE(m_queue->count(u"stage = 'broken' AND status = 'pending'"_s), 5);
    QCOMPARE(m_queue->count(u"stage = 'broken' AND state ? 'runs'"_s), 0);
    const QRegularExpression warning(u"^WARNING [a-z.]*: ?stage broken cannot run workers: "
                                     "PROGRAM \"/nonexistent/x\" does not exist"_s);
    QTRY_COMPARE(daemon.countLog(warning), 1);
    QTRY_COMPARE(daemon.countLog(QRegularExpression(u"^WARNING .*cannot run workers"_s)), 1);
    QCOMPARE(daemon.terminate(), 0);
}

// 7. A worker gets stdin, stdout and stderr as pipes and none of the
// daemon's other descriptors, not even ones the daemon itself inherited.
void tst_DispatchCore::workersInheritNoDescriptors()
{
    // A descriptor without FD_CLOEXEC: the daemon inherits it from us.
    int leak[2];
    QCOMPARE(::pipe(leak), 0);
    const auto closeLeak = qScopeGuard([&leak] {
        ::close(leak[0]);
        ::close(leak[1]);
    });

    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"s"_s, DaemonProcess::fakeWorker());
    QVERIFY(startReady(daemon));
    QVERIFY(insertMessages(u"s"_s, 1, {{u"s"_s, u"slow:2000"_s}}));
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status = 'running'"_s), 1, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(daemon.workerPids(u"s"_s).size(), 1, 5000);
    const qint64 worker = daemon.workerPids(u"s"_s).constFirst();

    QSet<QString> daemonObjects;
    for (const auto &[fd, target] : DaemonProcess::openFiles(daemon.pid())) {
        if (target.startsWith(u"socket:"_s) || target.startsWith(u"pipe:"_s))
            daemonObjects.insert(target);
    }
    QVERIFY2(daemonObjects.size() >= 3, "the daemon should hold sockets and pipes");
    char leakTarget[64];
    const ssize_t n = ::readlink(qPrintable(u"/proc/self/fd/%1"_s.arg(leak[0])), leakTarget, sizeof leakTarget);
    QVERIFY(n > 0);
    QVERIFY2(daemonObjects.contains(QString::fromLatin1(leakTarget, n)), "the daemon did not inherit the test's pipe");

    const auto files = DaemonProcess::openFiles(worker);
    QVERIFY(files.size() >= 3);
    for (const auto &[fd, target] : files) {
        if (fd <= 2) {
            QVERIFY2(target.startsWith(u"pipe:"_s), qPrintable(u"fd %1 -> %2"_s.arg(fd).arg(target)));
            continue;
        }
        QVERIFY2(!daemonObjects.contains(target),
                 qPrintable(u"worker fd %1 -> %2 is the daemon's"_s.arg(fd).arg(target)));
    }
    for (int fd = 0; fd <= 2; ++fd)
        QVERIFY2(std::any_of(files.cbegin(), files.cend(), [fd](const auto &f) { return f.first == fd; }),
                 qPrintable(u"worker fd %1 is not open"_s.arg(fd)));
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status = 'done'"_s), 1, 10000);
    QCOMPARE(daemon.terminate(), 0);
}

// A few hundred workers pass a soft limit of 1024 descriptors: the daemon
// raises its own to the hard limit, and its workers keep the one it got.
void tst_DispatchCore::openFileLimitRaisedForTheDaemonOnly()
{
    rlimit ours{};
    QCOMPARE(::getrlimit(RLIMIT_NOFILE, &ours), 0);
    if (ours.rlim_max != RLIM_INFINITY && ours.rlim_max <= 512)
        QSKIP("the hard limit of open files leaves no room below it");
    const rlimit lowered{512, ours.rlim_max};
    QCOMPARE(::setrlimit(RLIMIT_NOFILE, &lowered), 0);
    const auto restore = qScopeGuard([&ours] { ::setrlimit(RLIMIT_NOFILE, &ours); });

    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"s"_s, DaemonProcess::fakeWorker());
    QVERIFY(startReady(daemon));
    ::setrlimit(RLIMIT_NOFILE, &ours);
    QVERIFY(insertMessages(u"s"_s, 1, {{u"s"_s, u"slow:2000"_s}}));
    QTRY_COMPARE_WITH_TIMEOUT(daemon.workerPids(u"s"_s).size(), 1, 5000);

    const qint64 hard = ours.rlim_max == RLIM_INFINITY ? -1 : qint64(ours.rlim_max);
    if (hard > 0)
        QCOMPARE(softFileLimit(daemon.pid()), hard);
    else
        QVERIFY(softFileLimit(daemon.pid()) != 512);
    QCOMPARE(softFileLimit(daemon.workerPids(u"s"_s).constFirst()), qint64(512));
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status = 'done'"_s), 1, 10000);
    QCOMPARE(daemon.terminate(), 0);
}

// A non-zero answer fails that message only; the worker goes on.
void tst_DispatchCore::failureKeepsTheWorker_data()
{
    QTest::addColumn<QString>("mode");
    QTest::addColumn<QString>("error");
    QTest::newRow("fail:3") << u"fail:3"_s << u"status 3: fake failure"_s;
    QTest::newRow("fail:100") << u"fail:100"_s << u"status 100: fake failure"_s;
}

void tst_DispatchCore::failureKeepsTheWorker()
{
    QFETCH(QString, mode);
    QFETCH(QString, error);
    DaemonProcess daemon(m_db->uri());
    daemon.setOption(u"WORKER_IDLE_TIMEOUT"_s, u"60 s"_s);
    daemon.addStage(u"s"_s, DaemonProcess::fakeWorker());
    QVERIFY(startReady(daemon));

    QVERIFY(insertMessages(u"s"_s, 1, {{u"s"_s, mode}}));
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status = 'failed'"_s), 1, 10000);
    QCOMPARE(scalar(u"SELECT state->>'dispatch_error' FROM workqueue"_s).toString(), error);
    QCOMPARE(scalar(u"SELECT stage FROM workqueue"_s).toString(), u"s"_s);
    const QList<qint64> workers = daemon.workerPids(u"s"_s);
    QCOMPARE(workers.size(), 1);

    QVERIFY(insertMessages(u"s"_s, 1));
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status = 'done'"_s), 1, 10000);
    QCOMPARE(scalar(u"SELECT (state->'pids'->>'s')::bigint FROM workqueue WHERE status = 'done'"_s).toLongLong(),
             workers.constFirst());
    QCOMPARE(daemon.workerPids(u"s"_s), workers);
    QCOMPARE(daemon.terminate(), 0);
}

QTEST_GUILESS_MAIN(tst_DispatchCore)
#include "tst_dispatchcore.moc"
