// SPDX-License-Identifier: AGPL-3.0-or-later
// `pepsi-ctl bridge` alone, against a real pepsi-dispatch (doc/man/pepsi-ctl.rst,
// "bridge"; doc/operations.rst, "Watching several systems"): it relays until
// stdin ends; and each way it can end badly says why on stderr, exits with
// its documented status and leaves nothing behind on the daemon's side: no
// daemon (no socket, a socket nothing listens on), a line over the limit from
// either side, a client that stops reading in the middle of a reply or of an
// event stream. A daemon that closes after its reply: the reply still goes out.
#include "controlclients.h"
#include "ctlrun.h"
#include "daemonprocess.h"
#include "daemonstart.h"
#include "testdatabase.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <memory>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace {

const QString NoSocket = u"/nonexistent/dispatch.sock"_s;

// Its client stopped reading: "… (standard output: Broken pipe) with N bytes …".
const QRegularExpression ClientGone(
    u"^pepsi-ctl: bridge: the client stopped reading \\(standard output: Broken pipe\\) with \\d+ bytes of the "
    "daemon's lines undelivered; the bridge ends\\n$"_s);

} // namespace

class tst_CtlBridge : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();

    void relaysUntilStdinEnds();
    void noDaemon_data();
    void noDaemon();
    void refusesLongLineFromClient();
    void refusesLongLineFromDaemon();
    void endsWhenClientGoesMidReply();
    void endsWhenClientGoesDuringEvents();
    void deliversWhatDaemonSentBeforeClosing();

private:
    void startBridge(QProcess &bridge, const QString &socket = {});
    // The daemon saw this bridge connect, and its connection is gone now.
    bool daemonLetGo(qint64 pid);
    // The bridge whose client stopped reading ended as documented: status
    // 74, why on stderr, its connection to the daemon closed.
    void verifyEndedForGoneClient(QProcess &bridge, qint64 pid);

    std::unique_ptr<TestDatabase> m_db;
    std::unique_ptr<DaemonProcess> m_daemon;
};

void tst_CtlBridge::initTestCase()
{
    PEPSI_REQUIRE_CTL_BINARIES();
    PEPSI_REQUIRE_DATABASE_IN(m_db, "ctlbridge");
    m_daemon = std::make_unique<DaemonProcess>(m_db->uri());
    m_daemon->addStage(u"a"_s, DaemonProcess::fakeWorker());
    QVERIFY(startReady(*m_daemon));
}

void tst_CtlBridge::cleanupTestCase()
{
    if (m_daemon)
        QCOMPARE(m_daemon->terminate(), 0);
    m_daemon.reset();
    m_db.reset();
}

void tst_CtlBridge::startBridge(QProcess &bridge, const QString &socket)
{
    bridge.start(ctlBinary(), {u"bridge"_s, u"--socket"_s, socket.isEmpty() ? m_daemon->controlSocket() : socket});
    QVERIFY(bridge.waitForStarted());
}

bool tst_CtlBridge::daemonLetGo(qint64 pid)
{
    return m_daemon->countLog(QRegularExpression(u"client uid \\d+ pid %1 connected\\b"_s.arg(pid))) == 1
        && !openControlClients(*m_daemon).contains(pid);
}

void tst_CtlBridge::verifyEndedForGoneClient(QProcess &bridge, qint64 pid)
{
    QTRY_COMPARE_WITH_TIMEOUT(bridge.state(), QProcess::NotRunning, 10000);
    QCOMPARE(bridge.exitStatus(), QProcess::NormalExit);
    QCOMPARE(bridge.exitCode(), 74);
    const QString err = QString::fromUtf8(bridge.readAllStandardError());
    QVERIFY2(ClientGone.match(err).hasMatch(), qPrintable(err));
    QTRY_VERIFY_WITH_TIMEOUT(daemonLetGo(pid), 10000);
}

void tst_CtlBridge::relaysUntilStdinEnds()
{
    QProcess bridge;
    startBridge(bridge);
    const qint64 pid = bridge.processId(); // 0 once it has exited
    bridge.write("{\"id\": 7, \"cmd\": \"version\"}\n");
    QTRY_VERIFY_WITH_TIMEOUT(bridge.canReadLine(), 10000);
    const QJsonObject reply = QJsonDocument::fromJson(bridge.readLine()).object();
    QCOMPARE(reply.value(u"id"_s).toInt(), 7);
    QVERIFY(reply.value(u"ok"_s).toBool());
    QVERIFY(openControlClients(*m_daemon).contains(pid));
    bridge.closeWriteChannel();
    QTRY_COMPARE_WITH_TIMEOUT(bridge.state(), QProcess::NotRunning, 10000);
    QCOMPARE(bridge.exitStatus(), QProcess::NormalExit);
    QCOMPARE(bridge.exitCode(), 0);
    QCOMPARE(bridge.readAllStandardError(), QByteArray());
    QTRY_VERIFY_WITH_TIMEOUT(daemonLetGo(pid), 10000);
}

void tst_CtlBridge::noDaemon_data()
{
    QTest::addColumn<bool>("stale");
    QTest::addColumn<QString>("said"); // after "pepsi-ctl: bridge: no daemon at PATH: "

    QTest::newRow("no such socket") << false
                                    << u"no such socket (--socket; is pepsi-dispatch running, with this "
                                       "CONTROL_SOCKET?)"_s;
    QTest::newRow("nothing listens") << true << u"nothing listens on it (a daemon that died left it behind?)"_s;
}

