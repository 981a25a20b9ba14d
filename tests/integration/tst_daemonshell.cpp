// SPDX-License-Identifier: AGPL-3.0-or-later
// The daemon's shell as a real process: command line, exit codes, bad
// configuration, start-up reset, LISTEN, signals, privilege drop and the
// one-dispatcher lock, against a real PostgreSQL.
#include "daemonprocess.h"
#include "daemonstart.h"
#include "databasefixture.h"

#include <QSet>
#include <QSqlQuery>
#include <QTest>

#include <csignal>
#include <grp.h>
#include <memory>
#include <pwd.h>

using namespace Qt::StringLiterals;

class tst_DaemonShell : public QObject, private DatabaseFixture
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanup();

    void commandLine_data();
    void commandLine();
    void badConfiguration_data();
    void badConfiguration();
    void missingServiceAccount();
    void serveListensAndStops_data();
    void serveListensAndStops();
    void startupResetsRunningRows();
    void dropsPrivileges();
    void secondDispatcherRefuses();

private:
    qint64 plantRow(const QString &stage, const QString &status);
    QString statusOf(qint64 id);
};

void tst_DaemonShell::initTestCase() { PEPSI_REQUIRE_BINARIES(); }

void tst_DaemonShell::cleanup() { resetDatabase(); }

qint64 tst_DaemonShell::plantRow(const QString &stage, const QString &status)
{
    QSqlQuery q(m_db->db());
    q.prepare(u"INSERT INTO workqueue (stage, status) VALUES (:stage, :status::workqueue_status) "
              "RETURNING workqueue_id"_s);
    q.bindValue(u":stage"_s, stage);
    q.bindValue(u":status"_s, status);
    if (!q.exec() || !q.next())
        return -1;
    return q.value(0).toLongLong();
}

QString tst_DaemonShell::statusOf(qint64 id)
{
    QSqlQuery q(m_db->db());
    q.prepare(u"SELECT status::text FROM workqueue WHERE workqueue_id = :id"_s);
    q.bindValue(u":id"_s, id);
    return q.exec() && q.next() ? q.value(0).toString() : u"(no row)"_s;
}

void tst_DaemonShell::commandLine_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("stdoutPattern"); // empty: stdout must be empty
    QTest::addColumn<QString>("stderrPattern"); // empty: stderr must be empty

    const QString usage = u"^Usage: pepsi-dispatch \\[-c FILE\\] \\[-L LEVEL\\] \\[-v\\] \\[-h\\] serve"_s;
    const QString version = u"^pepsi-dispatch \\d+\\.\\d+\\.\\d+\\n$"_s;
    const QString hint = u"\\nTry 'pepsi-dispatch --help'.\\n$"_s;
    QTest::newRow("-h") << QStringList{u"-h"_s} << 0 << usage << QString();
    QTest::newRow("--help") << QStringList{u"--help"_s} << 0 << usage << QString();
    QTest::newRow("-h after -c") << QStringList{u"-c"_s, u"/nonexistent"_s, u"-h"_s} << 0 << usage << QString();
    QTest::newRow("-v") << QStringList{u"-v"_s} << 0 << version << QString();
    QTest::newRow("--version") << QStringList{u"--version"_s} << 0 << version << QString();
    QTest::newRow("no command") << QStringList{} << 64 << QString()
                                << u"^pepsi-dispatch: missing command: serve or check"_s + hint;
    QTest::newRow("only options") << QStringList{u"-L"_s, u"DEBUG"_s} << 64 << QString()
                                  << u"^pepsi-dispatch: missing command: serve or check"_s + hint;
    QTest::newRow("unknown command") << QStringList{u"run"_s} << 64 << QString()
                                     << u"^pepsi-dispatch: unknown command \"run\" \\(serve or check\\)"_s + hint;
    QTest::newRow("unknown option") << QStringList{u"--frobnicate"_s, u"serve"_s} << 64 << QString()
                                    << u"^pepsi-dispatch: unknown option \"--frobnicate\""_s + hint;
    QTest::newRow("unknown serve argument") << QStringList{u"serve"_s, u"--now"_s} << 64 << QString()
                                            << u"^pepsi-dispatch: serve: unknown argument \"--now\""_s + hint;
    QTest::newRow("-L BOGUS")
        << QStringList{u"-L"_s, u"BOGUS"_s, u"serve"_s} << 64 << QString()
        << u"^pepsi-dispatch: -L: unknown log level \"BOGUS\" \\(ERROR, WARNING, INFO or DEBUG\\)"_s + hint;
    QTest::newRow("-c without a value") << QStringList{u"-c"_s} << 64 << QString()
                                        << u"^pepsi-dispatch: option -c needs a value"_s + hint;
}

