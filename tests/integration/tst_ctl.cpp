// SPDX-License-Identifier: AGPL-3.0-or-later
// pepsi-ctl as a process against a real pepsi-dispatch: every command the
// daemon has, as tables and as --json; the admin commands and what they did
// to the daemon and the database; `events` until SIGINT; `requeue --ids -`
// in batches, and ids on stdin that are not numbers moving nothing. Commands
// the daemon does not know yet (metrics, messages, message, set) are its
// refusal: exit 1. The other refusals: tst_ctlrefusals.
#include "controlchecks.h"
#include "controltestclient.h"
#include "ctldaemontest.h"
#include "ctlrun.h"
#include "daemonprocess.h"
#include "queueprobe.h"
#include "testdatabase.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <csignal>
#include <memory>
#include <unistd.h>

using namespace Qt::StringLiterals;

class tst_Ctl : public CtlDaemonTest
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();

    void tables_data();
    void tables();
    void json_data();
    void json();
    void commandsTheDaemonMayLack_data();
    void commandsTheDaemonMayLack();
    void socketFromTheConfiguration();
    void drainResumeReload();
    void requeueIdsFromStdin();
    void requeueWithoutIds();
    void badIdsSendNothing();
    void eventsUntilInterrupted();

private:
    int countAdminLog(const QString &command);
    // pepsi-ctl requeue STAGE --status failed --ids -, `ids` on its stdin.
    CtlRun requeueFailedIds(const QString &stage, const QByteArray &ids);
};

void tst_Ctl::initTestCase()
{
    PEPSI_REQUIRE_CTL_BINARIES();
    PEPSI_REQUIRE_DATABASE_IN(m_db, "ctl");
    m_daemon = std::make_unique<DaemonProcess>(m_db->uri());
    m_daemon->addStage(u"a"_s, DaemonProcess::fakeWorker(), {{u"NEXT"_s, u"b"_s}});
    m_daemon->addStage(u"b"_s, DaemonProcess::fakeWorker(), {{u"PARALLELISM"_s, u"2"_s}});
    QVERIFY(startReady(*m_daemon));
    // Some history, and workers alive while the read commands run (slow:
    // each message takes a while at b).
    QueueProbe probe(m_db->db());
    QCOMPARE(probe.insert(u"a"_s, 20, {{u"b"_s, u"slow:100"_s}}).size(), 20);
    QTRY_VERIFY_WITH_TIMEOUT(probe.count(u"status = 'done'"_s) >= 1, 15000);
}

int tst_Ctl::countAdminLog(const QString &command)
{
    return m_daemon->countLog(QRegularExpression(u"admin command .*\"cmd\":\"%1\""_s.arg(command)));
}

CtlRun tst_Ctl::requeueFailedIds(const QString &stage, const QByteArray &ids)
{
    return runCtl(at() + QStringList{u"requeue"_s, stage, u"--status"_s, u"failed"_s, u"--ids"_s, u"-"_s}, ids);
}

void tst_Ctl::tables_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QStringList>("lines"); // regular expressions, each matching some line of stdout

    QTest::newRow("status") << QStringList{u"status"_s}
                            << QStringList{u"^daemon running, \\d+ workers \\(\\d+ busy\\), in flight \\d+/\\d+, "_s,
                                           u"^STAGE +WORKERS +IN FLIGHT +PENDING +OLDEST +FAILED +TIMEOUT +"
                                           "RATE 10S +RATE 60S +FAILURES +STATE$"_s,
                                           u"^a +\\d+/4 +\\d+/16 +\\d+ +\\S+ +0 +0 +[\\d.]+ +[\\d.]+ +0 +-$"_s,
                                           u"^b +\\d+/2 +\\d+/8 +"_s,
                                           u"^queue counts \\S+ old \\(counted at \\d{4}-\\d\\d-\\d\\d "_s};
    QTest::newRow("status b") << QStringList{u"status"_s, u"b"_s} << QStringList{u"^b +\\d+/2 "_s};
    QTest::newRow("workers") << QStringList{u"workers"_s}
                             << QStringList{u"^ *PID +STAGE +STATE +MESSAGES +UPTIME +HELD +HEAD +HEAD AGE$"_s,
                                            u"^\\d+ +b +(running|starting|stopping)"_s};
    QTest::newRow("queues") << QStringList{u"queues"_s}
                            << QStringList{u"^counted at "_s,
                                           u"^STAGE +PENDING +RUNNING +PAUSED +FAILED +TIMEOUT +OLDEST"_s,
                                           u"^a +\\d+ +\\d+ +\\d+ +\\d+ +\\d+ "_s, u"^TOTAL "_s};
    QTest::newRow("stages") << QStringList{u"stages"_s}
                            << QStringList{
                                   u"^STAGE +PARALLELISM +QUEUE LIMIT +MAX MESSAGES +FUSE +DRAINED +NEXT +PROGRAM$"_s,
                                   u"^a +4 +4 +1000 +no +no +b +/\\S+pepsi-fakeworker$"_s,
                                   u"^b +2 +4 +1000 +no +no +- +"_s, u"^settings:$"_s, u"^  max_runtime_ms: 5m00s$"_s};
    QTest::newRow("stats") << QStringList{u"stats"_s}
                           << QStringList{
                                  u"^since \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d: claimed \\d+ in \\d+ rounds"_s,
                                  u"^STAGE +RUNS +FAILURES +TIMEOUTS +CRASHES +BUSY +RATE 10S +RATE 60S$"_s,
                                  u"^b +\\d+ +0 +0 +0 "_s};
}

