// SPDX-License-Identifier: AGPL-3.0-or-later
// The console over targets (doc/man/pepsi-console.rst): one local daemon and
// one reached through a real OpenSSH server and `pepsi-ctl bridge` on the
// "far" side, watched at once in one window, each with its own client. The
// ssh one's daemon is killed and started again while the local one stays
// live, in its own view and in the overview; what ssh says when it cannot
// bring the console there reaches the banner; and closing the ssh system
// does not wait for an ssh that does not end.
#include "connectionstatus.h"
#include "consolefeed.h"
#include "controlclient.h"
#include "daemonprocess.h"
#include "daemonstart.h"
#include "mainwindow.h"
#include "poolmodel.h"
#include "sshserver.h"
#include "systemlistmodel.h"
#include "systemswindow.h"
#include "testdatabase.h"
#include "transport/sshreaper.h"

#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLabel>
#include <QSet>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <memory>

using namespace pepsi::console;
using namespace Qt::StringLiterals;
using pepsi::transport::Target;
using State = ControlClient::State;

class TestConsoleSystems : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void cleanup();
    void watchesALocalAndAnSshSystem();
    void sshFailureReachesTheBanner_data();
    void sshFailureReachesTheBanner();
    void closingAnSshSystemDoesNotWait();

private:
    // The ssh wrapper of `bin` first on PATH, this build's pepsi-ctl on the far side.
    void useSsh(const QString &bin, const QString &remoteCtl);
    Target sshTarget(const QString &socket) const;

    std::unique_ptr<TestDatabase> m_localDb;
    std::unique_ptr<TestDatabase> m_farDb;
    std::unique_ptr<SshServer> m_ssh;
    QByteArray m_path = qgetenv("PATH");
};

namespace {

QString ctlBinary() { return DaemonProcess::buildDir() + u"/ctl/pepsi-ctl"_s; }

// The console as pepsi-console opens it, without popups, retrying quickly.
struct Console : SystemsWindow
{
    Console() { setErrorPopups(false); }
    MainWindow *watch(const Target &target)
    {
        MainWindow *window = addSystem(target);
        client(systemCount() - 1)->setReconnectInterval(250);
        show();
        return window;
    }
    // Connected, fresh figures, nothing greyed, as the system's view and the overview show it.
    bool live(int index) const
    {
        MainWindow *window = system(index);
        return client(index)->state() == State::Connected && !window->feed()->isStale()
            && !window->staleBanner()->isVisibleTo(window)
            && overviewText(index, SystemListModel::ConnectionColumn) == u"connected"_s;
    }
    QString overviewText(int row, int column) const { return overview()->index(row, column).data().toString(); }
};

// Our child process named `name` (the console's ssh), 0 when there is none.
qint64 childNamed(const QByteArray &name)
{
    const QDir tasks(u"/proc/self/task"_s);
    for (const QString &task : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile children(tasks.filePath(task) + u"/children"_s);
        if (!children.open(QIODevice::ReadOnly))
            continue;
        for (const QByteArray &pid : children.readAll().simplified().split(' ')) {
            QFile comm(u"/proc/%1/comm"_s.arg(QString::fromLatin1(pid)));
            if (!pid.isEmpty() && comm.open(QIODevice::ReadOnly) && comm.readAll().trimmed() == name)
                return pid.toLongLong();
        }
    }
    return 0;
}

// The control clients the daemon `pid` holds: its connected Unix sockets
// that carry an address, which only those it accepted do (its database
// sessions and its own socket pairs have none).
int controlPeers(qint64 pid)
{
    QSet<QByteArray> inodes;
    for (const auto &[fd, link] : DaemonProcess::openFiles(pid)) {
        if (link.startsWith(u"socket:["_s))
            inodes.insert(link.mid(8).chopped(1).toLatin1());
    }
    QFile table(u"/proc/net/unix"_s);
    if (!table.open(QIODevice::ReadOnly))
        return -1;
    int peers = 0;
    // Num RefCount Protocol Flags Type St Inode Path; St 03: connected.
    for (const QByteArray &line : table.readAll().split('\n')) {
        const QList<QByteArray> fields = line.simplified().split(' ');
        if (fields.size() >= 8 && fields[5] == "03" && inodes.contains(fields[6]))
            ++peers;
    }
    return peers;
}

bool writeScript(const QString &path, const QString &text)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(text.toUtf8()) == text.toUtf8().size()
        && file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
}

void addStages(DaemonProcess &daemon)
{
    daemon.addStage(u"a"_s, DaemonProcess::fakeWorker(), {{u"NEXT"_s, u"b"_s}});
    daemon.addStage(u"b"_s, DaemonProcess::fakeWorker());
}

// Every test's pair of systems: `local` with two stages, `far` with one of its
// own, so that each view shows which daemon it reached. False (with the log
// of the one that did not get ready already shown) when either did not start.
bool startLocalAndFar(DaemonProcess &local, DaemonProcess &far)
{
    addStages(local);
    if (!startReady(local))
        return false;
    far.addStage(u"far"_s, DaemonProcess::fakeWorker());
    return startReady(far);
}

} // namespace

