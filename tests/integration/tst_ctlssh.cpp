// SPDX-License-Identifier: AGPL-3.0-or-later
// pepsi-ctl through an ssh:// target against a real OpenSSH server and a
// real pepsi-dispatch (doc/operations.rst, "Watching several systems"):
// status, messages and requeue from stdin as through the socket; ssh's own
// message for an unknown host key, no pepsi-ctl or no daemon on the far
// host; a viewer's bridge stays a viewer; Ctrl-C of `events` leaves nothing
// running on the far side. `pepsi-ctl bridge` alone: tst_ctlbridge.
#include "controlclients.h"
#include "ctlrun.h"
#include "daemonprocess.h"
#include "daemonstart.h"
#include "queueprobe.h"
#include "sshserver.h"
#include "testdatabase.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <csignal>
#include <memory>
#include <pwd.h>
#include <sys/stat.h>

using namespace Qt::StringLiterals;

class tst_CtlSsh : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void cleanup();

    void statusThroughSsh();
    void messagesFromPepsiTarget();
    void requeueIdsThroughSsh();
    void sshFailures_data();
    void sshFailures();
    void viewerStaysViewer();
    void interruptEventsThroughSsh();

private:
    QString target(const QString &socket = {}) const
    {
        return u"ssh://root@127.0.0.1:%1%2"_s.arg(m_ssh->port())
            .arg(socket.isEmpty() ? m_daemon->controlSocket() : socket);
    }
    // The ssh wrapper first on PATH and this build's pepsi-ctl on the far side.
    void useSsh(const QString &bin, const QString &remoteCtl = ctlBinary());
    QList<qint64> failedRows(const QString &stage, int count);

    std::unique_ptr<TestDatabase> m_db;
    std::unique_ptr<DaemonProcess> m_daemon;
    std::unique_ptr<SshServer> m_ssh;
    QByteArray m_path = qgetenv("PATH");
};

#define REQUIRE_SSH()                                                                                                  \
    do {                                                                                                               \
        if (!m_ssh)                                                                                                    \
            QSKIP(qPrintable(                                                                                          \
                u"needs %1 (apt-get install openssh-server openssh-client)"_s.arg(SshServer::missingBinary())));       \
    } while (false)

void tst_CtlSsh::initTestCase()
{
    PEPSI_REQUIRE_CTL_BINARIES();
    PEPSI_REQUIRE_DATABASE_IN(m_db, "ctlssh");
    m_daemon = std::make_unique<DaemonProcess>(m_db->uri());
    m_daemon->addStage(u"a"_s, DaemonProcess::fakeWorker(), {{u"NEXT"_s, u"b"_s}});
    m_daemon->addStage(u"b"_s, DaemonProcess::fakeWorker(), {{u"PARALLELISM"_s, u"2"_s}});
    QVERIFY(startReady(*m_daemon));
    if (SshServer::missingBinary().isEmpty()) {
        m_ssh = std::make_unique<SshServer>();
        QVERIFY2(m_ssh->start(), "the private sshd did not start");
    }
}

void tst_CtlSsh::cleanupTestCase()
{
    if (m_daemon)
        QCOMPARE(m_daemon->terminate(), 0);
    m_ssh.reset();
    m_daemon.reset();
    m_db.reset();
}

void tst_CtlSsh::cleanup()
{
    qputenv("PATH", m_path);
    qunsetenv("PEPSI_REMOTE_CTL");
    qunsetenv("PEPSI_TARGET");
}

void tst_CtlSsh::useSsh(const QString &bin, const QString &remoteCtl)
{
    qputenv("PATH", QFile::encodeName(bin) + ':' + m_path);
    qputenv("PEPSI_REMOTE_CTL", remoteCtl.toUtf8());
}

QList<qint64> tst_CtlSsh::failedRows(const QString &stage, int count)
{
    QueueProbe probe(m_db->db());
    const qint64 before = probe.scalar(u"SELECT coalesce(max(workqueue_id), 0) FROM workqueue"_s);
    if (!m_db->exec(u"INSERT INTO workqueue (stage, status, state) SELECT '%1', 'failed', "
                    "'{\"dispatch_error\": \"status 3: no customer\"}' FROM generate_series(1, %2)"_s.arg(stage)
                        .arg(count)))
        return {};
    QList<qint64> ids;
    for (const QueueRow &row : probe.rows(u"workqueue_id > %1 AND stage = '%2'"_s.arg(before).arg(stage)))
        ids.append(row.id);
    return ids;
}

