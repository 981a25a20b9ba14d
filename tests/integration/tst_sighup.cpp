// SPDX-License-Identifier: AGPL-3.0-or-later
// SIGHUP, as `systemctl reload` sends it (ExecReload=): the daemon reads its
// file again and reloads as on config_changed. A stage's PARALLELISM and a new
// stage take effect, a [pepsi-dispatch] change is logged as ignored with the
// line it is on, systemd hears RELOADING=1 and then READY=1; a file that no
// longer parses ends the daemon with exit 1 naming file and line; a standby
// takes over with the file as it was at its last SIGHUP.
#include "daemonprocess.h"
#include "daemonstart.h"
#include "databasefixture.h"
#include "notifysink.h"
#include "sampler.h"

#include <QFile>
#include <QRegularExpression>
#include <QTest>

#include <csignal>
#include <memory>

using namespace Qt::StringLiterals;

class tst_Sighup : public QObject, private DatabaseFixture
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void fileChangesTakeEffect();
    void brokenFileEndsTheDaemon_data();
    void brokenFileEndsTheDaemon();
    void standbyTakesOverWithTheFileReadAgain();

private:
    static bool hangup(const DaemonProcess &daemon) { return ::kill(pid_t(daemon.pid()), SIGHUP) == 0; }
};

void tst_Sighup::initTestCase() { PEPSI_REQUIRE_BINARIES(); }

void tst_Sighup::init() { PEPSI_INIT_DATABASE_FIXTURE(); }

void tst_Sighup::cleanup()
{
    qunsetenv("NOTIFY_SOCKET");
    resetDatabase();
}

