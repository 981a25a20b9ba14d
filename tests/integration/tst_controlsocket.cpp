// SPDX-License-Identifier: AGPL-3.0-or-later
// The control socket of a real pepsi-dispatch with a flowing pipeline: every
// command and field, the admin refusal for another user (a client run as
// pepsi-test) and acceptance for the service account, a second daemon on the
// same socket, a stale socket file, events that match what happens (a killed
// worker, a drained stage, requeued rows), the round trip of `status` while
// 5,000 messages flow, and the documented scripts (socat, pepsi-rates.py).
#include "controltestclient.h"
#include "daemonprocess.h"
#include "queueprobe.h"
#include "testdatabase.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTest>

#include <algorithm>
#include <csignal>
#include <memory>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace {

QStringList keysOf(const QJsonValue &value)
{
    QStringList keys = value.toObject().keys();
    keys.sort();
    return keys;
}

QStringList sorted(QStringList list)
{
    list.sort();
    return list;
}

// Every documented field is there (more may come: the protocol allows it).
bool hasAll(const QJsonValue &value, const QStringList &fields, QString *missing)
{
    const QJsonObject object = value.toObject();
    for (const QString &field : fields) {
        if (!object.contains(field)) {
            *missing = field + u" in "_s + QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact)).left(400);
            return false;
        }
    }
    return true;
}

#define VERIFY_FIELDS(value, ...)                                                                                      \
    do {                                                                                                               \
        QString missing_;                                                                                              \
        QVERIFY2(hasAll(value, QStringList{__VA_ARGS__}, &missing_), qPrintable(u"missing "_s + missing_));           \
    } while (false)

// A client in Python run as another account: one reply line per request.
const char *const PeerScript = R"py(
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
f = s.makefile('rw')
for line in sys.argv[2:]:
    f.write(line + '\n')
    f.flush()
    print(f.readline().strip(), flush=True)
)py";

qint64 rssKiB(qint64 pid)
{
    return DaemonProcess::procStatusField(pid, u"VmRSS"_s).split(u' ').first().toLongLong();
}

uint uidOf(const char *account)
{
    const passwd *entry = ::getpwnam(account);
    return entry ? entry->pw_uid : uint(-1);
}

} // namespace

class tst_ControlSocket : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void everyCommandAndField();
    void statusRoundTripWhileFlowing();
    void adminRefusedToOtherUsers();
    void secondDaemonOnTheSameSocket();
    void staleSocketIsReplaced();
    void standbyLeavesTheSocket();
    void nonReaderIsDropped();
    void killedWorkerIsReported();
    void drainedStageClaimsNothing();
    void requeuedRowsFinish();
    void documentedScripts();

private:
    bool startDaemon(DaemonProcess &daemon, const QStringList &arguments = {});
    QList<QJsonObject> runAs(const char *account, const QString &socket, const QStringList &requests);

    std::unique_ptr<TestDatabase> m_db;
};

void tst_ControlSocket::initTestCase()
{
    QVERIFY2(DaemonProcess::missingBinaries().isEmpty(), qPrintable(DaemonProcess::missingBinaries()));
}

void tst_ControlSocket::init()
{
    PEPSI_REQUIRE_DATABASE_IN(m_db, "");
}

void tst_ControlSocket::cleanup()
{
    m_db.reset();
}

bool tst_ControlSocket::startDaemon(DaemonProcess &daemon, const QStringList &arguments)
{
    if (!daemon.start(arguments) || !daemon.waitForReady()) {
        qWarning("the daemon did not get ready: %s", qPrintable(daemon.log()));
        return false;
    }
    return true;
}

QList<QJsonObject> tst_ControlSocket::runAs(const char *account, const QString &socket, const QStringList &requests)
{
    QProcess client;
    client.start(u"runuser"_s, QStringList{u"-u"_s, QString::fromLatin1(account), u"--"_s, u"python3"_s, u"-c"_s,
                                          QString::fromLatin1(PeerScript), socket} + requests);
    // The event loop runs meanwhile: the daemon's log must not fill its pipe.
    if (!QTest::qWaitFor([&client] { return client.state() == QProcess::NotRunning; }, 20000) || client.exitCode() != 0) {
        qWarning("client as %s failed: %s", account, client.readAllStandardError().constData());
        return {};
    }
    QList<QJsonObject> replies;
    for (const QByteArray &line : client.readAllStandardOutput().split('\n')) {
        if (!line.isEmpty())
            replies.append(QJsonDocument::fromJson(line).object());
    }
    return replies;
}

