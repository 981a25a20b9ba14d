// SPDX-License-Identifier: AGPL-3.0-or-later
// One reload path, with a real daemon, pepsi-ctl and the fake worker
// (doc/operations.rst, "Reloading"): `pepsi-ctl reload` reads the file again
// (a PROGRAM edited there takes effect, as on SIGHUP); a file that does not
// pass the check is refused with every problem as FILE:LINE and the daemon
// keeps serving with the old graph; every reload is one `reload` event naming
// its source (the command, SIGHUP, config_changed) and what changed.
#include "controlchecks.h"
#include "controltestclient.h"
#include "ctlrun.h"
#include "databasefixture.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QRegularExpression>

#include <csignal>
#include <memory>

using namespace Qt::StringLiterals;

class tst_Reload : public QObject, private DatabaseFixture
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void ctlReloadAppliesAnEditedProgram();
    void brokenFileIsRefusedAndTheOldGraphServes_data();
    void brokenFileIsRefusedAndTheOldGraphServes();
    void everyCauseIsOneEventWithWhatChanged();

private:
    // A link to the fake worker beside the daemon's file: a PROGRAM of its own name.
    static QString workerLink(const DaemonProcess &daemon, const QString &name);
    static QString argv0(qint64 pid);
    QStringList at() const { return {u"--socket"_s, m_daemon->controlSocket()}; }

    std::unique_ptr<DaemonProcess> m_daemon;
    std::unique_ptr<ControlTestClient> m_client;
};

void tst_Reload::initTestCase() { PEPSI_REQUIRE_CTL_BINARIES(); }

void tst_Reload::init()
{
    PEPSI_INIT_DATABASE_FIXTURE();
    m_daemon = std::make_unique<DaemonProcess>(m_db->uri());
    m_daemon->addStage(u"a"_s, workerLink(*m_daemon, u"first"_s), {{u"NEXT"_s, u"b"_s}});
    m_daemon->addStage(u"b"_s, DaemonProcess::fakeWorker());
    QVERIFY(startReady(*m_daemon));
    m_client = subscribedClient(*m_daemon, {u"reload"_s});
    QVERIFY(m_client);
}

void tst_Reload::cleanup()
{
    m_client.reset();
    if (m_daemon && m_daemon->isRunning())
        QCOMPARE(m_daemon->terminate(), 0);
    m_daemon.reset();
    resetDatabase();
}

QString tst_Reload::workerLink(const DaemonProcess &daemon, const QString &name)
{
    const QString link = QFileInfo(daemon.configPath()).absoluteDir().filePath(name);
    QFile::remove(link);
    if (!QFile::link(DaemonProcess::fakeWorker(), link))
        qWarning("cannot link %s", qPrintable(link));
    return link;
}

QString tst_Reload::argv0(qint64 pid)
{
    QFile cmdline(u"/proc/%1/cmdline"_s.arg(pid));
    return cmdline.open(QIODevice::ReadOnly) ? QString::fromLocal8Bit(cmdline.readAll().split('\0').value(0))
                                             : QString();
}

// The operator's report: `pepsi-ctl reload` said "reloaded" and yet ran the
// PROGRAM the file named at start.
void tst_Reload::ctlReloadAppliesAnEditedProgram()
{
    const QString first = workerLink(*m_daemon, u"first"_s);
    const QString second = workerLink(*m_daemon, u"second"_s);
    m_daemon->setStageProgram(u"a"_s, second);
    QVERIFY(!m_daemon->writeConfig().isEmpty());

    const CtlRun run = runCtl(at() + QStringList{u"reload"_s});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.out, u"reloaded; stages: a, b\na PROGRAM %1 \u2192 %2\n"_s.arg(first, second));

    const auto event = m_client->takeEvent(u"reload"_s);
    QVERIFY(event);
    QCOMPARE(event->value(u"source"_s).toString(), u"socket"_s);
    QCOMPARE(event->value(u"changed"_s)[u"changed"_s][u"a"_s][u"PROGRAM"_s].toObject(),
             QJsonObject({{u"old"_s, first}, {u"new"_s, second}}));
    QCOMPARE(m_client->request(R"({"cmd":"stages"})"_ba)[u"result"_s][u"stages"_s][0][u"program"_s].toString(), second);

    // The workers of a run the new program.
    QueueProbe queue(m_db->db());
    QVERIFY(!queue.insert(u"a"_s, 20, {{u"a"_s, u"slow:50"_s}}).isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(!m_daemon->workerPids(u"a"_s).isEmpty(), 10000);
    QCOMPARE(argv0(m_daemon->workerPids(u"a"_s).first()), second);
    QTRY_COMPARE_WITH_TIMEOUT(queue.count(u"status = 'done'"_s), 20, 20000);
    QVERIFY(m_daemon->waitForLog(
        QRegularExpression(u"pipeline reloaded \\(socket\\): a PROGRAM .*first \u2192 .*second; stages: a b"_s)));
}

void tst_Reload::brokenFileIsRefusedAndTheOldGraphServes_data()
{
    QTest::addColumn<QString>("breakage");
    QTest::addColumn<int>("problems"); // how many FILE:LINE lines the error has at least
    QTest::newRow("not INI") << u"text"_s << 1;
    QTest::newRow("a cycle and a bad number") << u"cycle"_s << 2;
    QTest::newRow("PROGRAM missing") << u"program"_s << 1;
}

