// SPDX-License-Identifier: AGPL-3.0-or-later
#include "config/dispatchsettings.h"

#include <QTest>

using namespace std::chrono_literals;
using pepsi::Configuration;
using pepsi::DispatchSettings;

namespace {

pepsi::Result<DispatchSettings, pepsi::ConfigError> settingsFrom(const QByteArray &text,
                                                                 const QList<pepsi::OverlayRow> &overlay = {})
{
    auto config = Configuration::parse(text, QStringLiteral("test.conf"));
    if (!config.ok())
        qFatal("unexpected parse error: %s", qPrintable(config.error().toString()));
    return DispatchSettings::fromConfiguration(config->withOverlay(overlay));
}

} // namespace

class TestDispatchSettings : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void defaults();
    void allOptions();
    void overlay();
    void errors_data();
    void errors();
};

void TestDispatchSettings::initTestCase()
{
    qputenv("PEPSI_TST_RUNTIME", "/run/user/1000");
    qunsetenv("PEPSI_TST_UNDEFINED");
}

void TestDispatchSettings::defaults()
{
    // The contract's defaults, spelled out here so that a changed header fails.
    const auto s = settingsFrom("");
    QVERIFY(s.ok());
    QCOMPARE(s->database, QStringLiteral("postgres:///pepsi"));
    QCOMPARE(s->maxRuntime, 300s);
    QCOMPARE(s->workerIdleTimeout, 5s);
    QCOMPARE(s->pollInterval, 30s);
    QCOMPARE(s->statsInterval, 60s);
    QCOMPARE(s->tempfailDelay, 30s);
    QCOMPARE(s->dbPoolSize, 8);
    QCOMPARE(s->dbLockTimeout, 1s);
    QCOMPARE(s->dbStatementTimeout, 5s);
    QCOMPARE(s->configFile, QString());
    QCOMPARE(s->controlSocket, QString());
    QCOMPARE(s->user, QStringLiteral("pepsi"));

    // Empty sections and other programs' [pepsi] options change nothing.
    const auto shared = settingsFrom("[pepsi]\nHTTP_PORT = 8080\n[pepsi-dispatch]\n[stage-a]\nPROGRAM = a\n");
    QVERIFY2(shared.ok(), qPrintable(shared.ok() ? QString() : shared.error().toString()));
    QCOMPARE(shared->maxRuntime, 300s);
    QCOMPARE(shared->database, QStringLiteral("postgres:///pepsi"));
}

void TestDispatchSettings::allOptions()
{
    const auto s = settingsFrom("[PATHS]\nETC = /etc/pepsi\n"
                                "[pepsi]\ndatabase = \"host=/run/pg dbname=pepsi\"\n"
                                "[PEPSI-DISPATCH]\n"
                                "MAX_RUNTIME = 10 min\nworker_idle_timeout = 250 ms\nPOLL_INTERVAL = 2\n"
                                "STATS_INTERVAL = 1.5 s\nTEMPFAIL_DELAY = 1 h\nDB_POOL_SIZE = 1000\n"
                                "CONFIG_FILE = $ETC/pepsi.conf\n"
                                "CONTROL_SOCKET = ${PEPSI_TST_RUNTIME:-/run}/pepsi/dispatch.sock\n"
                                "USER = pepsi-test\nDB_LOCK_TIMEOUT = 250 ms\nDB_STATEMENT_TIMEOUT = 30 s\n");
    QVERIFY2(s.ok(), qPrintable(s.ok() ? QString() : s.error().toString()));
    QCOMPARE(s->database, QStringLiteral("host=/run/pg dbname=pepsi"));
    QCOMPARE(s->maxRuntime, 600s);
    QCOMPARE(s->workerIdleTimeout, 250ms);
    QCOMPARE(s->pollInterval, 2s);
    QCOMPARE(s->statsInterval, 1500ms);
    QCOMPARE(s->tempfailDelay, 3600s);
    QCOMPARE(s->dbPoolSize, 1000);
    QCOMPARE(s->configFile, QStringLiteral("/etc/pepsi/pepsi.conf"));
    QCOMPARE(s->controlSocket, QStringLiteral("/run/user/1000/pepsi/dispatch.sock"));
    QCOMPARE(s->user, QStringLiteral("pepsi-test"));
    QCOMPARE(s->dbLockTimeout, 250ms);
    QCOMPARE(s->dbStatementTimeout, 30s);

    const auto longest = settingsFrom("[pepsi-dispatch]\nMAX_RUNTIME = 24 d\nPOLL_INTERVAL = 1 ms\n");
    QVERIFY(longest.ok());
    QCOMPARE(longest->maxRuntime, 24h * 24);
    QCOMPARE(longest->pollInterval, 1ms);

    // The queue, LISTEN and operator connections: the fewest that can run.
    const auto smallest = settingsFrom("[pepsi-dispatch]\nDB_POOL_SIZE = 3\n");
    QVERIFY(smallest.ok());
    QCOMPARE(smallest->dbPoolSize, 3);
}