// Every command, and every documented field of its reply, while messages flow.
void tst_ControlSocket::everyCommandAndField()
{
    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"a"_s, DaemonProcess::fakeWorker(), {{u"NEXT"_s, u"b"_s}});
    daemon.addStage(u"b"_s, DaemonProcess::fakeWorker(), {{u"PARALLELISM"_s, u"2"_s}});
    QVERIFY(startDaemon(daemon));
    ControlTestClient client;
    QVERIFY(client.connectTo(daemon.controlSocket()));
    QVERIFY(client.request(R"({"cmd":"subscribe"})"_ba).value(u"ok"_s).toBool());
    QueueProbe probe(m_db->db());
    QVERIFY(!probe.insert(u"a"_s, 2000, {{u"a"_s, u"slow:2"_s}}).isEmpty());

    // help
    const QJsonObject help = client.request(R"({"cmd":"help"})"_ba).value(u"result"_s).toObject();
    QCOMPARE(help.value(u"commands"_s).toArray().size(), 13);
    VERIFY_FIELDS(help.value(u"commands"_s)[0], u"cmd"_s, u"admin"_s, u"summary"_s, u"args"_s);
    QVERIFY(help.value(u"events"_s).toArray().contains(u"worker_crashed"_s));

    // version
    const QJsonObject version = client.request(R"({"id":1,"cmd":"version"})"_ba).value(u"result"_s).toObject();
    VERIFY_FIELDS(version, u"daemon"_s, u"protocol"_s, u"pid"_s, u"started"_s, u"uptime_ms"_s, u"host"_s, u"database"_s,
                  u"user"_s, u"role"_s, u"state"_s, u"standby"_s, u"peer"_s);
    QCOMPARE(version.value(u"protocol"_s).toInt(), 1);
    QCOMPARE(qint64(version.value(u"pid"_s).toDouble()), daemon.pid());
    QCOMPARE(version.value(u"database"_s).toString(), m_db->name());
    QCOMPARE(version.value(u"user"_s).toString(), DaemonProcess::runningAsRoot() ? DaemonProcess::serviceUser()
                                                                                 : version.value(u"user"_s).toString());
    QCOMPARE(version.value(u"role"_s).toString(), u"active"_s);
    QCOMPARE(version.value(u"state"_s).toString(), u"running"_s);
    QCOMPARE(version.value(u"standby"_s).toBool(), false);
    QCOMPARE(version.value(u"peer"_s)[u"pid"_s].toInteger(), QCoreApplication::applicationPid());
    QCOMPARE(version.value(u"peer"_s)[u"admin"_s].toBool(), true);
    QVERIFY(version.value(u"uptime_ms"_s).toInt() >= 0);

    // workers: some are busy while the 2,000 flow
    QJsonArray workers;
    QTRY_VERIFY_WITH_TIMEOUT((workers = client.request(R"({"cmd":"workers"})"_ba).value(u"result"_s).toArray(),
                              !workers.isEmpty()),
                             10000);
    const QList<qint64> children = daemon.workerPids();
    for (const QJsonValue &worker : std::as_const(workers)) {
        VERIFY_FIELDS(worker, u"pid"_s, u"stage"_s, u"state"_s, u"retiring"_s, u"messages"_s, u"uptime_ms"_s, u"ids"_s,
                      u"head_id"_s, u"head_age_ms"_s, u"max_runtime_ms"_s);
        QVERIFY2(children.contains(qint64(worker[u"pid"_s].toDouble())) || worker[u"state"_s].toString() == u"stopping"_s,
                 qPrintable(QString::number(worker[u"pid"_s].toDouble())));
        QVERIFY(QStringList({u"a"_s, u"b"_s}).contains(worker[u"stage"_s].toString()));
        const QJsonArray ids = worker[u"ids"_s].toArray();
        QVERIFY(ids.size() <= 4);
        if (!ids.isEmpty())
            QCOMPARE(worker[u"head_id"_s].toDouble(), ids.first().toDouble());
        else
            QVERIFY(worker[u"head_id"_s].isNull());
        QCOMPARE(worker[u"max_runtime_ms"_s].toInt(), 300000);
    }

    // status: one snapshot of pools, queues and statistics
    const QJsonObject status = client.request(R"({"cmd":"status"})"_ba).value(u"result"_s).toObject();
    VERIFY_FIELDS(status, u"time"_s, u"state"_s, u"totals"_s, u"queues_at"_s, u"stages"_s);
    VERIFY_FIELDS(status.value(u"totals"_s), u"workers"_s, u"busy"_s, u"in_flight"_s, u"capacity"_s, u"claimed"_s,
                  u"rounds"_s, u"stage_runs"_s, u"messages"_s, u"rate_10s"_s, u"rate_60s"_s);
    QCOMPARE(keysOf(status.value(u"stages"_s)), QStringList({u"a"_s, u"b"_s}));
    int workerSum = 0;
    for (const QString &stage : {u"a"_s, u"b"_s}) {
        const QJsonValue pool = status.value(u"stages"_s)[stage];
        VERIFY_FIELDS(pool, u"workers"_s, u"busy"_s, u"idle"_s, u"starting"_s, u"retiring"_s, u"parallelism"_s,
                      u"queue_limit"_s, u"in_flight"_s, u"capacity"_s, u"cooldown"_s, u"cooldown_until"_s,
                      u"cooldown_reason"_s, u"drained"_s, u"queue"_s, u"stats"_s);
        QCOMPARE(pool[u"workers"_s].toInt(), pool[u"busy"_s].toInt() + pool[u"idle"_s].toInt()
                                                 + pool[u"starting"_s].toInt() + pool[u"retiring"_s].toInt());
        QVERIFY(pool[u"workers"_s].toInt() <= pool[u"parallelism"_s].toInt());
        QVERIFY(pool[u"in_flight"_s].toInt() <= pool[u"capacity"_s].toInt());
        QCOMPARE(pool[u"cooldown"_s].toBool(), false);
        QCOMPARE(pool[u"drained"_s].toBool(), false);
        VERIFY_FIELDS(pool[u"queue"_s], u"pending"_s, u"running"_s, u"paused"_s, u"failed"_s, u"timeout"_s,
                      u"oldest_pending_age_ms"_s);
        VERIFY_FIELDS(pool[u"stats"_s], u"runs"_s, u"failures"_s, u"timeouts"_s, u"crashes"_s, u"busy_usec"_s,
                      u"rate_10s"_s, u"rate_60s"_s);
        workerSum += pool[u"workers"_s].toInt();
    }
    QCOMPARE(status.value(u"stages"_s)[u"a"_s][u"capacity"_s].toInt(), 16);
    QCOMPARE(status.value(u"stages"_s)[u"b"_s][u"capacity"_s].toInt(), 8);
    QCOMPARE(status.value(u"totals"_s)[u"workers"_s].toInt(), workerSum);
    QVERIFY(status.value(u"totals"_s)[u"claimed"_s].toInt() > 0);

    // stages
    const QJsonObject stages = client.request(R"({"cmd":"stages"})"_ba).value(u"result"_s).toObject();
    const QJsonArray list = stages.value(u"stages"_s).toArray();
    QCOMPARE(list.size(), 2);
    VERIFY_FIELDS(list[0], u"name"_s, u"program"_s, u"parallelism"_s, u"queue_limit"_s, u"max_messages"_s, u"next"_s,
                  u"fuse"_s, u"predecessors"_s, u"drained"_s);
    QCOMPARE(list[0][u"name"_s].toString(), u"a"_s);
    QCOMPARE(list[0][u"next"_s].toArray(), QJsonArray({u"b"_s}));
    QCOMPARE(list[1][u"predecessors"_s].toArray(), QJsonArray({u"a"_s}));
    QCOMPARE(list[1][u"program"_s].toString(), DaemonProcess::fakeWorker());
    VERIFY_FIELDS(stages.value(u"settings"_s), u"max_runtime_ms"_s, u"worker_idle_timeout_ms"_s, u"poll_interval_ms"_s,
                  u"stats_interval_ms"_s, u"tempfail_delay_ms"_s, u"db_pool_size"_s, u"config_file"_s);
    QCOMPARE(stages.value(u"settings"_s)[u"config_file"_s].toString(), daemon.configPath());

    // queues: cached for at most a second
    const QJsonObject queues = client.request(R"({"cmd":"queues"})"_ba).value(u"result"_s).toObject();
    VERIFY_FIELDS(queues, u"at"_s, u"age_ms"_s, u"stages"_s);
    QVERIFY(queues.value(u"age_ms"_s).toInt() <= 1000);
    QVERIFY(queues.value(u"stages"_s).toObject().contains(u"a"_s));
    QVERIFY(queues.value(u"stages"_s).toObject().contains(u"b"_s));

    // reload, and its event
    const QJsonObject reload = client.request(R"({"cmd":"reload"})"_ba);
    QCOMPARE(reload.value(u"result"_s)[u"stages"_s].toArray(), QJsonArray({u"a"_s, u"b"_s}));
    const auto reloadEvent = client.takeEvent(u"reload"_s);
    QVERIFY(reloadEvent);
    QCOMPARE(reloadEvent->value(u"source"_s).toString(), u"socket"_s);

    // Everything finishes; the statistics and the events say so.
    QTRY_COMPARE_WITH_TIMEOUT(probe.count(u"status = 'done'"_s), 2000, 60000);
    const QJsonObject stats = client.request(R"({"cmd":"stats"})"_ba).value(u"result"_s).toObject();
    VERIFY_FIELDS(stats, u"since"_s, u"totals"_s, u"stages"_s);
    QCOMPARE(stats.value(u"totals"_s)[u"messages"_s].toInt(), 2000);
    QCOMPARE(stats.value(u"totals"_s)[u"stage_runs"_s].toInt(), 4000);
    QCOMPARE(stats.value(u"stages"_s)[u"a"_s][u"runs"_s].toInt(), 2000);
    QCOMPARE(stats.value(u"stages"_s)[u"b"_s][u"runs"_s].toInt(), 2000);
    QVERIFY(stats.value(u"totals"_s)[u"claimed"_s].toInt() >= 4000);
    QVERIFY(stats.value(u"totals"_s)[u"rate_60s"_s].toDouble() > 0);
    const auto tick = client.takeEvent(u"tick"_s, 3000);
    QVERIFY(tick);
    VERIFY_FIELDS(*tick, u"seq"_s, u"time"_s, u"claimed"_s, u"completed"_s, u"in_flight"_s, u"workers"_s, u"rate_10s"_s,
                  u"stages"_s);
    VERIFY_FIELDS(tick->value(u"stages"_s)[u"a"_s], u"rate_10s"_s, u"in_flight"_s, u"busy"_s, u"workers"_s);
    QSet<qint64> startedPids;
    for (const QJsonObject &event : std::as_const(client.events)) {
        if (event.value(u"event"_s).toString() == u"worker_started"_s) {
            VERIFY_FIELDS(event, u"pid"_s, u"stage"_s, u"seq"_s, u"time"_s);
            startedPids.insert(qint64(event.value(u"pid"_s).toDouble()));
        }
    }
    for (const QJsonValue &worker : std::as_const(workers))
        QVERIFY(startedPids.contains(qint64(worker[u"pid"_s].toDouble())));
    QVERIFY(client.request(R"({"cmd":"unsubscribe"})"_ba).value(u"result"_s)[u"subscribed"_s].isBool());
    QCOMPARE(daemon.terminate(), 0);
    QVERIFY(!QFile::exists(daemon.controlSocket()));
}

