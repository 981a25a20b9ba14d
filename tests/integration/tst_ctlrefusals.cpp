// SPDX-License-Identifier: AGPL-3.0-or-later
// pepsi-ctl's refusals, each one line on stderr and its exit status, never a
// hang: the daemon's (an unknown stage: 1, naming the stages), a bad command
// line (64), and no daemon answering (69): no socket, not a socket, nobody
// listening, permission denied (naming who may), and scripted sockets that
// close before or in the middle of a reply, never answer, speak something
// else, send a line over the limit, speak another protocol version or turn
// the client away. An admin command cut off mid-reply is never reported done.
#include "controlchecks.h"
#include "ctldaemontest.h"
#include "ctlrun.h"
#include "daemonprocess.h"
#include "testdatabase.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLocalServer>
#include <QLocalSocket>
#include <QTemporaryDir>
#include <QUrl>
#include <QUrlQuery>

#include <grp.h>
#include <memory>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace {

// The reply to {"id":1,"cmd":"version"} of a daemon of this protocol.
QByteArray versionReply(const QByteArray &id = "1")
{
    return R"({"id":)" + id
        + R"(,"ok":true,"result":{"daemon":"0.1.0","protocol":1,"peer":{"admin":true}}})"
          "\n";
}

} // namespace

class tst_CtlRefusals : public CtlDaemonTest
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();

    void refusedByTheDaemon_data();
    void refusedByTheDaemon();
    void badCommandLine_data();
    void badCommandLine();
    void noDaemon_data();
    void noDaemon();
    void permissionDenied();
    void misbehavingDaemon_data();
    void misbehavingDaemon();
    void postgresqlSocket();

private:
    // The daemon of the tests that need one, started by the first of them.
    bool startDaemon();
};

void tst_CtlRefusals::initTestCase() { PEPSI_REQUIRE_CTL_BINARIES(); }

bool tst_CtlRefusals::startDaemon()
{
    if (m_daemon)
        return true;
    m_db = std::make_unique<TestDatabase>(u"ctlrefusals"_s);
    if (!m_db->isValid()) {
        qWarning("%s", qPrintable(m_db->errorString()));
        return false;
    }
    m_daemon = std::make_unique<DaemonProcess>(m_db->uri());
    m_daemon->addStage(u"a"_s, DaemonProcess::fakeWorker(), {{u"NEXT"_s, u"b"_s}});
    m_daemon->addStage(u"b"_s, DaemonProcess::fakeWorker());
    return startReady(*m_daemon);
}

void tst_CtlRefusals::refusedByTheDaemon_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("error");

    for (const QString &command : {u"status"_s, u"workers"_s, u"drain"_s, u"resume"_s})
        QTest::newRow(qPrintable(command))
            << QStringList{command, u"nosuch"_s}
            << u"pepsi-ctl: '%1': unknown stage \"nosuch\" (stages: a, b)\n"_s.arg(command);
}

// An unknown stage: exit 1, the daemon's error naming the stages there are.
void tst_CtlRefusals::refusedByTheDaemon()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, error);
    PEPSI_REQUIRE_DATABASE();
    QVERIFY(startDaemon());
    for (const bool json : {false, true}) {
        const CtlRun run = runCtl(at() + (json ? QStringList{u"--json"_s} : QStringList{}) + arguments);
        QVERIFY2(run.finished && run.exitCode == 1, qPrintable(run.describe()));
        QCOMPARE(run.err, error);
        QCOMPARE(run.out, QString());
    }
}

void tst_CtlRefusals::badCommandLine_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("error");
    QTest::newRow("unknown command") << QStringList{u"frobnicate"_s} << u"unknown command \"frobnicate\""_s;
    QTest::newRow("missing stage") << QStringList{u"drain"_s} << u"drain: missing argument"_s;
    QTest::newRow("requeue without --status") << QStringList{u"requeue"_s, u"a"_s} << u"--status failed"_s;
    QTest::newRow("unknown option") << QStringList{u"status"_s, u"--all"_s} << u"unknown option \"--all\""_s;
}

// Exit 64 with the reason and a pointer to --help; nothing is asked of the daemon.
void tst_CtlRefusals::badCommandLine()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, error);
    const CtlRun run = runCtl(at() + arguments);
    QVERIFY2(run.finished && run.exitCode == 64, qPrintable(run.describe()));
    const QStringList lines = run.err.split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 2);
    QVERIFY2(lines[0].startsWith(u"pepsi-ctl: "_s) && lines[0].contains(error), qPrintable(lines[0]));
    QCOMPARE(lines[1], u"pepsi-ctl: try 'pepsi-ctl --help'"_s);
    QCOMPARE(run.out, QString());
}