void tst_CtlSsh::statusThroughSsh()
{
    REQUIRE_SSH();
    useSsh(m_ssh->acceptingBin());
    const CtlRun run = runCtl({u"--target"_s, target(), u"status"_s});
    QVERIFY2(run.finished && run.exitCode == 0 && run.err.isEmpty(), qPrintable(run.describe()));
    QVERIFY2(run.out.startsWith(u"daemon running, "_s), qPrintable(run.out));
    QVERIFY2(run.out.contains(QRegularExpression(u"\\nb +\\d+/2 "_s)), qPrintable(run.out));

    const CtlRun json = runCtl({u"--json"_s, u"--target"_s, target(), u"status"_s});
    QVERIFY2(json.finished && json.exitCode == 0, qPrintable(json.describe()));
    const QJsonObject stages = QJsonDocument::fromJson(json.out.toUtf8()).object().value(u"stages"_s).toObject();
    QCOMPARE(stages.keys(), (QStringList{u"a"_s, u"b"_s}));
}

// PEPSI_TARGET as --target; the same table as through the socket.
void tst_CtlSsh::messagesFromPepsiTarget()
{
    REQUIRE_SSH();
    QCOMPARE(failedRows(u"b"_s, 3).size(), 3);
    const CtlRun local = runCtl({u"--socket"_s, m_daemon->controlSocket(), u"messages"_s, u"b"_s});
    QVERIFY2(local.finished && local.exitCode == 0, qPrintable(local.describe()));
    QVERIFY2(local.out.contains(u"status 3: no customer"_s), qPrintable(local.out));
    useSsh(m_ssh->acceptingBin());
    qputenv("PEPSI_TARGET", target().toUtf8());
    const CtlRun remote = runCtl({u"messages"_s, u"b"_s});
    QVERIFY2(remote.finished && remote.exitCode == 0 && remote.err.isEmpty(), qPrintable(remote.describe()));
    QCOMPARE(remote.out, local.out);
}

// The ids on pepsi-ctl's stdin are its own; the ssh process has a pipe of its own.
void tst_CtlSsh::requeueIdsThroughSsh()
{
    REQUIRE_SSH();
    const QList<qint64> ids = failedRows(u"q"_s, 3);
    QCOMPARE(ids.size(), 3);
    QByteArray input;
    for (qint64 id : ids)
        input += QByteArray::number(id) + '\n';
    useSsh(m_ssh->acceptingBin());
    const CtlRun run =
        runCtl({u"--target"_s, target(), u"requeue"_s, u"q"_s, u"--status"_s, u"failed"_s, u"--ids"_s, u"-"_s}, input);
    QVERIFY2(run.finished && run.exitCode == 0, qPrintable(run.describe()));
    QCOMPARE(run.out, u"q: 3 of 3 ids requeued from failed back to pending\n"_s);
    QueueProbe probe(m_db->db());
    QCOMPARE(probe.count(u"stage = 'q' AND status = 'pending'"_s), 3);
}

void tst_CtlSsh::sshFailures_data()
{
    QTest::addColumn<bool>("strict");
    QTest::addColumn<QString>("remoteCtl");
    QTest::addColumn<QString>("socket");
    QTest::addColumn<QString>("said"); // the end of stderr's line, after "pepsi-ctl: TARGET: "

    QTest::newRow("unknown host key") << true << ctlBinary() << QString()
                                      << u"you have requested strict checking.; Host key verification failed."_s;
    QTest::newRow("no pepsi-ctl there") << false << u"/nonexistent/pepsi-ctl"_s << QString()
                                        << u"/nonexistent/pepsi-ctl: No such file or directory"_s;
    QTest::newRow("no daemon there") << false << ctlBinary() << u"/nonexistent/dispatch.sock"_s
                                     << u"pepsi-ctl: bridge: no daemon at /nonexistent/dispatch.sock: no such socket "
                                        "(--socket; is pepsi-dispatch running, with this CONTROL_SOCKET?)"_s;
}

void tst_CtlSsh::sshFailures()
{
    REQUIRE_SSH();
    QFETCH(bool, strict);
    QFETCH(QString, remoteCtl);
    QFETCH(QString, socket);
    QFETCH(QString, said);
    useSsh(strict ? m_ssh->strictBin() : m_ssh->acceptingBin(), remoteCtl);
    const CtlRun run = runCtl({u"--target"_s, target(socket), u"status"_s});
    QVERIFY2(run.finished && run.exitCode == 69 && run.out.isEmpty(), qPrintable(run.describe()));
    QVERIFY2(run.err.startsWith(u"pepsi-ctl: %1: "_s.arg(target(socket))), qPrintable(run.err));
    QVERIFY2(run.err.endsWith(said + u'\n'), qPrintable(run.err));
    QCOMPARE(run.err.count(u'\n'), 1);
}