// The figure the issue asks for: `status` answered while 5,000 messages flow.
void tst_ControlSocket::statusRoundTripWhileFlowing()
{
    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"a"_s, DaemonProcess::fakeWorker(), {{u"NEXT"_s, u"b"_s}});
    daemon.addStage(u"b"_s, DaemonProcess::fakeWorker());
    QVERIFY(startDaemon(daemon));
    ControlTestClient client;
    QVERIFY(client.connectTo(daemon.controlSocket()));
    QueueProbe probe(m_db->db());
    QElapsedTimer flow;
    flow.start();
    QVERIFY(!probe.insert(u"a"_s, 5000).isEmpty());

    QList<double> rtts;
    int done = 0;
    QElapsedTimer checkDone;
    checkDone.start();
    while (done < 5000 && flow.elapsed() < 120000) {
        QElapsedTimer rtt;
        rtt.start();
        const QJsonObject reply = client.requestBlocking(R"({"cmd":"status"})"_ba);
        rtts.append(double(rtt.nsecsElapsed()) / 1e6);
        QVERIFY(reply.value(u"ok"_s).toBool());
        QTest::qWait(20);
        if (checkDone.elapsed() > 250) {
            done = probe.count(u"status = 'done'"_s);
            checkDone.restart();
        }
    }
    QCOMPARE(probe.count(u"status = 'done'"_s), 5000);
    std::sort(rtts.begin(), rtts.end());
    const auto pct = [&rtts](double p) { return rtts.at(std::min<qsizetype>(rtts.size() - 1, qsizetype(p * rtts.size()))); };
    qInfo("status round trip while 5,000 messages flowed through 2 stages (%.1f s): %lld requests, "
          "median %.2f ms, p95 %.2f ms, max %.2f ms",
          double(flow.elapsed()) / 1000, qint64(rtts.size()), pct(0.5), pct(0.95), rtts.last());
    QVERIFY(rtts.size() >= 10);
    QCOMPARE(daemon.terminate(), 0);
}

