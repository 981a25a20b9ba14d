// SPDX-License-Identifier: AGPL-3.0-or-later
// The control socket's safety with a real pepsi-dispatch: admin commands
// refused to another user (a client run as pepsi-test) and allowed to the
// service account, a second daemon on a live socket, a stale socket file, a
// standby on the same path, a client that never reads.
#include "controlchecks.h"
#include "controltestclient.h"
#include "daemonprocess.h"
#include "daemontest.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>

#include <algorithm>
#include <memory>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace {

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

// The pid the daemon answering `version` on `socket` gives; 0 when none answers.
qint64 answeringPid(const QString &socket)
{
    ControlTestClient client;
    if (!client.connectTo(socket))
        return 0;
    return qint64(client.request(R"({"cmd":"version"})"_ba).value(u"result"_s)[u"pid"_s].toDouble());
}

uint uidOf(const char *account)
{
    const passwd *entry = ::getpwnam(account);
    return entry ? entry->pw_uid : uint(-1);
}

// Runs the requests as `account` on `socket`; the replies, one per request.
QList<QJsonObject> runAs(const char *account, const QString &socket, const QStringList &requests)
{
    QProcess client;
    client.start(u"runuser"_s,
                 QStringList{u"-u"_s, QString::fromLatin1(account), u"--"_s, u"python3"_s, u"-c"_s,
                             QString::fromLatin1(PeerScript), socket}
                     + requests);
    // The event loop runs meanwhile: the daemon's log must not fill its pipe.
    if (!QTest::qWaitFor([&client] { return client.state() == QProcess::NotRunning; }, 20000)
        || client.exitCode() != 0) {
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

} // namespace

class tst_ControlSafety : public DaemonTest
{
    Q_OBJECT

private Q_SLOTS:
    void adminRefusedToOtherUsers();
    void secondDaemonOnTheSameSocket();
    void staleSocketIsReplaced();
    void standbyLeavesTheSocket();
    void nonReaderIsDropped();
};

// Read commands for anyone who can open the socket; admin ones only for root
// and the service account. The client runs as another account.
void tst_ControlSafety::adminRefusedToOtherUsers()
{
    if (!DaemonProcess::runningAsRoot() || uidOf("pepsi-test") == uint(-1))
        QSKIP("needs root and the pepsi-test account (scripts/test creates it)");
    if (QStandardPaths::findExecutable(u"python3"_s).isEmpty())
        QSKIP("needs python3");
    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"a"_s, DaemonProcess::fakeWorker());
    QVERIFY(startReady(daemon));
    const QString socket = daemon.controlSocket();
    // Let the other account reach the socket at all (it is 0660 in a 0750 directory).
    QCOMPARE(::chmod(QFile::encodeName(QFileInfo(socket).absolutePath()).constData(), 0755), 0);
    QCOMPARE(::chmod(QFile::encodeName(socket).constData(), 0666), 0);

    const QStringList admin{uR"({"id":"r","cmd":"reload"})"_s,
                            uR"({"id":"d","cmd":"drain","stage":"a"})"_s,
                            uR"({"id":"u","cmd":"resume","stage":"a"})"_s,
                            uR"({"id":"q","cmd":"requeue","stage":"a","status":"failed"})"_s,
                            uR"({"id":"s","cmd":"set","stage":"a","option":"PARALLELISM","value":2})"_s,
                            uR"({"id":"x","cmd":"unset","stage":"a","option":"PARALLELISM"})"_s};
    const QList<QJsonObject> replies =
        runAs("pepsi-test", socket, admin + QStringList{uR"({"cmd":"version"})"_s, uR"({"cmd":"status"})"_s});
    QCOMPARE(replies.size(), 8);
    const uint testUid = uidOf("pepsi-test");
    for (int i = 0; i < 6; ++i) {
        QCOMPARE(replies[i].value(u"ok"_s).toBool(), false);
        const QString error = replies[i].value(u"error"_s).toString();
        QVERIFY2(error.startsWith(u"permission denied: '"_s)
                     && error.endsWith(
                         u"needs root or the service account %1 (you are uid %2)"_s.arg(DaemonProcess::serviceUser())
                             .arg(testUid)),
                 qPrintable(error));
    }
    QCOMPARE(replies[6].value(u"result"_s)[u"peer"_s][u"admin"_s].toBool(), false);
    QCOMPARE(uint(replies[6].value(u"result"_s)[u"peer"_s][u"uid"_s].toInteger()), testUid);
    QCOMPARE(replies[7].value(u"ok"_s).toBool(), true);
    QCOMPARE(replies[7].value(u"result"_s)[u"stages"_s][u"a"_s][u"drained"_s].toBool(), false);
    QCOMPARE(m_db->scalar(u"SELECT count(*) FROM config_overlay"_s), 0); // set wrote nothing
    for (const QString &command : {u"reload"_s, u"drain"_s, u"resume"_s, u"requeue"_s, u"set"_s, u"unset"_s})
        QVERIFY(daemon.waitForLog(QRegularExpression(u"refused %1 to uid %2 pid \\d+"_s.arg(command).arg(testUid))));

    // The service account itself may.
    const QList<QJsonObject> own = runAs(DaemonProcess::serviceUser().toLocal8Bit().constData(), socket,
                                         {uR"({"cmd":"drain","stage":"a"})"_s, uR"({"cmd":"resume","stage":"a"})"_s});
    QCOMPARE(own.size(), 2);
    QCOMPARE(own[0].value(u"result"_s)[u"drained"_s].toBool(), true);
    QCOMPARE(own[1].value(u"result"_s)[u"drained"_s].toBool(), false);
    QVERIFY(daemon.waitForLog(QRegularExpression(u"admin command .*\"drain\".* from uid %1 pid \\d+"_s.arg(
        uidOf(DaemonProcess::serviceUser().toLocal8Bit().constData())))));
    QCOMPARE(daemon.terminate(), 0);
}