// The bridge is the far end of ssh: its one line on stderr is what the
// operator reads at the near end (tst_ctlssh).
void tst_CtlBridge::noDaemon()
{
    QFETCH(bool, stale);
    QFETCH(QString, said);
    QTemporaryDir dir;
    QString socket = NoSocket;
    if (stale) {
        // A socket file that a daemon bound and left: nobody listens on it.
        socket = dir.filePath(u"dispatch.sock"_s);
        const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        QVERIFY(fd >= 0);
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        const QByteArray path = QFile::encodeName(socket);
        qstrncpy(address.sun_path, path.constData(), sizeof address.sun_path);
        QCOMPARE(::bind(fd, reinterpret_cast<const sockaddr *>(&address), sizeof address), 0);
        ::close(fd);
    }
    const CtlRun run = runCtl({u"bridge"_s, u"--socket"_s, socket}, "{\"id\":1,\"cmd\":\"version\"}\n");
    QVERIFY2(run.finished && run.exitCode == 69 && run.out.isEmpty(), qPrintable(run.describe()));
    QCOMPARE(run.err, u"pepsi-ctl: bridge: no daemon at %1: %2\n"_s.arg(socket, said));
}

void tst_CtlBridge::refusesLongLineFromClient()
{
    QProcess bridge;
    startBridge(bridge);
    const qint64 pid = bridge.processId(); // 0 once it has exited
    bridge.write(QByteArray(70000, 'x') + '\n');
    QTRY_COMPARE_WITH_TIMEOUT(bridge.state(), QProcess::NotRunning, 10000);
    QCOMPARE(bridge.exitStatus(), QProcess::NormalExit);
    QCOMPARE(bridge.exitCode(), 65);
    QCOMPARE(bridge.readAllStandardOutput(), QByteArray());
    QCOMPARE(QString::fromUtf8(bridge.readAllStandardError()),
             u"pepsi-ctl: bridge: the client (stdin) sent a line longer than 65536 bytes; the bridge ends\n"_s);
    // Its connection to the daemon went with it.
    QTRY_VERIFY_WITH_TIMEOUT(daemonLetGo(pid), 10000);
}

void tst_CtlBridge::refusesLongLineFromDaemon()
{
    const QByteArray tooLong = QByteArray(70000, 'x') + '\n';
    ScriptedServer daemon([&tooLong](const QByteArray &, int) { return ScriptedServer::Answer{tooLong, false}; });
    QProcess bridge;
    startBridge(bridge, daemon.path());
    bridge.write("{\"id\": 1, \"cmd\": \"version\"}\n");
    QTRY_COMPARE_WITH_TIMEOUT(bridge.state(), QProcess::NotRunning, 10000);
    QCOMPARE(bridge.exitCode(), 65);
    QCOMPARE(bridge.readAllStandardOutput(), QByteArray());
    QCOMPARE(QString::fromUtf8(bridge.readAllStandardError()),
             u"pepsi-ctl: bridge: the daemon on %1 sent a line longer than 65536 bytes; the bridge ends\n"_s.arg(
                 daemon.path()));
}

// The client reads the first bytes of many replies and goes (its ssh
// session ended): the bridge's next write finds no reader.
void tst_CtlBridge::endsWhenClientGoesMidReply()
{
    QProcess bridge;
    QProcess client;
    bridge.setStandardOutputProcess(&client);
    client.start(u"head"_s, {u"-c"_s, u"100"_s});
    startBridge(bridge);
    const qint64 pid = bridge.processId(); // 0 once it has exited
    QVERIFY(client.waitForStarted());
    // Far more than a pipe holds: the bridge is still writing when head is gone.
    QByteArray requests;
    for (int i = 0; i < 300; ++i)
        requests += "{\"id\": " + QByteArray::number(i) + ", \"cmd\": \"help\"}\n";
    bridge.write(requests);
    QTRY_COMPARE_WITH_TIMEOUT(client.state(), QProcess::NotRunning, 10000);
    QCOMPARE(client.readAllStandardOutput().size(), 100);
    verifyEndedForGoneClient(bridge, pid);
}

// The client stops reading in the middle of a stream of events.
void tst_CtlBridge::endsWhenClientGoesDuringEvents()
{
    QProcess bridge;
    QProcess client; // reads the subscription's reply and goes
    bridge.setStandardOutputProcess(&client);
    client.start(u"head"_s, {u"-n"_s, u"1"_s});
    startBridge(bridge);
    const qint64 pid = bridge.processId(); // 0 once it has exited
    QVERIFY(client.waitForStarted());
    bridge.write("{\"id\": 1, \"cmd\": \"subscribe\"}\n");
    QTRY_COMPARE_WITH_TIMEOUT(client.state(), QProcess::NotRunning, 10000);
    QVERIFY(QJsonDocument::fromJson(client.readAllStandardOutput()).object().value(u"ok"_s).toBool());
    // A tick comes every second.
    verifyEndedForGoneClient(bridge, pid);
}

void tst_CtlBridge::deliversWhatDaemonSentBeforeClosing()
{
    ScriptedServer daemon([](const QByteArray &, int) {
        return ScriptedServer::Answer{"{\"id\":1,\"ok\":true,\"result\":{}}\n", true};
    });
    QProcess bridge;
    startBridge(bridge, daemon.path());
    bridge.write("{\"id\": 1, \"cmd\": \"version\"}\n");
    QTRY_COMPARE_WITH_TIMEOUT(bridge.state(), QProcess::NotRunning, 10000);
    QCOMPARE(bridge.exitStatus(), QProcess::NormalExit);
    QCOMPARE(bridge.exitCode(), 0);
    QCOMPARE(bridge.readAllStandardOutput(), QByteArray("{\"id\":1,\"ok\":true,\"result\":{}}\n"));
    QCOMPARE(bridge.readAllStandardError(), QByteArray());
}

QTEST_GUILESS_MAIN(tst_CtlBridge)
#include "tst_ctlbridge.moc"