void tst_DaemonShell::commandLine()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    QFETCH(QString, stdoutPattern);
    QFETCH(QString, stderrPattern);

    // No database: none of these may get as far as reading a configuration.
    DaemonProcess daemon(u"postgresql:///nonexistent?host=/nonexistent"_s);
    QVERIFY(daemon.startWith(arguments));
    QCOMPARE(daemon.waitForExit(), exitCode);
    const QString out = daemon.standardOutput();
    const QString err = daemon.log();
    if (stdoutPattern.isEmpty())
        QCOMPARE(out, QString());
    else
        QVERIFY2(QRegularExpression(stdoutPattern).match(out).hasMatch(), qPrintable(u"stdout: "_s + out));
    if (stderrPattern.isEmpty())
        QCOMPARE(err, QString());
    else
        QVERIFY2(QRegularExpression(stderrPattern).match(err).hasMatch(), qPrintable(u"stderr: "_s + err));
}

void tst_DaemonShell::badConfiguration_data()
{
    QTest::addColumn<QByteArray>("snippet"); // appended to a good file
    QTest::addColumn<QList<int>>("lines");   // the line(s) of the snippet the error may name
    QTest::addColumn<QString>("reason");     // regular expression

    QTest::newRow("syntax error") << QByteArray("[stage-x]\nPROGRAM = /bin/true\nthis line has no equals sign\n")
                                  << QList<int>{3} << u"missing \"=\" in \"this line has no equals sign\""_s;
    QTest::newRow("PARALLELISM = 0") << QByteArray("[stage-bad]\nPROGRAM = /bin/true\nPARALLELISM = 0\n")
                                     << QList<int>{3} << u"PARALLELISM: 0 is out of range \\(1\\.\\.1024\\)"_s;
    QTest::newRow("stage without PROGRAM")
        << QByteArray("[stage-empty]\nPARALLELISM = 2\n") << QList<int>{1} << u"stage-empty: PROGRAM is required"_s;
    QTest::newRow("NEXT to an unknown stage") << QByteArray("[stage-a]\nPROGRAM = /bin/true\nNEXT = nowhere\n")
                                              << QList<int>{3} << u"NEXT: unknown stage \"nowhere\""_s;
    QTest::newRow("cycle") << QByteArray("[stage-x]\nPROGRAM = /bin/true\nNEXT = y\n"
                                         "[stage-y]\nPROGRAM = /bin/true\nNEXT = x\n")
                           << QList<int>{3, 6} << u"NEXT: cycle (x -> y -> x|y -> x -> y)"_s;
    QTest::newRow("bad MAX_RUNTIME") << QByteArray("[pepsi-dispatch]\nMAX_RUNTIME = forever\n") << QList<int>{2}
                                     << u"MAX_RUNTIME: \"forever\""_s;
    QTest::newRow("DB_POOL_SIZE below 3")
        << QByteArray("[pepsi-dispatch]\nDB_POOL_SIZE = 2\n") << QList<int>{2}
        << u"DB_POOL_SIZE: 2 is out of range \\(3\\.\\.1000\\): the dispatcher opens 3 connections of its own "
           "\\(claims and settlements, LISTEN, operator queries\\)"_s;
    QTest::newRow("unknown dispatcher option")
        << QByteArray("[pepsi-dispatch]\nMAX_RUNTIM = 5 s\n") << QList<int>{2} << u"unknown option MAX_RUNTIM"_s;
}