// Read commands for anyone who can open the socket; admin ones only for root
// and the service account. The client runs as another account.
void tst_ControlSocket::adminRefusedToOtherUsers()
{
    if (!DaemonProcess::runningAsRoot() || uidOf("pepsi-test") == uint(-1))
        QSKIP("needs root and the pepsi-test account (scripts/test creates it)");
    if (QStandardPaths::findExecutable(u"python3"_s).isEmpty())
        QSKIP("needs python3");
    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"a"_s, DaemonProcess::fakeWorker());
    QVERIFY(startDaemon(daemon));
    const QString socket = daemon.controlSocket();
    // Let the other account reach the socket at all (it is 0660 in a 0750 directory).
    QCOMPARE(::chmod(QFile::encodeName(QFileInfo(socket).absolutePath()).constData(), 0755), 0);
    QCOMPARE(::chmod(QFile::encodeName(socket).constData(), 0666), 0);

    const QStringList admin{uR"({"id":"r","cmd":"reload"})"_s, uR"({"id":"d","cmd":"drain","stage":"a"})"_s,
                            uR"({"id":"u","cmd":"resume","stage":"a"})"_s,
                            uR"({"id":"q","cmd":"requeue","stage":"a","status":"failed"})"_s};
    const QList<QJsonObject> replies =
        runAs("pepsi-test", socket, admin + QStringList{uR"({"cmd":"version"})"_s, uR"({"cmd":"status"})"_s});
    QCOMPARE(replies.size(), 6);
    const uint testUid = uidOf("pepsi-test");
    for (int i = 0; i < 4; ++i) {
        QCOMPARE(replies[i].value(u"ok"_s).toBool(), false);
        const QString error = replies[i].value(u"error"_s).toString();
        QVERIFY2(error.startsWith(u"permission denied: '"_s)
                     && error.endsWith(u"needs root or the service account %1 (you are uid %2)"_s
                                           .arg(DaemonProcess::serviceUser())
                                           .arg(testUid)),
                 qPrintable(error));
    }
    QCOMPARE(replies[4].value(u"result"_s)[u"peer"_s][u"admin"_s].toBool(), false);
    QCOMPARE(uint(replies[4].value(u"result"_s)[u"peer"_s][u"uid"_s].toInteger()), testUid);
    QCOMPARE(replies[5].value(u"ok"_s).toBool(), true);
    QCOMPARE(replies[5].value(u"result"_s)[u"stages"_s][u"a"_s][u"drained"_s].toBool(), false);
    for (const QString &command : {u"reload"_s, u"drain"_s, u"resume"_s, u"requeue"_s})
        QVERIFY(daemon.waitForLog(QRegularExpression(u"refused %1 to uid %2 pid \\d+"_s.arg(command).arg(testUid))));

    // The service account itself may.
    const QList<QJsonObject> own = runAs(DaemonProcess::serviceUser().toLocal8Bit().constData(), socket,
                                         {uR"({"cmd":"drain","stage":"a"})"_s, uR"({"cmd":"resume","stage":"a"})"_s});
    QCOMPARE(own.size(), 2);
    QCOMPARE(own[0].value(u"result"_s)[u"drained"_s].toBool(), true);
    QCOMPARE(own[1].value(u"result"_s)[u"drained"_s].toBool(), false);
    QVERIFY(daemon.waitForLog(QRegularExpression(u"admin command .*\"drain\".* from uid %1 pid \\d+"_s
                                                     .arg(uidOf(DaemonProcess::serviceUser().toLocal8Bit().constData())))));
    QCOMPARE(daemon.terminate(), 0);
}