void tst_Reload::brokenFileIsRefusedAndTheOldGraphServes()
{
    QFETCH(QString, breakage);
    QFETCH(int, problems);

    QFile file(m_daemon->configPath());
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray good = file.readAll();
    file.close();
    if (breakage == u"text") {
        m_daemon->appendRaw("this line is neither a section nor an option\n");
    } else if (breakage == u"cycle") {
        m_daemon->setStageOption(u"b"_s, u"NEXT"_s, u"a"_s);
        m_daemon->setStageOption(u"a"_s, u"QUEUE_LIMIT"_s, u"many"_s);
    } else {
        m_daemon->addStage(u"c"_s, QDir::temp().filePath(u"pepsi-no-such-program"_s));
    }
    QVERIFY(!m_daemon->writeConfig().isEmpty());

    const QJsonObject reply = m_client->request(R"({"cmd":"reload"})"_ba);
    QCOMPARE(reply.value(u"ok"_s).toBool(), false);
    const QString error = reply.value(u"error"_s).toString();
    const QRegularExpression located(u"^"_s + QRegularExpression::escape(m_daemon->configPath()) + u":\\d+: "_s,
                                     QRegularExpression::MultilineOption);
    QVERIFY2(error.count(located) >= problems, qPrintable(error));
    if (breakage == u"program")
        QVERIFY2(error.contains(u"pepsi-no-such-program\" does not exist"_s), qPrintable(error));

    // pepsi-ctl says the same on stderr, exit 1.
    const CtlRun run = runCtl(at() + QStringList{u"reload"_s});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.count(located) >= problems, qPrintable(run.describe()));

    // Nothing changed: no event, the old graph serves.
    QVERIFY(!m_client->takeEvent(u"reload"_s, 500));
    QVERIFY(m_daemon->isRunning());
    const QJsonArray stages = m_client->request(R"({"cmd":"stages"})"_ba)[u"result"_s][u"stages"_s].toArray();
    QCOMPARE(stages.size(), 2);
    QCOMPARE(stages[1][u"next"_s].toArray(), QJsonArray());
    // The stage programs read the file too (-c): it is put back, not reloaded.
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(file.write(good), good.size());
    file.close();
    QueueProbe queue(m_db->db());
    QVERIFY(!queue.insert(u"a"_s, 10).isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(queue.count(u"stage = 'b' AND status = 'done'"_s), 10, 15000);
}

void tst_Reload::everyCauseIsOneEventWithWhatChanged()
{
    // SIGHUP: a stage added in the file.
    m_daemon->addStage(u"c"_s, DaemonProcess::fakeWorker());
    QVERIFY(!m_daemon->writeConfig().isEmpty());
    QCOMPARE(::kill(pid_t(m_daemon->pid()), SIGHUP), 0);
    auto event = m_client->takeEvent(u"reload"_s);
    QVERIFY(event);
    QCOMPARE(event->value(u"source"_s).toString(), u"signal"_s);
    QCOMPARE(event->value(u"stages"_s).toArray(), QJsonArray({u"a"_s, u"b"_s, u"c"_s}));
    QCOMPARE(event->value(u"changed"_s)[u"added"_s].toArray(), QJsonArray({u"c"_s}));
    QVERIFY(
        m_daemon->waitForLog(QRegularExpression(u"INFO .*pipeline reloaded \\(signal\\): added c; stages: a b c"_s)));

    // config_changed: an overlay row written behind the daemon's back, and
    // the file edited meanwhile: the reload reads both.
    m_daemon->setStageOption(u"c"_s, u"MAX_MESSAGES"_s, u"7"_s);
    QVERIFY(!m_daemon->writeConfig().isEmpty());
    QVERIFY(
        m_db->exec(u"INSERT INTO config_overlay (section, option, value) VALUES ('stage-b', 'PARALLELISM', '2')"_s));
    event = m_client->takeEvent(u"reload"_s);
    QVERIFY(event);
    QCOMPARE(event->value(u"source"_s).toString(), u"notify"_s);
    const QJsonObject changed = event->value(u"changed"_s)[u"changed"_s].toObject();
    QCOMPARE(changed[u"b"_s][u"PARALLELISM"_s].toObject(), QJsonObject({{u"old"_s, u"4"_s}, {u"new"_s, u"2"_s}}));
    QCOMPARE(changed[u"c"_s][u"MAX_MESSAGES"_s].toObject(), QJsonObject({{u"old"_s, u"1000"_s}, {u"new"_s, u"7"_s}}));

    // The command: nothing changed, and it says so.
    const QJsonObject reply = m_client->request(R"({"cmd":"reload"})"_ba);
    QVERIFY2(reply.value(u"ok"_s).toBool(), qPrintable(reply.value(u"error"_s).toString()));
    QCOMPARE(reply[u"result"_s][u"changed"_s].toObject(),
             QJsonObject({{u"added"_s, QJsonArray()}, {u"removed"_s, QJsonArray()}, {u"changed"_s, QJsonObject()}}));
    event = m_client->takeEvent(u"reload"_s);
    QVERIFY(event);
    QCOMPARE(event->value(u"source"_s).toString(), u"socket"_s);
    QVERIFY(!m_client->takeEvent(u"reload"_s, 500));
}

QTEST_GUILESS_MAIN(tst_Reload)
#include "tst_reload.moc"