void TestDispatchSettings::overlay()
{
    const auto s =
        settingsFrom("[pepsi-dispatch]\nDB_POOL_SIZE = 4\n",
                     {{QStringLiteral("pepsi-dispatch"), QStringLiteral("db_pool_size"), QStringLiteral("16")},
                      {QStringLiteral("Pepsi-Dispatch"), QStringLiteral("MAX_RUNTIME"), QStringLiteral("1 min")}});
    QVERIFY(s.ok());
    QCOMPARE(s->dbPoolSize, 16);
    QCOMPARE(s->maxRuntime, 60s);

    const auto bad =
        settingsFrom("", {{QStringLiteral("pepsi-dispatch"), QStringLiteral("POLL_INTERVAL"), QStringLiteral("soon")}});
    QVERIFY(!bad.ok());
    QCOMPARE(bad.error().toString(),
             QStringLiteral("config_overlay (pepsi-dispatch, POLL_INTERVAL): pepsi-dispatch: POLL_INTERVAL: "
                            "\"soon\": not a time (expected a number and a unit: ms, s, m, min, h, d)"));
}

void TestDispatchSettings::errors_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("error");

    const QByteArray d = "[pepsi-dispatch]\n";
    QTest::newRow("unknown option") << QByteArray(d + "MAX_RUNTIM = 5 s\n")
                                    << "test.conf:2: unknown option MAX_RUNTIM in [pepsi-dispatch]";
    QTest::newRow("stage option in the wrong section")
        << QByteArray(d + "PARALLELISM = 4\n") << "test.conf:2: unknown option PARALLELISM in [pepsi-dispatch]";
    QTest::newRow("zero duration") << QByteArray(d + "MAX_RUNTIME = 0\n")
                                   << "test.conf:2: pepsi-dispatch: MAX_RUNTIME: \"0\" is out of range (1 ms..24 d)";
    QTest::newRow("rounds to zero")
        << QByteArray(d + "POLL_INTERVAL = 0.0001 s\n")
        << "test.conf:2: pepsi-dispatch: POLL_INTERVAL: \"0.0001 s\" is out of range (1 ms..24 d)";
    QTest::newRow("longer than a timer")
        << QByteArray(d + "WORKER_IDLE_TIMEOUT = 25 d\n")
        << "test.conf:2: pepsi-dispatch: WORKER_IDLE_TIMEOUT: \"25 d\" is out of range "
           "(1 ms..24 d)";
    QTest::newRow("negative duration")
        << QByteArray(d + "TEMPFAIL_DELAY = -1 s\n")
        << "test.conf:2: pepsi-dispatch: TEMPFAIL_DELAY: \"-1 s\": negative times are not "
           "allowed";
    QTest::newRow("unknown unit") << QByteArray(d + "STATS_INTERVAL = 5 parsecs\n")
                                  << "test.conf:2: pepsi-dispatch: STATS_INTERVAL: \"5 parsecs\": unknown time unit "
                                     "\"parsecs\"";
    // Too few for the dispatcher's own three connections: the error says what needs them.
    for (const char *tooFew : {"0", "2", "-5"}) {
        QTest::addRow("pool size %s", tooFew)
            << QByteArray(d + "DB_POOL_SIZE = " + tooFew + '\n')
            << QStringLiteral("test.conf:2: pepsi-dispatch: DB_POOL_SIZE: %1 is out of range (3..1000): the "
                              "dispatcher opens 3 connections of its own (claims and settlements, LISTEN, "
                              "operator queries)")
                   .arg(QLatin1StringView(tooFew));
    }
    QTest::newRow("pool size 1001") << QByteArray(d + "DB_POOL_SIZE = 1001\n")
                                    << "test.conf:2: pepsi-dispatch: DB_POOL_SIZE: 1001 is out of range (3..1000)";
    QTest::newRow("pool size word") << QByteArray(d + "DB_POOL_SIZE = eight\n")
                                    << "test.conf:2: pepsi-dispatch: DB_POOL_SIZE: \"eight\" is not a whole number";
    QTest::newRow("empty USER") << QByteArray(d + "USER =\n") << "test.conf:2: pepsi-dispatch: USER is empty";
    QTest::newRow("empty DATABASE") << QByteArray("[pepsi]\nDATABASE = \"\"\n")
                                    << "test.conf:2: pepsi: DATABASE is empty";
    QTest::newRow("DATABASE with an undefined variable")
        << QByteArray("[pepsi]\nDATABASE = postgres:///pepsi?host=$PEPSI_TST_UNDEFINED\n")
        << "test.conf:2: pepsi: DATABASE: undefined variable $PEPSI_TST_UNDEFINED";
    QTest::newRow("CONTROL_SOCKET with an undefined variable")
        << QByteArray(d + "\nCONTROL_SOCKET = ${PEPSI_TST_UNDEFINED}/pepsi.sock\n")
        << "test.conf:3: pepsi-dispatch: CONTROL_SOCKET: undefined variable $PEPSI_TST_UNDEFINED";
}

void TestDispatchSettings::errors()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, error);
    const auto s = settingsFrom(text);
    QVERIFY2(!s.ok(), "the settings were accepted");
    QCOMPARE(s.error().toString(), error);
}

QTEST_APPLESS_MAIN(TestDispatchSettings)
#include "tst_dispatchsettings.moc"