void tst_Ctl::tables()
{
    QFETCH(QStringList, arguments);
    QFETCH(QStringList, lines);
    const CtlRun run = runCtl(at() + arguments);
    QVERIFY2(run.finished && run.exitCode == 0 && run.err.isEmpty(), qPrintable(run.describe()));
    const QStringList out = run.out.split(u'\n');
    for (const QString &pattern : lines) {
        const QRegularExpression re(pattern);
        QVERIFY2(
            std::any_of(out.cbegin(), out.cend(), [&re](const QString &line) { return re.match(line).hasMatch(); }),
            qPrintable(u"no line matches %1 in:\n%2"_s.arg(pattern, run.out)));
    }
}

void tst_Ctl::json_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QStringList>("fields"); // of the result object; empty: an array

    QTest::newRow("status") << QStringList{u"status"_s}
                            << QStringList{u"time"_s, u"state"_s, u"totals"_s, u"queues_at"_s, u"stages"_s};
    QTest::newRow("workers") << QStringList{u"workers"_s} << QStringList{};
    QTest::newRow("queues") << QStringList{u"queues"_s} << QStringList{u"at"_s, u"age_ms"_s, u"stages"_s};
    QTest::newRow("stages") << QStringList{u"stages"_s} << QStringList{u"stages"_s, u"settings"_s};
    QTest::newRow("stats") << QStringList{u"stats"_s} << QStringList{u"since"_s, u"totals"_s, u"stages"_s};
}

// --json prints the daemon's result itself.
void tst_Ctl::json()
{
    QFETCH(QStringList, arguments);
    QFETCH(QStringList, fields);
    const CtlRun run = runCtl(at() + QStringList{u"--json"_s} + arguments);
    QVERIFY2(run.finished && run.exitCode == 0 && run.err.isEmpty(), qPrintable(run.describe()));
    const QJsonDocument document = parsed(run.out);
    if (fields.isEmpty()) {
        QVERIFY(document.isArray());
        const QJsonArray workers = document.array();
        for (const QJsonValue &worker : workers) {
            VERIFY_FIELDS(worker, u"pid"_s, u"stage"_s, u"held"_s, u"ids"_s); // --json keeps the ids
        }
        return;
    }
    QVERIFY(document.isObject());
    QString missing;
    QVERIFY2(hasAll(document.object(), fields, &missing), qPrintable(missing));
    if (arguments.first() == u"status" || arguments.first() == u"queues")
        QCOMPARE(keysOf(document.object().value(u"stages"_s)), QStringList({u"a"_s, u"b"_s}));
}

void tst_Ctl::commandsTheDaemonMayLack_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::newRow("metrics") << QStringList{u"metrics"_s};
    QTest::newRow("messages") << QStringList{u"messages"_s, u"a"_s, u"--status"_s, u"failed"_s};
    QTest::newRow("message") << QStringList{u"message"_s, u"1"_s};
    QTest::newRow("set") << QStringList{u"set"_s, u"b"_s, u"PARALLELISM"_s, u"2"_s};
}