// The bridge connects as the ssh login's account (here pepsi-test, through
// runuser on the far side): it reads, and the daemon refuses it a drain.
void tst_CtlSsh::viewerStaysViewer()
{
    REQUIRE_SSH();
    if (!DaemonProcess::runningAsRoot() || !::getpwnam("pepsi-test"))
        QSKIP("needs root and the pepsi-test account (scripts/test creates it)");
    useSsh(m_ssh->acceptingBin());
    const CtlRun asRoot = runCtl({u"--target"_s, target(), u"drain"_s, u"a"_s});
    QVERIFY2(asRoot.finished && asRoot.exitCode == 0, qPrintable(asRoot.describe()));
    QCOMPARE(asRoot.out, u"a: drained\n"_s);

    const QByteArray dir = QFile::encodeName(QFileInfo(m_daemon->controlSocket()).absolutePath());
    const QByteArray socket = QFile::encodeName(m_daemon->controlSocket());
    QCOMPARE(::chmod(dir.constData(), 0755), 0);
    QCOMPARE(::chmod(socket.constData(), 0666), 0);
    useSsh(m_ssh->acceptingBin(), u"runuser -u pepsi-test -- "_s + ctlBinary());
    const CtlRun reads = runCtl({u"--target"_s, target(), u"status"_s});
    const CtlRun resumes = runCtl({u"--target"_s, target(), u"resume"_s, u"a"_s});
    QCOMPARE(::chmod(dir.constData(), 0750), 0);
    QCOMPARE(::chmod(socket.constData(), 0660), 0);
    QVERIFY2(reads.finished && reads.exitCode == 0, qPrintable(reads.describe()));
    QVERIFY2(resumes.finished && resumes.exitCode == 1, qPrintable(resumes.describe()));
    QCOMPARE(resumes.err,
             u"pepsi-ctl: permission denied: 'resume' needs root or the service account %1 (you are uid %2)\n"_s
                 .arg(DaemonProcess::serviceUser())
                 .arg(::getpwnam("pepsi-test")->pw_uid));

    useSsh(m_ssh->acceptingBin());
    const CtlRun resumed = runCtl({u"--target"_s, target(), u"resume"_s, u"a"_s});
    QVERIFY2(resumed.finished && resumed.exitCode == 0, qPrintable(resumed.describe()));
}

// Ctrl-C of a stream through ssh: pepsi-ctl ends at once with exit 0, and
// on the far side the bridge, its ssh session and its connection to the
// daemon go with it.
void tst_CtlSsh::interruptEventsThroughSsh()
{
    REQUIRE_SSH();
    useSsh(m_ssh->acceptingBin());
    const QList<qint64> before = openControlClients(*m_daemon);
    QProcess ctl;
    ctl.start(ctlBinary(), {u"--target"_s, target(), u"--json"_s, u"events"_s, u"tick"_s});
    QVERIFY(ctl.waitForStarted());
    QByteArray out;
    QVERIFY2(QTest::qWaitFor([&] { return (out += ctl.readAllStandardOutput()).count('\n') >= 2; }, 20000),
             qPrintable(u"stdout: %1, stderr: %2"_s.arg(QString::fromUtf8(out),
                                                        QString::fromUtf8(ctl.readAllStandardError()))));
    QCOMPARE(QJsonDocument::fromJson(out.left(out.indexOf('\n'))).object().value(u"event"_s).toString(), u"tick"_s);

    // The one new client of the daemon is the far bridge; its parent, sshd's session.
    QList<qint64> added = openControlClients(*m_daemon);
    for (qint64 pid : before)
        added.removeOne(pid);
    QCOMPARE(added.size(), 1);
    const qint64 bridge = added.constFirst();
    QFile cmdline(u"/proc/%1/cmdline"_s.arg(bridge));
    QVERIFY2(cmdline.open(QIODevice::ReadOnly) && cmdline.readAll().contains("bridge"), "no bridge on the far side");
    const qint64 session = DaemonProcess::procStatusField(bridge, u"PPid"_s).trimmed().toLongLong();
    QVERIFY(session > 1);

    QCOMPARE(::kill(pid_t(ctl.processId()), SIGINT), 0);
    QVERIFY(QTest::qWaitFor([&ctl] { return ctl.state() == QProcess::NotRunning; }, 5000));
    QCOMPARE(ctl.exitStatus(), QProcess::NormalExit);
    QCOMPARE(ctl.exitCode(), 0);
    QCOMPARE(ctl.readAllStandardError(), QByteArray());
    QTRY_VERIFY_WITH_TIMEOUT(DaemonProcess::isGone(bridge), 5000);
    QTRY_VERIFY_WITH_TIMEOUT(DaemonProcess::isGone(session), 5000);
    QTRY_VERIFY_WITH_TIMEOUT(!openControlClients(*m_daemon).contains(bridge), 5000);
    QVERIFY(openControlClients(*m_daemon).size() <= before.size());
}

QTEST_GUILESS_MAIN(tst_CtlSsh)
#include "tst_ctlssh.moc"