void TestConsoleSystems::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    PEPSI_REQUIRE_BINARIES();
    QVERIFY2(QFile::exists(ctlBinary()), qPrintable(ctlBinary()));
    if (!SshServer::missingBinary().isEmpty())
        QSKIP(
            qPrintable(u"needs %1 (apt-get install openssh-server openssh-client)"_s.arg(SshServer::missingBinary())));
    PEPSI_REQUIRE_DATABASE_IN(m_localDb, "consolesystems_local");
    m_farDb = std::make_unique<TestDatabase>(u"consolesystems_far"_s);
    QVERIFY2(m_farDb->isValid(), qPrintable(m_farDb->errorString()));
    m_ssh = std::make_unique<SshServer>();
    QVERIFY2(m_ssh->start(), "the private sshd did not start");
}

void TestConsoleSystems::cleanupTestCase()
{
    m_ssh.reset();
    m_farDb.reset();
    m_localDb.reset();
}

void TestConsoleSystems::cleanup()
{
    qputenv("PATH", m_path);
    qunsetenv("PEPSI_REMOTE_CTL");
}

void TestConsoleSystems::useSsh(const QString &bin, const QString &remoteCtl)
{
    qputenv("PATH", QFile::encodeName(bin) + ':' + m_path);
    qputenv("PEPSI_REMOTE_CTL", remoteCtl.toUtf8());
}

Target TestConsoleSystems::sshTarget(const QString &socket) const
{
    const auto target = Target::parse(u"ssh://root@127.0.0.1:%1%2"_s.arg(m_ssh->port()).arg(socket));
    return target ? *target : Target();
}