// A second daemon on a live socket stops with a clear message before it
// touches the database (its DATABASE does not even exist).
void tst_ControlSocket::secondDaemonOnTheSameSocket()
{
    DaemonProcess first(m_db->uri());
    first.addStage(u"a"_s, DaemonProcess::fakeWorker());
    QVERIFY(startDaemon(first));

    DaemonProcess second(u"postgresql:///pepsi_no_such_database?host=/nonexistent"_s);
    second.setOption(u"CONTROL_SOCKET"_s, first.controlSocket());
    second.addStage(u"a"_s, DaemonProcess::fakeWorker());
    QVERIFY(second.start());
    QCOMPARE(second.waitForExit(), 1);
    const QString log = second.log();
    QVERIFY2(log.contains(u"the control socket %1 belongs to pepsi-dispatch (pid %2 on "_s.arg(first.controlSocket())
                              .arg(first.pid()))
                 && log.contains(u"still running"_s),
             qPrintable(log));
    QVERIFY2(!log.contains(u"database"_s, Qt::CaseInsensitive) && !log.contains(u"listening"_s), qPrintable(log));

    ControlTestClient client;
    QVERIFY(client.connectTo(first.controlSocket()));
    QCOMPARE(qint64(client.request(R"({"cmd":"version"})"_ba).value(u"result"_s)[u"pid"_s].toDouble()), first.pid());
    QCOMPARE(first.terminate(), 0);
}

// A daemon killed with SIGKILL leaves its socket and lock file; the next one
// replaces them.
void tst_ControlSocket::staleSocketIsReplaced()
{
    DaemonProcess first(m_db->uri());
    first.addStage(u"a"_s, DaemonProcess::fakeWorker());
    QVERIFY(startDaemon(first));
    const QString socket = first.controlSocket();
    first.kill();
    QVERIFY(QFile::exists(socket));
    QVERIFY(QFile::exists(socket + u".lock"_s));

    DaemonProcess second(m_db->uri());
    second.setOption(u"CONTROL_SOCKET"_s, socket);
    second.addStage(u"a"_s, DaemonProcess::fakeWorker());
    QVERIFY(startDaemon(second));
    QVERIFY(second.countLog(QRegularExpression(u"replacing the stale control socket"_s)) == 1);
    struct stat info {};
    QCOMPARE(::stat(QFile::encodeName(socket).constData(), &info), 0);
    QCOMPARE(info.st_mode & 0777, mode_t(0660));
    ControlTestClient client;
    QVERIFY(client.connectTo(socket));
    QCOMPARE(qint64(client.request(R"({"cmd":"version"})"_ba).value(u"result"_s)[u"pid"_s].toDouble()), second.pid());
    QCOMPARE(second.terminate(), 0);
}

// A waiting standby on the same socket path leaves it to the active daemon,
// and takes it once it holds the dispatcher lock itself.
void tst_ControlSocket::standbyLeavesTheSocket()
{
    DaemonProcess active(m_db->uri());
    active.addStage(u"a"_s, DaemonProcess::fakeWorker());
    QVERIFY(startDaemon(active));
    DaemonProcess standby(m_db->uri());
    standby.setOption(u"CONTROL_SOCKET"_s, active.controlSocket());
    standby.addStage(u"a"_s, DaemonProcess::fakeWorker());
    QVERIFY(standby.start({u"--standby"_s}));
    QVERIFY2(standby.waitForLog(QRegularExpression(u"standby: waiting"_s)), qPrintable(standby.log()));
    QVERIFY(!standby.log().contains(u"control socket"_s));
    {
        ControlTestClient client;
        QVERIFY(client.connectTo(active.controlSocket()));
        QCOMPARE(qint64(client.request(R"({"cmd":"version"})"_ba).value(u"result"_s)[u"pid"_s].toDouble()), active.pid());
    }

    QCOMPARE(active.terminate(), 0);
    QVERIFY2(standby.waitForReady(10000), qPrintable(standby.log()));
    QVERIFY2(standby.waitForLog(QRegularExpression(u"control socket "_s + QRegularExpression::escape(active.controlSocket()))),
             qPrintable(standby.log()));
    ControlTestClient client;
    QVERIFY(client.connectTo(active.controlSocket()));
    const QJsonObject version = client.request(R"({"cmd":"version"})"_ba).value(u"result"_s).toObject();
    QCOMPARE(qint64(version.value(u"pid"_s).toDouble()), standby.pid());
    QCOMPARE(version.value(u"standby"_s).toBool(), true);
    QCOMPARE(version.value(u"role"_s).toString(), u"active"_s);
    QCOMPARE(version.value(u"state"_s).toString(), u"running"_s);
    QCOMPARE(standby.terminate(), 0);
}