void tst_DaemonShell::badConfiguration()
{
    QFETCH(QByteArray, snippet);
    QFETCH(QList<int>, lines);
    QFETCH(QString, reason);
    if (!freshDatabase())
        return;
    // Start-up resets running rows: one still running afterwards proves the
    // daemon never got as far as the database.
    const qint64 planted = plantRow(u"x"_s, u"running"_s);
    QVERIFY(planted > 0);

    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"good"_s, DaemonProcess::fakeWorker());
    daemon.appendRaw(snippet);
    QVERIFY(daemon.start());
    QCOMPARE(daemon.waitForExit(), 78);

    QStringList where;
    for (int line : lines)
        where << QString::number(daemon.appendedLine() + line - 1);
    const QRegularExpression expected(u"^ERROR [a-z.]*: ?bad configuration: "_s
                                          + QRegularExpression::escape(daemon.configPath()) + u":("_s + where.join(u'|')
                                          + u"): .*"_s + reason,
                                      QRegularExpression::MultilineOption);
    const QString log = daemon.log();
    QVERIFY2(expected.match(log).hasMatch(), qPrintable(u"expected /"_s + expected.pattern() + u"/ in:\n"_s + log));
    QVERIFY2(!log.contains(u"listening"_s), qPrintable(log));
    QCOMPARE(statusOf(planted), u"running"_s);
}

void tst_DaemonShell::missingServiceAccount()
{
    if (!DaemonProcess::runningAsRoot())
        QSKIP("USER only matters when the daemon is started as root");
    if (!freshDatabase())
        return;
    const QString user = u"pepsi-no-such-account"_s;
    QVERIFY2(!::getpwnam(user.toLocal8Bit().constData()), "the account is not supposed to exist");
    const qint64 planted = plantRow(u"x"_s, u"running"_s);

    DaemonProcess daemon(m_db->uri());
    daemon.setOption(u"USER"_s, user);
    QVERIFY(daemon.start());
    QCOMPARE(daemon.waitForExit(), 78);
    const QString log = daemon.log();
    QVERIFY2(log.contains(u"USER: the service account \"pepsi-no-such-account\" does not exist"_s), qPrintable(log));
    QCOMPARE(statusOf(planted), u"running"_s);
}

void tst_DaemonShell::serveListensAndStops_data()
{
    QTest::addColumn<int>("signal");
    QTest::newRow("SIGTERM") << int(SIGTERM);
    QTest::newRow("SIGINT") << int(SIGINT);
}

void tst_DaemonShell::serveListensAndStops()
{
    QFETCH(int, signal);
    if (!freshDatabase())
        return;
    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"quiet"_s, DaemonProcess::fakeWorker());
    QVERIFY(startReady(daemon));
    QVERIFY2(daemon.log().contains(u"listening; stages: quiet"_s), qPrintable(daemon.log()));
    QCOMPARE(daemon.countLog(QRegularExpression(u"notification on workqueue"_s)), 0);

    // A row for a stage nobody serves: the insert trigger's NOTIFY is all that happens.
    QVERIFY(plantRow(u"elsewhere"_s, u"pending"_s) > 0);
    QVERIFY2(daemon.waitForLog(QRegularExpression(u"^DEBUG [a-z.]*: ?notification on workqueue$"_s,
                                                  QRegularExpression::MultilineOption)),
             qPrintable(daemon.log()));

    QCOMPARE(daemon.terminate(15000, signal), 0);
    const QString log = daemon.log();
    QVERIFY2(log.contains(u"signal %1 received"_s.arg(signal)), qPrintable(log));
    QVERIFY2(log.contains(u"stopped"_s), qPrintable(log));
}

void tst_DaemonShell::startupResetsRunningRows()
{
    if (!freshDatabase())
        return;
    // Rows of a stage the daemon does not serve, so nothing claims them again.
    QList<qint64> orphans;
    for (int i = 0; i < 3; ++i)
        orphans << plantRow(u"elsewhere"_s, u"running"_s);
    const qint64 finished = plantRow(u"elsewhere"_s, u"failed"_s);

    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"quiet"_s, DaemonProcess::fakeWorker());
    QVERIFY(startReady(daemon));
    for (qint64 id : std::as_const(orphans))
        QCOMPARE(statusOf(id), u"pending"_s);
    QCOMPARE(statusOf(finished), u"failed"_s);
    QTRY_COMPARE(daemon.countLog(QRegularExpression(u"^INFO [a-z.]*: ?reset 3 running rows left by a previous "
                                                    "dispatcher to pending"_s)),
                 1);
    QCOMPARE(daemon.terminate(), 0);
}

