// SPDX-License-Identifier: AGPL-3.0-or-later
// Targets (common/transport): what --target and $PEPSI_TARGET accept, the ssh
// command line made of one, and the message taken from ssh's stderr.
#include "transport/sshcommand.h"
#include "transport/target.h"

#include <QTest>

using namespace Qt::StringLiterals;
using pepsi::transport::SshCommand;
using pepsi::transport::Target;

class tst_Target : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parse_data();
    void parse();
    void sshArguments_data();
    void sshArguments();
    void summary_data();
    void summary();
};

void tst_Target::parse_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("ssh");
    QTest::addColumn<QString>("user");
    QTest::addColumn<QString>("host");
    QTest::addColumn<int>("port");
    QTest::addColumn<QString>("socket");
    QTest::addColumn<QString>("error"); // a part of the error; empty: parses

    const QString none;
    QTest::newRow("path") << u"/run/pepsi/dispatch.sock"_s << false << none << none << 0
                          << u"/run/pepsi/dispatch.sock"_s << none;
    QTest::newRow("relative path") << u"dispatch.sock"_s << false << none << none << 0 << u"dispatch.sock"_s << none;
    QTest::newRow("host") << u"ssh://db1"_s << true << none << u"db1"_s << 0 << none << none;
    QTest::newRow("host /") << u"ssh://db1/"_s << true << none << u"db1"_s << 0 << none << none;
    QTest::newRow("user@host") << u"ssh://ops@db1.example.org"_s << true << u"ops"_s << u"db1.example.org"_s << 0
                               << none << none;
    QTest::newRow("port") << u"ssh://db1:2222"_s << true << none << u"db1"_s << 2222 << none << none;
    QTest::newRow("everything") << u"ssh://ops@10.0.0.7:22/run/pepsi/eu/dispatch.sock"_s << true << u"ops"_s
                                << u"10.0.0.7"_s << 22 << u"/run/pepsi/eu/dispatch.sock"_s << none;
    QTest::newRow("ipv6") << u"ssh://[::1]"_s << true << none << u"::1"_s << 0 << none << none;
    QTest::newRow("ipv6 port path") << u"ssh://root@[fe80::1%eth0]:2200/x.sock"_s << true << u"root"_s
                                    << u"fe80::1%eth0"_s << 2200 << u"/x.sock"_s << none;
    QTest::newRow("upper-case scheme") << u"SSH://db1"_s << true << none << u"db1"_s << 0 << none << none;

    QTest::newRow("empty") << QString() << false << none << none << 0 << none << u"the target is empty"_s;
    QTest::newRow("no host") << u"ssh://"_s << true << none << none << 0 << none << u"no host"_s;
    QTest::newRow("no host, user") << u"ssh://ops@/x"_s << true << none << none << 0 << none << u"no host"_s;
    QTest::newRow("empty user") << u"ssh://@db1"_s << true << none << none << 0 << none << u"\"\" is not a user name"_s;
    QTest::newRow("option as host") << u"ssh://-oProxyCommand=x"_s << true << none << none << 0 << none
                                    << u"is not a host name"_s;
    QTest::newRow("option as user") << u"ssh://-x@db1"_s << true << none << none << 0 << none
                                    << u"is not a user name"_s;
    QTest::newRow("port 0") << u"ssh://db1:0"_s << true << none << none << 0 << none << u"is not 1 to 65535"_s;
    QTest::newRow("port 65536") << u"ssh://db1:65536"_s << true << none << none << 0 << none << u"is not 1 to 65535"_s;
    QTest::newRow("port name") << u"ssh://db1:ssh"_s << true << none << none << 0 << none << u"is not 1 to 65535"_s;
    QTest::newRow("port +22") << u"ssh://db1:+22"_s << true << none << none << 0 << none << u"is not 1 to 65535"_s;
    QTest::newRow("empty port") << u"ssh://db1:"_s << true << none << none << 0 << none << u"the port is empty"_s;
    QTest::newRow("bare ipv6") << u"ssh://::1"_s << true << none << none << 0 << none
                               << u"an IPv6 address goes in brackets"_s;
    QTest::newRow("unclosed bracket") << u"ssh://[::1"_s << true << none << none << 0 << none << u"no closing ]"_s;
    QTest::newRow("not ipv6") << u"ssh://[db1]"_s << true << none << none << 0 << none << u"is not an IPv6 address"_s;
    QTest::newRow("blank in host") << u"ssh://db 1"_s << true << none << none << 0 << none << u"is not a host name"_s;
    QTest::newRow("other scheme") << u"tcp://db1:7000"_s << false << none << none << 0 << none
                                  << u"tcp:// is not a known scheme"_s;
}