// A client that asks and asks and never reads: the daemon drops it at the
// output cap, its memory stays flat, and the other clients are served.
void tst_ControlSocket::nonReaderIsDropped()
{
    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"a"_s, DaemonProcess::fakeWorker());
    QVERIFY(startDaemon(daemon));
    QueueProbe probe(m_db->db());
    QVERIFY(!probe.insert(u"a"_s, 3000).isEmpty());
    ControlTestClient other;
    QVERIFY(other.connectTo(daemon.controlSocket()));
    QVERIFY(other.request(R"({"cmd":"subscribe"})"_ba).value(u"ok"_s).toBool());
    const qint64 rssBefore = rssKiB(daemon.pid());

    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const QByteArray name = QFile::encodeName(daemon.controlSocket());
    memcpy(address.sun_path, name.constData(), size_t(name.size()));
    QCOMPARE(::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address), 0);
    QByteArray burst = R"({"cmd":"subscribe"})" "\n";
    for (int i = 0; i < 1000; ++i)
        burst += R"({"cmd":"status"})" "\n";
    qint64 rssMax = rssBefore;
    qint64 sent = 0;
    int served = 0;
    QElapsedTimer clock;
    clock.start();
    const QRegularExpression dropped(u"does not read its replies or events .* dropping it"_s);
    while (!daemon.waitForLog(dropped, 1) && clock.elapsed() < 30000) {
        const ssize_t n = ::send(fd, burst.constData(), size_t(burst.size()), MSG_DONTWAIT | MSG_NOSIGNAL);
        sent += std::max<ssize_t>(0, n);
        QCOMPARE(other.request(R"({"cmd":"version"})"_ba).value(u"ok"_s).toBool(), true);
        ++served;
        rssMax = std::max(rssMax, rssKiB(daemon.pid()));
    }
    ::close(fd);
    QVERIFY2(daemon.countLog(dropped) == 1, qPrintable(daemon.log().right(2000)));
    qInfo("the non-reader was dropped after %lld ms and %lld bytes of requests; daemon RSS %lld KiB before, "
          "at most %lld KiB; the other client got %d replies meanwhile",
          clock.elapsed(), sent, rssBefore, rssMax, served);
    // 1 MiB of queued output at most, plus what one read of requests makes.
    QVERIFY2(rssMax - rssBefore < 16 * 1024, qPrintable(u"RSS grew by %1 KiB"_s.arg(rssMax - rssBefore)));
    QCOMPARE(other.request(R"({"cmd":"status"})"_ba).value(u"ok"_s).toBool(), true);
    QTRY_COMPARE_WITH_TIMEOUT(probe.count(u"status = 'done'"_s), 3000, 30000);
    QVERIFY(other.takeEvent(u"tick"_s));
    QCOMPARE(daemon.terminate(), 0);
}

// kill -9 a worker: its worker_crashed event names it and its message.
void tst_ControlSocket::killedWorkerIsReported()
{
    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"s"_s, DaemonProcess::fakeWorker(), {{u"PARALLELISM"_s, u"1"_s}});
    QVERIFY(startDaemon(daemon));
    ControlTestClient client;
    QVERIFY(client.connectTo(daemon.controlSocket()));
    QVERIFY(client.request(R"({"cmd":"subscribe","events":["worker_started","worker_crashed","cooldown_entered"]})"_ba)
                .value(u"ok"_s)
                .toBool());
    QueueProbe probe(m_db->db());
    const QList<qint64> ids = probe.insertModes(u"s"_s, {u"hang"_s});
    QVERIFY(!ids.isEmpty());
    const auto started = client.takeEvent(u"worker_started"_s);
    QVERIFY(started);
    const qint64 pid = qint64(started->value(u"pid"_s).toDouble());
    QCOMPARE(daemon.workerPids(u"s"_s), QList<qint64>{pid});
    QTRY_COMPARE(probe.count(u"status = 'running'"_s), 1);
    // The worker holds it: workers shows it at the head of line.
    QTRY_COMPARE(qint64(client.request(R"({"cmd":"workers"})"_ba).value(u"result"_s)[0][u"head_id"_s].toDouble()),
                 ids.first());

    QCOMPARE(::kill(pid_t(pid), SIGKILL), 0);
    const auto crashed = client.takeEvent(u"worker_crashed"_s);
    QVERIFY(crashed);
    QCOMPARE(qint64(crashed->value(u"pid"_s).toDouble()), pid);
    QCOMPARE(crashed->value(u"stage"_s).toString(), u"s"_s);
    QCOMPARE(crashed->value(u"cause"_s).toString(), u"crashed: signal 9"_s);
    QCOMPARE(qint64(crashed->value(u"message_id"_s).toDouble()), ids.first());
    QCOMPARE(crashed->value(u"requeued"_s).toInt(), 0);
    QTRY_COMPARE(probe.count(u"status = 'failed' AND state->>'dispatch_error' = 'crashed: signal 9'"_s), 1);
    // A worker that dies before its first answer holds the stage off.
    const auto cooldown = client.takeEvent(u"cooldown_entered"_s);
    QVERIFY(cooldown);
    QCOMPARE(cooldown->value(u"reason"_s).toString(), u"crashed: signal 9"_s);
    QCOMPARE(daemon.terminate(), 0);
}