namespace {

// "Uid:" and "Gid:" lines hold real, effective, saved and filesystem ids.
QString fourTimes(unsigned id) { return u"%1\t%1\t%1\t%1"_s.arg(id); }

QSet<QString> groupsOf(const passwd &account)
{
    int count = 64;
    QList<gid_t> groups(count);
    if (::getgrouplist(account.pw_name, account.pw_gid, groups.data(), &count) < 0) {
        groups.resize(count);
        ::getgrouplist(account.pw_name, account.pw_gid, groups.data(), &count);
    }
    QSet<QString> names;
    for (int i = 0; i < count; ++i)
        names.insert(QString::number(groups[i]));
    return names;
}

QSet<QString> groupsField(qint64 pid)
{
    const QStringList ids = DaemonProcess::procStatusField(pid, u"Groups"_s).split(u' ', Qt::SkipEmptyParts);
    return {ids.cbegin(), ids.cend()};
}

} // namespace

void tst_DaemonShell::dropsPrivileges()
{
    if (!DaemonProcess::runningAsRoot())
        QSKIP("the daemon drops privileges only when started as root");
    if (!freshDatabase())
        return;
    const QByteArray user = DaemonProcess::serviceUser().toLocal8Bit();
    const passwd *found = ::getpwnam(user.constData());
    QVERIFY2(found,
             qPrintable(u"the service account %1 does not exist (scripts/test creates it)"_s.arg(
                 DaemonProcess::serviceUser())));
    passwd account = *found;
    const QSet<QString> groups = groupsOf(account);
    QVERIFY(account.pw_uid != 0);

    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"s"_s, DaemonProcess::fakeWorker());
    QVERIFY(startReady(daemon));
    QCOMPARE(DaemonProcess::procStatusField(daemon.pid(), u"Uid"_s), fourTimes(account.pw_uid));
    QCOMPARE(DaemonProcess::procStatusField(daemon.pid(), u"Gid"_s), fourTimes(account.pw_gid));
    QCOMPARE(groupsField(daemon.pid()), groups);

    // A worker held busy long enough to look at it.
    QSqlQuery insert(m_db->db());
    QVERIFY(insert.exec(u"INSERT INTO workqueue (stage, state) VALUES ('s', '{\"fake\": {\"s\": \"slow:3000\"}}')"_s));
    QTRY_COMPARE_WITH_TIMEOUT(daemon.workerPids(u"s"_s).size(), 1, 10000);
    const qint64 worker = daemon.workerPids(u"s"_s).constFirst();
    QCOMPARE(DaemonProcess::procStatusField(worker, u"Uid"_s), fourTimes(account.pw_uid));
    QCOMPARE(DaemonProcess::procStatusField(worker, u"Gid"_s), fourTimes(account.pw_gid));
    QCOMPARE(groupsField(worker), groups);
    // Root's supplementary group 0 is gone (unless the account has it itself).
    QCOMPARE(groupsField(daemon.pid()).contains(u"0"_s), groups.contains(u"0"_s));
    daemon.kill();
}

void tst_DaemonShell::secondDispatcherRefuses()
{
    if (!freshDatabase())
        return;
    DaemonProcess first(m_db->uri());
    first.addStage(u"quiet"_s, DaemonProcess::fakeWorker());
    QVERIFY(startReady(first));
    // Planted after the first one's start-up reset: the second must not reset it.
    const qint64 planted = plantRow(u"elsewhere"_s, u"running"_s);

    DaemonProcess second(m_db->uri());
    second.addStage(u"quiet"_s, DaemonProcess::fakeWorker());
    QVERIFY(second.start());
    QCOMPARE(second.waitForExit(), 1);
    const QString log = second.log();
    // One line names the holder: the first daemon's pid from its application_name.
    const QRegularExpression refusal(u"^ERROR [a-z.]*: ?another dispatcher is already running on this database: "
                                     ".*\\bpid %1\\b"_s.arg(first.pid()),
                                     QRegularExpression::MultilineOption);
    QVERIFY2(refusal.match(log).hasMatch(), qPrintable(u"first pid %1; "_s.arg(first.pid()) + log));
    QVERIFY2(!log.contains(u"listening"_s), qPrintable(log));
    QCOMPARE(statusOf(planted), u"running"_s);

    QVERIFY(first.isRunning());
    QCOMPARE(first.terminate(), 0);
}

QTEST_GUILESS_MAIN(tst_DaemonShell)
#include "tst_daemonshell.moc"