void tst_CtlRefusals::noDaemon_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("error");
    QTest::newRow("no such socket") << u"missing"_s
                                    << u"no daemon at %1: no such socket (--socket; is pepsi-dispatch "
                                       "running, with this CONTROL_SOCKET?)"_s;
    QTest::newRow("a regular file") << u"file"_s << u"%1 is a regular file, not the control socket (--socket)"_s;
    QTest::newRow("a directory") << u"directory"_s << u"%1 is a directory, not the control socket (--socket)"_s;
    QTest::newRow("nothing listens")
        << u"stale"_s << u"no daemon at %1: nothing listens on it (a daemon that died left it behind?)"_s;
}

// Exit 69 and one line that says what is at the path.
void tst_CtlRefusals::noDaemon()
{
    QFETCH(QString, kind);
    QFETCH(QString, error);
    QTemporaryDir dir;
    const QString path = dir.filePath(u"dispatch.sock"_s);
    if (kind == u"file") {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
    } else if (kind == u"directory") {
        QVERIFY(QDir().mkdir(path));
    } else if (kind == u"stale") {
        // Bound, then closed without unlinking: what a daemon killed with SIGKILL leaves.
        const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        qstrncpy(address.sun_path, QFile::encodeName(path).constData(), sizeof(address.sun_path));
        QCOMPARE(::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof(address)), 0);
        ::close(fd);
    }
    const CtlRun run = runCtl({u"--socket"_s, path, u"status"_s});
    QVERIFY2(run.finished && run.exitCode == 69, qPrintable(run.describe()));
    QCOMPARE(run.err, u"pepsi-ctl: "_s + error.arg(path) + u'\n');
    QVERIFY(run.elapsedMs < 5000);
}

// Another account that may not enter the socket's directory is told who may.
void tst_CtlRefusals::permissionDenied()
{
    if (!DaemonProcess::runningAsRoot() || !::getpwnam("pepsi-test"))
        QSKIP("needs root and the pepsi-test account (scripts/test creates it)");
    PEPSI_REQUIRE_DATABASE();
    QVERIFY(startDaemon());
    const CtlRun run = runCtl(at() + QStringList{u"status"_s}, {}, 20000, u"pepsi-test"_s);
    QVERIFY2(run.finished && run.exitCode == 69, qPrintable(run.describe()));
    const QString user = DaemonProcess::serviceUser();
    const passwd *account = ::getpwnam(user.toLocal8Bit().constData());
    QVERIFY(account);
    const group *primary = ::getgrgid(account->pw_gid);
    QVERIFY(primary);
    const QString groupName = QString::fromLocal8Bit(primary->gr_name);
    const QString dir = QFileInfo(m_daemon->controlSocket()).absolutePath();
    QCOMPARE(run.err,
             u"pepsi-ctl: permission denied on %1: its directory %2 is %3:%4 mode 0750; run pepsi-ctl as "
             "root or %3, or as a member of group %4 (you are pepsi-test)\n"_s.arg(m_daemon->controlSocket(), dir, user,
                                                                                   groupName));

    // Let it in (as a member of the group would be): it may read, and an
    // admin command is the daemon's refusal, exit 1, naming the account.
    const QByteArray dirName = QFile::encodeName(dir);
    const QByteArray socketName = QFile::encodeName(m_daemon->controlSocket());
    QCOMPARE(::chmod(dirName.constData(), 0755), 0);
    QCOMPARE(::chmod(socketName.constData(), 0666), 0);
    const CtlRun reads = runCtl(at() + QStringList{u"status"_s}, {}, 20000, u"pepsi-test"_s);
    const CtlRun drains = runCtl(at() + QStringList{u"drain"_s, u"a"_s}, {}, 20000, u"pepsi-test"_s);
    QCOMPARE(::chmod(dirName.constData(), 0750), 0);
    QCOMPARE(::chmod(socketName.constData(), 0660), 0);
    QVERIFY2(reads.finished && reads.exitCode == 0, qPrintable(reads.describe()));
    QVERIFY2(drains.finished && drains.exitCode == 1, qPrintable(drains.describe()));
    QCOMPARE(
        drains.err,
        u"pepsi-ctl: permission denied: 'drain' needs root or the service account %1 (you are uid %2)\n"_s.arg(user)
            .arg(::getpwnam("pepsi-test")->pw_uid));
    QCOMPARE(drains.out, QString());
}

