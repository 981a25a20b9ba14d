// SPDX-License-Identifier: AGPL-3.0-or-later
// The control socket's file against a fake dispatcher: its mode and its
// directory's, the lock that refuses a second server and goes with the
// first, a stale socket a crashed daemon left replaced, and a live one that
// is not ours kept.
#include "control/controlserver.h"
#include "controltestclient.h"
#include "directserverfixture.h"

#include <QFile>
#include <QTest>
#include <memory>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

using namespace pepsi;
using namespace Qt::StringLiterals;

class tst_ControlSocketFile : public DirectServerTest
{
    Q_OBJECT

private Q_SLOTS:
    void socketModeAndLock();
    void staleSocketIsReplaced();
    void liveSocketWithoutLockIsKept();
};

void tst_ControlSocketFile::socketModeAndLock()
{
    struct stat info
    {
    };
    QCOMPARE(::stat(QFile::encodeName(m_daemon->path()).constData(), &info), 0);
    QVERIFY(S_ISSOCK(info.st_mode));
    QCOMPARE(info.st_mode & 07777, mode_t(0660));
    QCOMPARE(::stat(QFile::encodeName(m_daemon->dirPath(u"run"_s)).constData(), &info), 0);
    QCOMPARE(info.st_mode & 07777, mode_t(0750));

    // A second server on the same path: refused, the first one keeps serving.
    FakeDispatch otherFake;
    ControlServer second(otherFake.board(), otherFake, otherFake);
    const auto error = second.listen(m_daemon->path());
    QVERIFY(error);
    QVERIFY2(error->contains(u"still running"_s) && error->contains(QString::number(::getpid())), qPrintable(*error));
    ControlTestClient client;
    QVERIFY(client.connectTo(m_daemon->path()));
    QCOMPARE(client.request(R"({"cmd":"version"})"_ba).value(u"result"_s)[u"pid"_s].toInt(), 4242);

    // Closing removes the socket and the lock.
    m_daemon->server().close();
    QVERIFY(!QFile::exists(m_daemon->path()));
    QVERIFY(!QFile::exists(m_daemon->path() + u".lock"_s));
}

void tst_ControlSocketFile::staleSocketIsReplaced()
{
    m_daemon->server().close();
    // What a crashed daemon leaves: a socket file nobody listens on, and a
    // lock file naming a pid that is gone.
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const QByteArray name = QFile::encodeName(m_daemon->path());
    memcpy(address.sun_path, name.constData(), size_t(name.size()));
    QCOMPARE(::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof address), 0);
    ::close(fd);
    QVERIFY(QFile::exists(m_daemon->path()));
    QFile lock(m_daemon->path() + u".lock"_s);
    QVERIFY(lock.open(QIODevice::WriteOnly));
    lock.write("999999\npepsi-dispatch\n" + QSysInfo::machineHostName().toUtf8() + "\n");
    lock.close();

    ControlServer server(m_daemon->dispatch().board(), m_daemon->dispatch(), m_daemon->dispatch());
    const auto error = server.listen(m_daemon->path());
    QVERIFY2(!error, qPrintable(error.value_or(QString())));
    ControlTestClient client;
    QVERIFY(client.connectTo(m_daemon->path()));
    QCOMPARE(client.request(R"({"cmd":"version"})"_ba).value(u"ok"_s).toBool(), true);
}

void tst_ControlSocketFile::liveSocketWithoutLockIsKept()
{
    m_daemon->server().close();
    // Something that does not take our lock listens there.
    QLocalServer foreign;
    QVERIFY(foreign.listen(m_daemon->path()));
    ControlServer server(m_daemon->dispatch().board(), m_daemon->dispatch(), m_daemon->dispatch());
    const auto error = server.listen(m_daemon->path());
    QVERIFY(error);
    QVERIFY2(error->contains(u"not taking it over"_s), qPrintable(*error));
    QVERIFY(foreign.isListening());
    QVERIFY(QFile::exists(m_daemon->path()));
}

QTEST_GUILESS_MAIN(tst_ControlSocketFile)
#include "tst_controlsocketfile.moc"