// drain: no claim for the stage until resume; the state shows, survives a
// reload, and the events come.
void tst_ControlSocket::drainedStageClaimsNothing()
{
    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"s"_s, DaemonProcess::fakeWorker());
    daemon.addStage(u"t"_s, DaemonProcess::fakeWorker());
    QVERIFY(startDaemon(daemon));
    ControlTestClient client;
    QVERIFY(client.connectTo(daemon.controlSocket()));
    QVERIFY(client.request(R"({"cmd":"subscribe","events":["stage_drained","stage_resumed"]})"_ba).value(u"ok"_s).toBool());

    QCOMPARE(client.request(R"({"cmd":"drain","stage":"s"})"_ba).value(u"result"_s)[u"drained"_s].toBool(), true);
    const auto drained = client.takeEvent(u"stage_drained"_s);
    QVERIFY(drained);
    QCOMPARE(drained->value(u"stage"_s).toString(), u"s"_s);
    QCOMPARE(drained->value(u"uid"_s).toInt(), int(::geteuid()));
    QueueProbe probe(m_db->db());
    QVERIFY(!probe.insert(u"s"_s, 20).isEmpty());
    QVERIFY(!probe.insert(u"t"_s, 20).isEmpty());
    // The other stage flows; this one is not claimed at all.
    QTRY_COMPARE_WITH_TIMEOUT(probe.count(u"stage = 't' AND status = 'done'"_s), 20, 10000);
    QTest::qWait(1000);
    QCOMPARE(probe.count(u"stage = 's' AND status = 'pending' AND claims = 0"_s), 20);
    QJsonObject pool = client.request(R"({"cmd":"status"})"_ba).value(u"result"_s)[u"stages"_s][u"s"_s].toObject();
    QCOMPARE(pool.value(u"drained"_s).toBool(), true);
    QCOMPARE(pool.value(u"capacity"_s).toInt(), 0);
    QCOMPARE(pool.value(u"queue"_s)[u"pending"_s].toInt(), 20);

    // A reload keeps it drained.
    QVERIFY(client.request(R"({"cmd":"reload"})"_ba).value(u"ok"_s).toBool());
    QTest::qWait(500);
    QCOMPARE(probe.count(u"stage = 's' AND claims = 0"_s), 20);
    QCOMPARE(client.request(R"({"cmd":"stages"})"_ba).value(u"result"_s)[u"stages"_s][0][u"drained"_s].toBool(), true);
    // Draining twice is fine.
    QVERIFY(client.request(R"({"cmd":"drain","stage":"s"})"_ba).value(u"ok"_s).toBool());

    QCOMPARE(client.request(R"({"cmd":"resume","stage":"s"})"_ba).value(u"result"_s)[u"drained"_s].toBool(), false);
    QVERIFY(client.takeEvent(u"stage_resumed"_s));
    // A claim round right away, not at the next heartbeat (30 s).
    QTRY_COMPARE_WITH_TIMEOUT(probe.count(u"stage = 's' AND status = 'done'"_s), 20, 5000);
    QCOMPARE(daemon.terminate(), 0);
}

// requeue: failed rows go back to pending without dispatch_error and finish;
// bounded by limit with `more`; a row locked by another session is skipped.
void tst_ControlSocket::requeuedRowsFinish()
{
    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"s"_s, DaemonProcess::fakeWorker());
    QVERIFY(startDaemon(daemon));
    ControlTestClient client;
    QVERIFY(client.connectTo(daemon.controlSocket()));
    QVERIFY(client.request(R"({"cmd":"subscribe","events":["requeued"]})"_ba).value(u"ok"_s).toBool());
    QueueProbe probe(m_db->db());
    const QList<qint64> ids = probe.insert(u"s"_s, 30, {{u"s"_s, u"fail:3"_s}});
    QCOMPARE(ids.size(), 30);
    QTRY_COMPARE_WITH_TIMEOUT(probe.count(u"status = 'failed'"_s), 30, 10000);
    QTRY_COMPARE(client.request(R"({"cmd":"queues"})"_ba).value(u"result"_s)[u"stages"_s][u"s"_s][u"failed"_s].toInt(), 30);
    // From now on they succeed.
    QVERIFY(m_db->exec(u"UPDATE workqueue SET state = state - 'fake'"_s));

    const QJsonObject byId = client.request(QJsonObject{{u"cmd"_s, u"requeue"_s}, {u"stage"_s, u"s"_s},
                                                        {u"status"_s, u"failed"_s},
                                                        {u"ids"_s, QJsonArray{double(ids[0]), double(ids[1]), double(ids[2])}}});
    QCOMPARE(byId.value(u"result"_s)[u"requeued"_s].toInt(), 3);
    QCOMPARE(byId.value(u"result"_s)[u"more"_s].toBool(), false);
    const auto event = client.takeEvent(u"requeued"_s);
    QVERIFY(event);
    QCOMPARE(event->value(u"count"_s).toInt(), 3);
    QCOMPARE(event->value(u"status"_s).toString(), u"failed"_s);
    QTRY_COMPARE_WITH_TIMEOUT(probe.count(u"status = 'done'"_s), 3, 5000);

    // Bounded: 20 of the 27 left, and it says more match.
    const QJsonObject limited = client.request(R"({"cmd":"requeue","stage":"s","status":"failed","limit":20})"_ba);
    QCOMPARE(limited.value(u"result"_s)[u"requeued"_s].toInt(), 20);
    QCOMPARE(limited.value(u"result"_s)[u"more"_s].toBool(), true);
    QTRY_COMPARE_WITH_TIMEOUT(probe.count(u"status = 'done'"_s), 23, 5000);

    // Another session holds one of the last 7 locked: skipped, not waited for.
    QSqlDatabase other = m_db->newConnection(u"locker"_s);
    QVERIFY(other.transaction());
    QSqlQuery lock(other);
    QVERIFY2(lock.exec(u"SELECT workqueue_id FROM workqueue WHERE status = 'failed' ORDER BY workqueue_id LIMIT 1 FOR UPDATE"_s)
                 && lock.next(),
             qPrintable(lock.lastError().text()));
    const qint64 locked = lock.value(0).toLongLong();
    QElapsedTimer took;
    took.start();
    const QJsonObject skipping = client.request(R"({"cmd":"requeue","stage":"s","status":"failed"})"_ba);
    QCOMPARE(skipping.value(u"result"_s)[u"requeued"_s].toInt(), 6);
    QCOMPARE(skipping.value(u"result"_s)[u"more"_s].toBool(), false);
    QVERIFY(took.elapsed() < 5000);
    QVERIFY(other.commit());
    QTRY_COMPARE_WITH_TIMEOUT(probe.count(u"status = 'done'"_s), 29, 5000);
    QCOMPARE(probe.count(u"status = 'failed' AND workqueue_id = %1"_s.arg(locked)), 1);

    // Nothing of another status or stage moves.
    QCOMPARE(client.request(R"({"cmd":"requeue","stage":"s","status":"timeout"})"_ba).value(u"result"_s)[u"requeued"_s].toInt(), 0);
    QCOMPARE(client.request(R"({"cmd":"requeue","stage":"x","status":"failed"})"_ba).value(u"result"_s)[u"requeued"_s].toInt(), 0);
    const QJsonObject last = client.request(R"({"cmd":"requeue","stage":"s","status":"failed","max_age_ms":600000})"_ba);
    QCOMPARE(last.value(u"result"_s)[u"requeued"_s].toInt(), 1);
    QTRY_COMPARE_WITH_TIMEOUT(probe.count(u"status = 'done'"_s), 30, 5000);
    QCOMPARE(probe.count(u"state ? 'dispatch_error'"_s), 0);
    QCOMPARE(daemon.terminate(), 0);
}