void tst_CtlRefusals::misbehavingDaemon_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("behaviour");
    QTest::addColumn<QString>("error");

    QTest::newRow("closes before the version reply")
        << QStringList{u"status"_s} << u"close"_s
        << u"%1 closed the connection before it answered 'version': not a pepsi-dispatch control socket "
           "(PostgreSQL's, say)?"_s;
    QTest::newRow("closes mid-reply to drain")
        << QStringList{u"drain"_s, u"a"_s} << u"half"_s
        << u"the daemon on %1 closed the connection before it answered 'drain'; whether it was carried out is "
           "unknown"_s;
    QTest::newRow("never answers") << QStringList{u"-t"_s, u"300 ms"_s, u"status"_s} << u"silent"_s
                                   << u"the daemon on %1 did not answer 'version' within 300 ms"_s;
    QTest::newRow("speaks something else")
        << QStringList{u"status"_s} << u"http"_s
        << u"%1 does not speak the pepsi control protocol (it sent: HTTP/1.0 400 Bad Request)"_s;
    QTest::newRow("a line over the limit")
        << QStringList{u"status"_s} << u"long"_s << u"the daemon on %1 sent a line longer than 65536 bytes"_s;
    QTest::newRow("another protocol version")
        << QStringList{u"drain"_s, u"a"_s} << u"v2"_s
        << u"the daemon on %1 speaks control protocol 2, pepsi-ctl 1: use the pepsi-ctl of the daemon's version (9.0)"_s;
    QTest::newRow("turned away") << QStringList{u"status"_s} << u"busy"_s
                                 << u"the daemon on %1 refused the connection: too many clients (64)"_s;
}

// Exit 69, one line, within the timeout; never a partial action reported as done.
void tst_CtlRefusals::misbehavingDaemon()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, behaviour);
    QFETCH(QString, error);
    const ScriptedServer::Script script = [behaviour](const QByteArray &, int index) -> ScriptedServer::Answer {
        if (behaviour == u"close")
            return {{}, true};
        if (behaviour == u"half")
            return index == 0 ? ScriptedServer::Answer{versionReply(), false}
                              : ScriptedServer::Answer{R"({"id":2,"ok":tr)", true};
        if (behaviour == u"http")
            return {"HTTP/1.0 400 Bad Request\r\n\r\n", true};
        if (behaviour == u"long")
            return {QByteArray(70000, 'x'), false};
        if (behaviour == u"v2")
            return {R"({"id":1,"ok":true,"result":{"daemon":"9.0","protocol":2}})"
                    "\n",
                    false};
        return {};
    };
    const QByteArray busy = R"x({"id":null,"ok":false,"error":"too many clients (64)"})x";
    const QByteArray greeting = behaviour == u"busy" ? busy + '\n' : QByteArray();
    ScriptedServer server(script, greeting);
    QVERIFY(server.isListening());
    const CtlRun run = runCtl(QStringList{u"--socket"_s, server.path()} + arguments);
    QVERIFY2(run.finished && run.exitCode == 69, qPrintable(run.describe()));
    QCOMPARE(run.err, u"pepsi-ctl: "_s + error.arg(server.path()) + u'\n');
    QCOMPARE(run.out, QString());
    // Nothing past the version request went to a daemon that failed it.
    if (behaviour != u"half")
        QVERIFY2(server.received.size() <= 1, qPrintable(server.received.join(u'\n')));
}

// PostgreSQL's socket given as --socket is named as PostgreSQL's, not called
// "the daemon": the sandbox's server when the tests have one, and a peer
// that answers as PostgreSQL does (an error packet, no newline, hang up).
void tst_CtlRefusals::postgresqlSocket()
{
    QTemporaryDir dir;
    QLocalServer server;
    QVERIFY(server.listen(dir.filePath(u".s.PGSQL.5432"_s)));
    connect(&server, &QLocalServer::newConnection, &server, [&server] {
        QLocalSocket *peer = server.nextPendingConnection();
        connect(peer, &QLocalSocket::readyRead, peer, [peer] {
            peer->readAll();
            peer->write(QByteArray("E\0\0\0\x55SFATAL", 11));
            peer->flush();
            peer->disconnectFromServer();
        });
    });
    QStringList sockets{server.fullServerName()};
    const QUrlQuery database(QUrl(qEnvironmentVariable("PEPSI_TEST_DATABASE")));
    if (database.hasQueryItem(u"host"_s) && database.hasQueryItem(u"port"_s))
        sockets << QDir(database.queryItemValue(u"host"_s, QUrl::FullyDecoded))
                       .filePath(u".s.PGSQL."_s + database.queryItemValue(u"port"_s));
    for (const QString &socket : std::as_const(sockets)) {
        const CtlRun run = runCtl({u"--socket"_s, socket, u"status"_s});
        QVERIFY2(run.finished && run.exitCode == 69, qPrintable(run.describe()));
        QCOMPARE(run.err,
                 u"pepsi-ctl: %1 is PostgreSQL's socket, not pepsi-dispatch's control socket: it closed the "
                 "connection on 'version' (the daemon's socket is CONTROL_SOCKET in its configuration, "
                 "dispatch.sock in its runtime directory)\n"_s.arg(socket));
    }
}

QTEST_GUILESS_MAIN(tst_CtlRefusals)
#include "tst_ctlrefusals.moc"