// Every command of the contract is sent; a daemon that does not know one
// refuses it (exit 1 with its error), one that does answers (exit 0).
void tst_Ctl::commandsTheDaemonMayLack()
{
    QFETCH(QStringList, arguments);
    ControlTestClient client;
    QVERIFY(client.connectTo(m_daemon->controlSocket()));
    const QJsonArray commands = client.request(R"({"cmd":"help"})"_ba)[u"result"_s][u"commands"_s].toArray();
    const bool known = std::any_of(commands.begin(), commands.end(), [&arguments](const QJsonValue &command) {
        return command[u"cmd"_s].toString() == arguments.first();
    });
    const CtlRun run = runCtl(at() + arguments);
    QVERIFY(run.finished);
    if (known) {
        QVERIFY2(run.exitCode == 0 && !run.out.isEmpty(), qPrintable(run.describe()));
        return;
    }
    QVERIFY2(run.exitCode == 1, qPrintable(run.describe()));
    QCOMPARE(run.err, u"pepsi-ctl: unknown command \"%1\" (\"help\" lists them)\n"_s.arg(arguments.first()));
}

// Without --socket: -c FILE's CONTROL_SOCKET, as the daemon reads it.
void tst_Ctl::socketFromTheConfiguration()
{
    const CtlRun run = runCtl({u"-c"_s, m_daemon->configPath(), u"--json"_s, u"stages"_s});
    QVERIFY2(run.finished && run.exitCode == 0, qPrintable(run.describe()));
    QCOMPARE(parsed(run.out)[u"stages"_s].toArray().size(), 2);
    const CtlRun missing = runCtl({u"-c"_s, u"/nonexistent/pepsi.conf"_s, u"status"_s});
    QVERIFY2(missing.finished && missing.exitCode == 64, qPrintable(missing.describe()));
    QVERIFY2(missing.err.startsWith(u"pepsi-ctl: cannot read the socket's path: /nonexistent/pepsi.conf"_s),
             qPrintable(missing.err));
}

void tst_Ctl::drainResumeReload()
{
    CtlRun run = runCtl(at() + QStringList{u"drain"_s, u"a"_s});
    QVERIFY2(run.finished && run.exitCode == 0, qPrintable(run.describe()));
    QCOMPARE(run.out, u"a: drained\n"_s);
    run = runCtl(at() + QStringList{u"--json"_s, u"status"_s, u"a"_s});
    QCOMPARE(parsed(run.out)[u"stages"_s][u"a"_s][u"drained"_s].toBool(), true);
    run = runCtl(at() + QStringList{u"status"_s, u"a"_s});
    QVERIFY2(run.out.contains(QRegularExpression(u"\\n(a +.*drained)\\n"_s)), qPrintable(run.out));

    run = runCtl(at() + QStringList{u"--json"_s, u"resume"_s, u"a"_s});
    QVERIFY2(run.finished && run.exitCode == 0, qPrintable(run.describe()));
    QCOMPARE(parsed(run.out).object(), QJsonObject({{u"stage"_s, u"a"_s}, {u"drained"_s, false}}));

    run = runCtl(at() + QStringList{u"reload"_s});
    QVERIFY2(run.finished && run.exitCode == 0, qPrintable(run.describe()));
    QCOMPARE(run.out, u"reloaded; stages: a, b\nnothing changed\n"_s);
    QVERIFY(m_daemon->waitForLog(QRegularExpression(u"admin command .*\"cmd\":\"reload\""_s)));
}

// 4,100 ids on stdin: three requests (2,000, 2,000, 100), every row moved.
void tst_Ctl::requeueIdsFromStdin()
{
    // A stage outside the graph: requeued rows stay pending to be counted.
    QVERIFY(m_db->exec(u"INSERT INTO workqueue (stage, status) SELECT 'q', 'failed' FROM generate_series(1, 4100)"_s));
    QueueProbe probe(m_db->db());
    QByteArray ids;
    for (const QueueRow &row : probe.rows(u"stage = 'q'"_s))
        ids += QByteArray::number(row.id) + '\n';
    const int before = countAdminLog(u"requeue"_s);
    const CtlRun run = requeueFailedIds(u"q"_s, ids);
    QVERIFY2(run.finished && run.exitCode == 0, qPrintable(run.describe()));
    QCOMPARE(run.out, u"q: 4100 of 4100 ids requeued from failed back to pending\n"_s);
    QCOMPARE(probe.count(u"stage = 'q' AND status = 'pending'"_s), 4100);
    QTRY_COMPARE(countAdminLog(u"requeue"_s) - before, 3);

    // Again: none of them is failed now; --json sums the batches.
    const CtlRun again =
        runCtl(at() + QStringList{u"--json"_s, u"requeue"_s, u"q"_s, u"--status=failed"_s, u"--ids=-"_s}, ids);
    QVERIFY2(again.finished && again.exitCode == 0, qPrintable(again.describe()));
    QCOMPARE(parsed(again.out).object(), QJsonObject({{u"requeued"_s, 0}, {u"more"_s, false}}));
    QVERIFY(m_db->exec(u"DELETE FROM workqueue WHERE stage = 'q'"_s));
}