// The socat one-liner and doc/examples/pepsi-rates.py, as documented.
void tst_ControlSocket::documentedScripts()
{
    if (QStandardPaths::findExecutable(u"socat"_s).isEmpty() || QStandardPaths::findExecutable(u"python3"_s).isEmpty())
        QSKIP("needs socat and python3 (scripts/deps installs them)");
    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"a"_s, DaemonProcess::fakeWorker(), {{u"NEXT"_s, u"b"_s}});
    daemon.addStage(u"b"_s, DaemonProcess::fakeWorker());
    QVERIFY(startDaemon(daemon));
    QueueProbe probe(m_db->db());
    QVERIFY(!probe.insert(u"a"_s, 4000, {{u"a"_s, u"slow:1"_s}}).isEmpty());

    // doc/control-protocol.rst, "Scripting", with this daemon's socket.
    QProcess socat;
    socat.start(u"sh"_s, {u"-c"_s, u"echo '{\"cmd\":\"status\"}' | socat - UNIX-CONNECT:"_s + daemon.controlSocket()});
    QTRY_VERIFY_WITH_TIMEOUT(socat.state() == QProcess::NotRunning, 10000);
    QCOMPARE(socat.exitCode(), 0);
    const QByteArray output = socat.readAllStandardOutput();
    const QJsonObject status = QJsonDocument::fromJson(output).object();
    QVERIFY2(status.value(u"ok"_s).toBool(), output.left(500).constData());
    QCOMPARE(keysOf(status.value(u"result"_s)[u"stages"_s]), QStringList({u"a"_s, u"b"_s}));

    QProcess rates;
    rates.start(u"python3"_s, {QStringLiteral(PEPSI_SOURCE_DIR) + u"/doc/examples/pepsi-rates.py"_s, u"--socket"_s,
                               daemon.controlSocket(), u"--ticks"_s, u"4"_s});
    // Not waitForFinished(): the daemon under test must be able to write its
    // log to us meanwhile, or it blocks on a full pipe.
    QTRY_VERIFY_WITH_TIMEOUT(rates.state() == QProcess::NotRunning, 20000);
    QCOMPARE(rates.exitCode(), 0);
    const QStringList lines = QString::fromUtf8(rates.readAllStandardOutput()).split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 4);
    const QRegularExpression shape(uR"(^\d\d:\d\d:\d\d  a ([\d.]+)/s busy \d+ in flight \d+  b ([\d.]+)/s busy \d+ in flight \d+  \(claimed \d+, completed \d+\)$)"_s);
    double highest = 0;
    for (const QString &line : lines) {
        const auto match = shape.match(line);
        QVERIFY2(match.hasMatch(), qPrintable(line));
        highest = std::max(highest, match.captured(1).toDouble());
    }
    qInfo("pepsi-rates.py: %s", qPrintable(lines.last()));
    QVERIFY2(highest > 0, "no rate above zero while messages flowed");

    // Its errors are clear.
    QProcess missing;
    missing.start(u"python3"_s, {QStringLiteral(PEPSI_SOURCE_DIR) + u"/doc/examples/pepsi-rates.py"_s, u"--socket"_s,
                                 daemon.controlSocket() + u".missing"_s});
    QTRY_VERIFY_WITH_TIMEOUT(missing.state() == QProcess::NotRunning, 10000);
    QCOMPARE(missing.exitCode(), 1);
    QVERIFY(missing.readAllStandardError().startsWith("pepsi-rates: cannot connect to "));
    QCOMPARE(daemon.terminate(), 0);
}

QTEST_GUILESS_MAIN(tst_ControlSocket)
#include "tst_controlsocket.moc"