void tst_Sighup::fileChangesTakeEffect()
{
    // GIVEN a daemon under a fake systemd, one stage of one worker, messages flowing
    NotifySink sink;
    QVERIFY(sink.isValid());
    qputenv("NOTIFY_SOCKET", QFile::encodeName(sink.path()));
    DaemonProcess daemon(m_db->uri());
    daemon.setOption(u"MAX_RUNTIME"_s, u"1 min"_s);
    daemon.addStage(u"a"_s, DaemonProcess::fakeWorker(), {{u"PARALLELISM"_s, u"1"_s}});
    QVERIFY(startReady(daemon));
    QTRY_VERIFY2_WITH_TIMEOUT(sink.count("READY=1") == 1, qPrintable(sink.describe()), 15000);

    qsizetype mostOfA = 0;
    Sampler sampler([&] { mostOfA = std::max(mostOfA, daemon.workerPids(u"a"_s).size()); });
    QueueProbe queue(m_db->db());
    QVERIFY(!queue.insert(u"a"_s, 200, {{u"a"_s, u"slow:20"_s}}).isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(queue.count(u"status = 'done'"_s) >= 10, 15000);
    QCOMPARE(mostOfA, 1);

    // WHEN the file gets PARALLELISM = 3, a second stage and another MAX_RUNTIME, and SIGHUP comes
    daemon.setStageOption(u"a"_s, u"PARALLELISM"_s, u"3"_s);
    daemon.addStage(u"b"_s, DaemonProcess::fakeWorker());
    daemon.setOption(u"MAX_RUNTIME"_s, u"2 min"_s);
    QVERIFY(!daemon.writeConfig().isEmpty());
    QVERIFY(hangup(daemon));

    // THEN the pipeline is rebuilt from the file: more workers of a, and b runs
    QVERIFY2(daemon.waitForLog(QRegularExpression(
                 u"pipeline reloaded \\(signal\\): added b; a PARALLELISM 1 \u2192 3; stages: a b"_s)),
             qPrintable(daemon.log()));
    QTRY_VERIFY_WITH_TIMEOUT(mostOfA > 1, 10000);
    QVERIFY(!queue.insert(u"b"_s, 5).isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(queue.count(u"stage = 'b' AND status = 'done'"_s), 5, 15000);
    QTRY_COMPARE_WITH_TIMEOUT(queue.count(u"status = 'done'"_s), 205, 30000);
    sampler.take();
    QVERIFY2(mostOfA <= 3, qPrintable(u"%1 workers of a with PARALLELISM = 3"_s.arg(mostOfA)));

    // ... the [pepsi-dispatch] change is ignored, naming where it is
    const QString ignored = u"WARNING .*%1:\\d+: \\[pepsi-dispatch\\] MAX_RUNTIME is read only at start; "
                            "ignored until a restart"_s.arg(QRegularExpression::escape(daemon.configPath()));
    QVERIFY2(daemon.waitForLog(QRegularExpression(ignored)), qPrintable(daemon.log()));

    // ... and systemd heard RELOADING=1 (with the time it began), then READY=1
    QTRY_VERIFY2_WITH_TIMEOUT(sink.count("READY=1") == 2, qPrintable(sink.describe()), 10000);
    const QList<NotifySink::Message> messages = sink.all();
    qsizetype reloading = -1;
    qsizetype readyAgain = -1;
    for (qsizetype i = 0; i < messages.size(); ++i) {
        const QByteArrayList lines = messages[i].text.split('\n');
        if (lines.contains("RELOADING=1")) {
            QCOMPARE(reloading, -1);
            reloading = i;
            QVERIFY2(messages[i].text.contains("\nMONOTONIC_USEC="), messages[i].text.constData());
        } else if (lines.contains("READY=1") && reloading >= 0) {
            readyAgain = i;
        }
    }
    QVERIFY2(reloading > 0 && readyAgain > reloading, qPrintable(sink.describe()));

    QCOMPARE(daemon.countLog(QRegularExpression(u"^(CRITICAL|FATAL)"_s)), 0);
    QCOMPARE(daemon.terminate(), 0);
}

void tst_Sighup::brokenFileEndsTheDaemon_data()
{
    QTest::addColumn<QString>("breakage");
    QTest::addColumn<QString>("expected"); // after "does not parse: <file>"; %1 stands for appendedLine()
    QTest::newRow("not INI") << u"text"_s << u":%1: "_s;
    QTest::newRow("a cycle") << u"cycle"_s << u":\\d+: .*cycle"_s;
    QTest::newRow("file gone") << u"gone"_s << u": cannot read"_s;
}

void tst_Sighup::brokenFileEndsTheDaemon()
{
    QFETCH(QString, breakage);
    QFETCH(QString, expected);

    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"a"_s, DaemonProcess::fakeWorker(), {{u"NEXT"_s, u"b"_s}});
    daemon.addStage(u"b"_s, DaemonProcess::fakeWorker());
    QVERIFY(startReady(daemon));
    QueueProbe queue(m_db->db());
    QVERIFY(!queue.insert(u"a"_s, 20).isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(queue.count(u"status = 'done'"_s), 20, 15000);

    if (breakage == u"text") {
        daemon.appendRaw("this line is neither a section nor an option\n");
        QVERIFY(!daemon.writeConfig().isEmpty());
    } else if (breakage == u"cycle") {
        daemon.setStageOption(u"b"_s, u"NEXT"_s, u"a"_s);
        QVERIFY(!daemon.writeConfig().isEmpty());
    } else {
        QVERIFY(QFile::remove(daemon.configPath()));
    }
    QVERIFY(hangup(daemon));

    QCOMPARE(daemon.waitForExit(20000), 1);
    const QString pattern = u"reloaded configuration does not parse: "_s
        + QRegularExpression::escape(daemon.configPath())
        + expected.replace(u"%1"_s, QString::number(daemon.appendedLine()));
    QVERIFY2(daemon.log().contains(QRegularExpression(pattern)), qPrintable(pattern + u"\n"_s + daemon.log()));
    QCOMPARE(queue.count(u"status = 'running'"_s), 0);
    QCOMPARE(queue.count(u"status = 'done'"_s), 20);
}

// A standby re-reads the file on SIGHUP (a graph that does not parse would
// end it there) and takes over with it; systemd hears no RELOADING=1 from a
// process that never said READY=1.
void tst_Sighup::standbyTakesOverWithTheFileReadAgain()
{
    DaemonProcess active(m_db->uri());
    active.addStage(u"s"_s, DaemonProcess::fakeWorker());
    QVERIFY(startReady(active));

    NotifySink sink;
    QVERIFY(sink.isValid());
    qputenv("NOTIFY_SOCKET", QFile::encodeName(sink.path()));
    DaemonProcess standby(m_db->uri());
    standby.addStage(u"s"_s, DaemonProcess::fakeWorker());
    QVERIFY(standby.start({u"--standby"_s}));
    QVERIFY2(standby.waitForLog(QRegularExpression(u"standby: waiting for the active dispatcher"_s)),
             qPrintable(standby.log()));

    standby.addStage(u"t"_s, DaemonProcess::fakeWorker());
    QVERIFY(!standby.writeConfig().isEmpty());
    QVERIFY(hangup(standby));
    QVERIFY2(
        standby.waitForLog(QRegularExpression(u"configuration read again; it applies once this dispatcher serves"_s)),
        qPrintable(standby.log()));
    QVERIFY(standby.isRunning());

    QCOMPARE(active.terminate(), 0);
    QVERIFY2(standby.waitForLog(QRegularExpression(u"listening; stages: s t"_s), 15000), qPrintable(standby.log()));
    QueueProbe queue(m_db->db());
    QVERIFY(!queue.insert(u"t"_s, 3).isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(queue.count(u"stage = 't' AND status = 'done'"_s), 3, 15000);
    QTRY_VERIFY2_WITH_TIMEOUT(sink.count("READY=1") == 1, qPrintable(sink.describe()), 10000);
    QCOMPARE(sink.count("RELOADING=1"), 0);
    QCOMPARE(standby.terminate(), 0);
}

QTEST_GUILESS_MAIN(tst_Sighup)
#include "tst_sighup.moc"