void tst_Target::parse()
{
    QFETCH(QString, text);
    QFETCH(bool, ssh);
    QFETCH(QString, user);
    QFETCH(QString, host);
    QFETCH(int, port);
    QFETCH(QString, socket);
    QFETCH(QString, error);
    const auto target = Target::parse(text);
    if (!error.isEmpty()) {
        QVERIFY2(!target, qPrintable(text));
        QVERIFY2(target.error().contains(error), qPrintable(target.error()));
        QVERIFY2(!target.error().contains(u'\n'), qPrintable(target.error()));
        return;
    }
    if (!target)
        QFAIL(qPrintable(target.error()));
    QCOMPARE(target->isSsh(), ssh);
    QCOMPARE(target->user, user);
    QCOMPARE(target->host, host);
    QCOMPARE(target->port, port);
    QCOMPARE(target->socketPath, socket);
    QCOMPARE(target->text, text);
}

void tst_Target::sshArguments_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("remoteCtl");
    QTest::addColumn<QStringList>("arguments");

    const QStringList common{u"-o"_s, u"BatchMode=yes"_s, u"-T"_s};
    QTest::newRow("host") << u"ssh://db1"_s << u"pepsi-ctl"_s
                          << common + QStringList{u"--"_s, u"db1"_s, u"pepsi-ctl bridge"_s};
    QTest::newRow("everything") << u"ssh://ops@[::1]:2222/run/pepsi/eu/dispatch.sock"_s << u"pepsi-ctl"_s
                                << common + QStringList{u"-p"_s,
                                                        u"2222"_s,
                                                        u"-l"_s,
                                                        u"ops"_s,
                                                        u"--"_s,
                                                        u"::1"_s,
                                                        u"pepsi-ctl bridge --socket /run/pepsi/eu/dispatch.sock"_s};
    QTest::newRow("quoted path") << u"ssh://db1/tmp/it's here.sock"_s << u"/opt/pepsi/bin/pepsi-ctl"_s
                                 << common
            + QStringList{u"--"_s, u"db1"_s, u"/opt/pepsi/bin/pepsi-ctl bridge --socket '/tmp/it'\\''s here.sock'"_s};
    QTest::newRow("command prefix") << u"ssh://db1"_s << u"sudo -u pepsi pepsi-ctl"_s
                                    << common + QStringList{u"--"_s, u"db1"_s, u"sudo -u pepsi pepsi-ctl bridge"_s};
}

void tst_Target::sshArguments()
{
    QFETCH(QString, text);
    QFETCH(QString, remoteCtl);
    QFETCH(QStringList, arguments);
    const auto target = Target::parse(text);
    if (!target)
        QFAIL(qPrintable(target.error()));
    const SshCommand command = SshCommand::forTarget(*target, remoteCtl);
    QCOMPARE(command.program, u"ssh"_s);
    QCOMPARE(command.arguments, arguments);
}

void tst_Target::summary_data()
{
    QTest::addColumn<QByteArray>("stderrText");
    QTest::addColumn<QString>("summary");

    QTest::newRow("refused key") << QByteArray("ops@db1: Permission denied (publickey).\r\n")
                                 << u"ops@db1: Permission denied (publickey)."_s;
    QTest::newRow("unknown host key")
        << QByteArray("No ED25519 host key is known for [127.0.0.1]:2222 and you have requested strict checking.\n"
                      "Host key verification failed.\n")
        << u"No ED25519 host key is known for [127.0.0.1]:2222 and you have requested strict checking.; Host key "
           "verification failed."_s;
    QTest::newRow("the last two") << QByteArray("one\ntwo\n\nthree\n") << u"two; three"_s;
    QTest::newRow("added key left out") << QByteArray(
        "Warning: Permanently added '[127.0.0.1]:2222' (ED25519) to the list of known hosts.\n"
        "pepsi-ctl: bridge: no daemon at /x.sock\n")
                                        << u"pepsi-ctl: bridge: no daemon at /x.sock"_s;
    QTest::newRow("nothing") << QByteArray("\n\n") << QString();
}

void tst_Target::summary()
{
    QFETCH(QByteArray, stderrText);
    QFETCH(QString, summary);
    QCOMPARE(SshCommand::summary(stderrText), summary);
}

QTEST_APPLESS_MAIN(tst_Target)
#include "tst_target.moc"
