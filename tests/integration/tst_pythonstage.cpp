// SPDX-License-Identifier: AGPL-3.0-or-later
// The Python example stage (stagekit/example/pepsi-stage-example.py, shown in
// doc/stage-examples.rst) speaks the worker protocol with the daemon: a
// pipeline python -> C++ reference stage -> python moves every message to done,
// each Python stage recording itself in the row's state.
#include "daemonprocess.h"
#include "daemonstart.h"
#include "databasefixture.h"

#include <QFileInfo>
#include <QProcess>
#include <QTest>

#include <memory>

using namespace Qt::StringLiterals;

class tst_PythonStage : public QObject, private DatabaseFixture
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void pipelineThroughPython();
    void badConfigurationIsExit78();
};

namespace {
const QString Program = QStringLiteral(PEPSI_SOURCE_DIR "/stagekit/example/pepsi-stage-example.py");
}

void tst_PythonStage::initTestCase()
{
    PEPSI_REQUIRE_BINARIES();
    QVERIFY2(QFileInfo(Program).isExecutable(), qPrintable(Program));
    // The example runs on Debian's python3 with python3-psycopg2 (scripts/deps).
    QProcess probe;
    probe.start(u"/usr/bin/python3"_s, {u"-c"_s, u"import psycopg2"_s});
    QVERIFY(probe.waitForFinished(20000));
    QVERIFY2(probe.exitCode() == 0, "python3-psycopg2 is missing: run scripts/deps");
}

void tst_PythonStage::init() { PEPSI_INIT_DATABASE_FIXTURE(); }

void tst_PythonStage::cleanup() { resetDatabase(); }

void tst_PythonStage::pipelineThroughPython()
{
    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"first"_s, Program, {{u"NEXT"_s, u"middle"_s}, {u"PARALLELISM"_s, u"2"_s}});
    daemon.addStage(u"middle"_s, DaemonProcess::exampleStage(), {{u"NEXT"_s, u"last"_s}});
    daemon.addStage(u"last"_s, Program, {{u"WORK_TIME"_s, u"1 ms"_s}});
    QVERIFY(startReady(daemon));

    QueueProbe queue(m_db->db());
    QVERIFY(!queue.insert(u"first"_s, 300).isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(queue.count(u"status = 'done'"_s), 300, 60000);
    QCOMPARE(queue.count(u"stage = 'last' AND state->'handled_by' = '{\"first\": \"python\", \"last\": \"python\"}'"_s),
             300);
    QCOMPARE(queue.count(u"state ? 'dispatch_error'"_s), 0);
    QCOMPARE(daemon.terminate(), 0);
}

// A stage the file does not name: the worker exits 78 before answering, and
// the daemon holds the stage in cooldown instead of failing messages.
void tst_PythonStage::badConfigurationIsExit78()
{
    QProcess worker;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(u"PEPSI_STAGE"_s, u"nosuchstage"_s);
    worker.setProcessEnvironment(environment);
    DaemonProcess config(m_db->uri());
    config.addStage(u"s"_s, Program);
    worker.start(Program, {u"-c"_s, config.writeConfig(), u"worker"_s});
    QVERIFY(worker.waitForFinished(20000));
    QCOMPARE(worker.exitCode(), 78);
    QVERIFY(worker.readAllStandardError().contains("nosuchstage"));
}

QTEST_GUILESS_MAIN(tst_PythonStage)
#include "tst_pythonstage.moc"