// A second daemon on a live socket stops with a clear message before it
// touches the database (its DATABASE does not even exist).
void tst_ControlSafety::secondDaemonOnTheSameSocket()
{
    DaemonProcess first(m_db->uri());
    first.addStage(u"a"_s, DaemonProcess::fakeWorker());
    QVERIFY(startReady(first));

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

    QCOMPARE(answeringPid(first.controlSocket()), first.pid());
    QCOMPARE(first.terminate(), 0);
}

// A daemon killed with SIGKILL leaves its socket and lock file; the next one
// replaces them.
void tst_ControlSafety::staleSocketIsReplaced()
{
    DaemonProcess first(m_db->uri());
    first.addStage(u"a"_s, DaemonProcess::fakeWorker());
    QVERIFY(startReady(first));
    const QString socket = first.controlSocket();
    first.kill();
    QVERIFY(QFile::exists(socket));
    QVERIFY(QFile::exists(socket + u".lock"_s));

    DaemonProcess second(m_db->uri());
    second.setOption(u"CONTROL_SOCKET"_s, socket);
    second.addStage(u"a"_s, DaemonProcess::fakeWorker());
    QVERIFY(startReady(second));
    QVERIFY(second.countLog(QRegularExpression(u"replacing the stale control socket"_s)) == 1);
    struct stat info
    {
    };
    QCOMPARE(::stat(QFile::encodeName(socket).constData(), &info), 0);
    QCOMPARE(info.st_mode & 0777, mode_t(0660));
    QCOMPARE(answeringPid(socket), second.pid());
    QCOMPARE(second.terminate(), 0);
}

// A waiting standby on the same socket path leaves it to the active daemon,
// and takes it once it holds the dispatcher lock itself.
void tst_ControlSafety::standbyLeavesTheSocket()
{
    DaemonProcess active(m_db->uri());
    active.addStage(u"a"_s, DaemonProcess::fakeWorker());
    QVERIFY(startReady(active));
    DaemonProcess standby(m_db->uri());
    standby.setOption(u"CONTROL_SOCKET"_s, active.controlSocket());
    standby.addStage(u"a"_s, DaemonProcess::fakeWorker());
    QVERIFY(standby.start({u"--standby"_s}));
    QVERIFY2(standby.waitForLog(QRegularExpression(u"standby: waiting"_s)), qPrintable(standby.log()));
    QVERIFY(!standby.log().contains(u"control socket"_s));
    QCOMPARE(answeringPid(active.controlSocket()), active.pid());

    QCOMPARE(active.terminate(), 0);
    QVERIFY2(standby.waitForReady(10000), qPrintable(standby.log()));
    QVERIFY2(standby.waitForLog(
                 QRegularExpression(u"control socket "_s + QRegularExpression::escape(active.controlSocket()))),
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
void tst_ControlSafety::nonReaderIsDropped()
{
    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"a"_s, DaemonProcess::fakeWorker());
    QVERIFY(startReady(daemon));
    QueueProbe probe(m_db->db());
    QVERIFY(!probe.insert(u"a"_s, 3000).isEmpty());
    ControlTestClient other;
    QVERIFY(other.connectTo(daemon.controlSocket()));
    QVERIFY(other.request(R"({"cmd":"subscribe"})"_ba).value(u"ok"_s).toBool());
    const qint64 rssBefore = DaemonProcess::procStatusKiB(daemon.pid(), u"VmRSS"_s);

    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const QByteArray name = QFile::encodeName(daemon.controlSocket());
    memcpy(address.sun_path, name.constData(), size_t(name.size()));
    QCOMPARE(::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address), 0);
    QByteArray burst = R"({"cmd":"subscribe"})"
                       "\n";
    for (int i = 0; i < 1000; ++i)
        burst += R"({"cmd":"status"})"
                 "\n";
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
        rssMax = std::max(rssMax, DaemonProcess::procStatusKiB(daemon.pid(), u"VmRSS"_s));
    }
    ::close(fd);
    QVERIFY2(daemon.countLog(dropped) == 1, qPrintable(daemon.log().right(2000)));
    qInfo("the non-reader was dropped after %lld ms and %lld bytes of requests; daemon RSS %lld KiB before, "
          "at most %lld KiB; the other client got %d replies meanwhile",
          clock.elapsed(), sent, rssBefore, rssMax, served);
    // 1 MiB of queued output at most, plus what one read of requests makes:
    // about 1.3 MiB in a plain build. Under AddressSanitizer every thread that
    // serves the flood (the control socket's, the loop's) keeps allocator
    // caches and a quarantine of its own besides: 17 MiB was seen there.
#if defined(__SANITIZE_ADDRESS__)
    constexpr qint64 GrowthKiB = 32 * 1024;
#else
    constexpr qint64 GrowthKiB = 8 * 1024;
#endif
    QVERIFY2(rssMax - rssBefore < GrowthKiB, qPrintable(u"RSS grew by %1 KiB"_s.arg(rssMax - rssBefore)));
    QCOMPARE(other.request(R"({"cmd":"status"})"_ba).value(u"ok"_s).toBool(), true);
    QTRY_COMPARE_WITH_TIMEOUT(probe.count(u"status = 'done'"_s), 3000, 30000);
    QVERIFY(other.takeEvent(u"tick"_s));
    QCOMPARE(daemon.terminate(), 0);
}

QTEST_GUILESS_MAIN(tst_ControlSafety)
#include "tst_controlsafety.moc"