void TestConsoleSystems::watchesALocalAndAnSshSystem()
{
    // GIVEN a daemon here and one "far away", behind ssh
    DaemonProcess local(m_localDb->uri());
    DaemonProcess far(m_farDb->uri());
    QVERIFY(startLocalAndFar(local, far));
    useSsh(m_ssh->acceptingBin(), ctlBinary());
    const Target farTarget = sshTarget(far.controlSocket());
    QVERIFY(farTarget.isSsh());

    // WHEN the console watches both
    Console console;
    MainWindow *here = console.watch(Target::localSocket(local.controlSocket()));
    MainWindow *there = console.watch(farTarget);

    // THEN both are live, each with its own daemon's pipeline, and the overview lists both
    QTRY_VERIFY_WITH_TIMEOUT(console.live(0), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(console.live(1), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(there->feed()->pools()->keys(), QStringList{u"far"_s}, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(here->feed()->pools()->keys().size(), 2, 5000);
    QVERIFY(console.client(1)->isAdmin()); // the bridge runs as the ssh login, root
    QCOMPARE(console.overview()->rowCount(), 2);
    QCOMPARE(console.overviewText(1, SystemListModel::SystemColumn), u"127.0.0.1"_s); // its host
    QVERIFY(console.overview()->index(1, 0).data(Qt::ToolTipRole).toString().startsWith(farTarget.text));
    QTRY_VERIFY_WITH_TIMEOUT(console.overviewText(1, SystemListModel::BusyColumn).contains(u" of "_s), 5000);
    QVERIFY(console.overviewView()->isVisible());
    QCOMPARE(console.currentSystem(), 1); // the one added last
    QVERIFY(console.windowTitle().contains(farTarget.text));

    // WHEN the far daemon dies
    far.kill();
    QVERIFY(far.waitForExit() != 0);

    // THEN within 5 s the ssh system shows it as a dead daemon: grey, since when, no banner
    QTRY_VERIFY_WITH_TIMEOUT(there->staleBanner()->isVisibleTo(there), 5000);
    QVERIFY(there->feed()->isStale());
    QVERIFY(!there->peerBanner()->isVisibleTo(there));
    QTRY_VERIFY_WITH_TIMEOUT(console.overviewText(1, SystemListModel::ConnectionColumn).contains(u"since"_s), 5000);
    QVERIFY(console.overview()->index(1, 0).data(SystemListModel::TroubleRole).toBool());
    // and it keeps trying at its reconnect interval, not backing off
    QVERIFY(!console.client(1)->isBackingOff());
    // while the local one stays live
    QVERIFY(console.live(0));

    // WHEN the operator picks the local system's row, THEN every view is that system's
    QTableView *overview = console.overviewView();
    QTest::mouseClick(overview->viewport(), Qt::LeftButton, {},
                      overview->visualRect(console.overview()->index(0, 0)).center());
    QCOMPARE(console.currentSystem(), 0);
    QCOMPARE(console.systemBox()->currentIndex(), 0);
    QVERIFY(here->isVisible());
    QVERIFY(!there->isVisible());
    QVERIFY(console.windowTitle().contains(local.controlSocket()));

    // WHEN the far daemon is started again, THEN the console is back by itself
    QVERIFY(startReady(far));
    QTRY_VERIFY_WITH_TIMEOUT(console.live(1), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(there->feed()->pools()->keys(), QStringList{u"far"_s}, 5000);
    QVERIFY(console.live(0));
    QCOMPARE(local.terminate(), 0);
    QCOMPARE(far.terminate(), 0);
}

void TestConsoleSystems::sshFailureReachesTheBanner_data()
{
    QTest::addColumn<bool>("strict");       // an ssh that knows no host key
    QTest::addColumn<QString>("remoteCtl"); // how the far host runs pepsi-ctl
    QTest::addColumn<QString>("expected");  // part of ssh's own message

    QTest::newRow("unknown host key") << true << ctlBinary() << u"Host key verification failed"_s;
    QTest::newRow("no pepsi-ctl there") << false << u"/nonexistent/pepsi-ctl"_s << u"No such file or directory"_s;
}

void TestConsoleSystems::sshFailureReachesTheBanner()
{
    QFETCH(bool, strict);
    QFETCH(QString, remoteCtl);
    QFETCH(QString, expected);

    // GIVEN an ssh that cannot bring the console to the far daemon
    useSsh(strict ? m_ssh->strictBin() : m_ssh->acceptingBin(), remoteCtl);

    // WHEN the console is pointed there
    Console console;
    MainWindow *there = console.watch(sshTarget(u"/run/pepsi/none.sock"_s));

    // THEN the banner says why, in ssh's own words, and the retries back off
    QTRY_VERIFY_WITH_TIMEOUT(there->peerBanner()->isVisible(), 10000);
    const QString text = there->peerBanner()->text();
    QVERIFY2(text.contains(expected), qPrintable(text));
    QVERIFY2(text.contains(u"127.0.0.1"_s), qPrintable(text));
    QVERIFY(console.client(0)->isBackingOff());
    QVERIFY(console.client(0)->state() != State::Connected);
    QVERIFY2(there->connectionStatus()->connectionText().contains(u"ssh"_s),
             qPrintable(there->connectionStatus()->connectionText()));
}

void TestConsoleSystems::closingAnSshSystemDoesNotWait()
{
    // GIVEN a local system and one behind an ssh that outlives the end of its
    // stdin: the far command lingers after its bridge has ended
    DaemonProcess local(m_localDb->uri());
    DaemonProcess far(m_farDb->uri());
    QVERIFY(startLocalAndFar(local, far));
    QTemporaryDir dir;
    const QString lingering = dir.filePath(u"pepsi-ctl"_s);
    QVERIFY(writeScript(lingering, u"#!/bin/sh\n\"%1\" \"$@\"\nexec sleep 8\n"_s.arg(ctlBinary())));
    useSsh(m_ssh->acceptingBin(), lingering);
    Console console;
    console.watch(Target::localSocket(local.controlSocket()));
    console.watch(sshTarget(far.controlSocket()));
    QTRY_VERIFY_WITH_TIMEOUT(console.live(0), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(console.live(1), 10000);
    const qint64 ssh = childNamed("ssh");
    QVERIFY(ssh > 0);
    QTRY_COMPARE_WITH_TIMEOUT(controlPeers(far.pid()), 1, 5000);

    // WHEN the operator closes the ssh system, while a timer ticks
    int ticks = 0;
    QTimer ticker;
    connect(&ticker, &QTimer::timeout, this, [&ticks] { ++ticks; });
    ticker.start(20);
    QElapsedTimer clock;
    clock.start();
    console.closeSystem(1);

    // THEN the console does not wait for ssh
    QVERIFY2(clock.elapsed() < 1000, qPrintable(u"closeSystem took %1 ms"_s.arg(clock.elapsed())));
    QCOMPARE(console.systemCount(), 1);
    // the far daemon sees its client go at once (the bridge ended with ssh's stdin)
    QTRY_COMPARE_WITH_TIMEOUT(controlPeers(far.pid()), 0, 5000);
    // the lingering ssh is killed after the grace period and reaped, no zombie left
    QTRY_VERIFY_WITH_TIMEOUT(!QFileInfo::exists(u"/proc/%1"_s.arg(ssh)), pepsi::transport::SshReaper::GraceMs + 3000);
    QVERIFY2(clock.elapsed() >= pepsi::transport::SshReaper::GraceMs - 500,
             qPrintable(u"ssh gone after %1 ms, before its grace period"_s.arg(clock.elapsed())));
    // the event loop ran all along
    QVERIFY2(ticks * 20 >= clock.elapsed() / 2, qPrintable(u"%1 ticks in %2 ms"_s.arg(ticks).arg(clock.elapsed())));
    // and the local system stays live
    QVERIFY(console.live(0));
    QCOMPARE(local.terminate(), 0);
    QCOMPARE(far.terminate(), 0);
}

QTEST_MAIN(TestConsoleSystems)
#include "tst_consolesystems.moc"