void tst_Ctl::requeueWithoutIds()
{
    QVERIFY(m_db->exec(u"INSERT INTO workqueue (stage, status) SELECT 'r', 'timeout' FROM generate_series(1, 8)"_s));
    QueueProbe probe(m_db->db());
    CtlRun run = runCtl(at() + QStringList{u"requeue"_s, u"r"_s, u"--status"_s, u"timeout"_s, u"--limit"_s, u"5"_s});
    QVERIFY2(run.finished && run.exitCode == 0, qPrintable(run.describe()));
    QCOMPARE(run.out,
             u"r: 5 timeout rows back to pending; more rows match (run it again, or give a larger --limit)\n"_s);
    run = runCtl(at() + QStringList{u"requeue"_s, u"r"_s, u"--status"_s, u"timeout"_s});
    QCOMPARE(run.out, u"r: 3 timeout rows back to pending\n"_s);
    QCOMPARE(probe.count(u"stage = 'r' AND status = 'pending'"_s), 8);
    QVERIFY(m_db->exec(u"DELETE FROM workqueue WHERE stage = 'r'"_s));
}

// A bad line anywhere on stdin: exit 64 and not one row moved, not one request sent.
void tst_Ctl::badIdsSendNothing()
{
    QVERIFY(m_db->exec(u"INSERT INTO workqueue (stage, status) SELECT 'x', 'failed' FROM generate_series(1, 3)"_s));
    QueueProbe probe(m_db->db());
    const QList<QueueRow> rows = probe.rows(u"stage = 'x'"_s);
    const QByteArray ids = QByteArray::number(rows[0].id) + "\n" + QByteArray::number(rows[1].id) + "\nseven\n";
    const int before = countAdminLog(u"requeue"_s);
    const CtlRun run = requeueFailedIds(u"x"_s, ids);
    QVERIFY2(run.finished && run.exitCode == 64, qPrintable(run.describe()));
    QCOMPARE(run.err, u"pepsi-ctl: requeue: stdin line 3: \"seven\" is not a message id; nothing was requeued\n"_s);
    QCOMPARE(probe.count(u"stage = 'x' AND status = 'failed'"_s), 3);
    QCOMPARE(countAdminLog(u"requeue"_s), before);
    QVERIFY(m_db->exec(u"DELETE FROM workqueue WHERE stage = 'x'"_s));
}

// events follows until SIGINT, then exits 0; with --json one object a line.
void tst_Ctl::eventsUntilInterrupted()
{
    for (const bool json : {false, true}) {
        QProcess ctl;
        ctl.start(ctlBinary(),
                  at() + (json ? QStringList{u"--json"_s} : QStringList{}) + QStringList{u"events"_s, u"tick"_s});
        QVERIFY(ctl.waitForStarted());
        QByteArray out;
        QVERIFY2(QTest::qWaitFor([&] { return (out += ctl.readAllStandardOutput()).count('\n') >= 2; }, 10000),
                 qPrintable(u"stdout: %1, stderr: %2"_s.arg(QString::fromUtf8(out),
                                                            QString::fromUtf8(ctl.readAllStandardError()))));
        const QByteArray first = out.left(out.indexOf('\n'));
        if (json)
            QCOMPARE(QJsonDocument::fromJson(first).object().value(u"event"_s).toString(), u"tick"_s);
        else
            QVERIFY2(QRegularExpression(u"^\\d\\d:\\d\\d:\\d\\d\\.\\d{3}  tick (\\S+=\\S+ )*claimed=\\d+ "_s)
                         .match(QString::fromUtf8(first))
                         .hasMatch(),
                     first.constData());
        QCOMPARE(::kill(pid_t(ctl.processId()), SIGINT), 0);
        QVERIFY(QTest::qWaitFor([&ctl] { return ctl.state() == QProcess::NotRunning; }, 5000));
        QCOMPARE(ctl.exitStatus(), QProcess::NormalExit);
        QCOMPARE(ctl.exitCode(), 0);
        QCOMPARE(ctl.readAllStandardError(), QByteArray());
    }
}

QTEST_GUILESS_MAIN(tst_Ctl)
#include "tst_ctl.moc"
