// SPDX-License-Identifier: AGPL-3.0-or-later
// Start-up checks (doc/pepsi-dispatch.rst): start-up faults are loud. A database without the schema,
// or with an older version than this build needs, ends `serve` with exit 78
// naming `pepsi-schema install`, having written nothing. A database that is
// unreachable at start is waited for with a log line per attempt
// (rate-limited), and served once it is up. Real daemon, real PostgreSQL
// (stopped and started again for the last case).
#include "daemonprocess.h"
#include "daemontest.h"
#include "db/database.h"
#include "testcluster.h"

#include <QElapsedTimer>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTest>

#include <memory>

using namespace Qt::StringLiterals;

class tst_Startup : public DaemonTest
{
    Q_OBJECT

private Q_SLOTS:
    void schemaRefused_data();
    void schemaRefused();
    void unreachableAtStart_data();
    void unreachableAtStart();

private:
    std::unique_ptr<DaemonProcess> newDaemon();
};

std::unique_ptr<DaemonProcess> tst_Startup::newDaemon()
{
    auto daemon = std::make_unique<DaemonProcess>(m_db->uri());
    daemon->setOption(u"POLL_INTERVAL"_s, u"60 s"_s);
    daemon->addStage(u"s"_s, DaemonProcess::fakeWorker());
    return daemon;
}

void tst_Startup::schemaRefused_data()
{
    QTest::addColumn<QString>("damage");
    QTest::addColumn<QString>("message");
    // The schema as if pepsi-schema install had never run.
    QTest::newRow("no schema") << u"DROP SCHEMA public CASCADE; CREATE SCHEMA public"_s
                               << u"the database has no pepsi-dispatch schema"_s;
    // Tables there, but recorded as an older version than this build needs.
    QTest::newRow("older version") << u"DELETE FROM pepsi_schema; INSERT INTO pepsi_schema (version) VALUES (0)"_s
                                   << u"the database has pepsi-dispatch schema version 0, older than version"_s;
}

// Today: one warning (relation "config_overlay" does not exist), then the
// daemon sat there claiming nothing, for ever.
void tst_Startup::schemaRefused()
{
    QFETCH(QString, damage);
    QFETCH(QString, message);
    for (const QString &statement : damage.split(u"; "_s))
        QVERIFY(m_db->exec(statement));
    const bool hasQueue = m_queue->scalar(u"SELECT (to_regclass('workqueue') IS NOT NULL)::int"_s) == 1;
    if (hasQueue)
        QVERIFY(m_db->exec(u"INSERT INTO workqueue (stage, status) VALUES ('s', 'running')"_s));

    auto daemon = newDaemon();
    QVERIFY(daemon->start());
    QElapsedTimer clock;
    clock.start();
    QCOMPARE(daemon->waitForExit(10000), 78);
    qInfo("exit 78 after %lld ms", clock.elapsed());
    const QString log = daemon->log();
    QVERIFY2(log.contains(message) && log.contains(u"`pepsi-schema install`"_s), qPrintable(log));
    QVERIFY2(!log.contains(u"listening"_s), qPrintable(log));
    // Nothing written: the running row was not reset.
    if (hasQueue)
        QCOMPARE(m_queue->count(u"status = 'running'"_s), 1);
}

void tst_Startup::unreachableAtStart_data()
{
    QTest::addColumn<bool>("stopServer");
    QTest::newRow("database refuses connections") << false;
    QTest::newRow("server stopped") << true;
}

// Started while it cannot connect: it says so once, then a line per attempt
// at most every 2 s, is not READY, starts no worker, and serves once the
// database is there.
void tst_Startup::unreachableAtStart()
{
    QFETCH(bool, stopServer);
    TestCluster cluster;
    if (stopServer && !cluster.probe())
        QSKIP(qPrintable(u"cannot stop the test server: "_s + cluster.whyNot()));
    QString error;
    if (stopServer)
        QVERIFY2(cluster.stop(&error), qPrintable(error));
    else
        QVERIFY(m_db->allowConnections(false));

    auto daemon = newDaemon();
    QVERIFY(daemon->start());
    QVERIFY2(daemon->waitForLog(QRegularExpression(u"cannot reach the database"_s), 5000), qPrintable(daemon->log()));
    QVERIFY2(daemon->waitForLog(QRegularExpression(u"(?m)^INFO pepsi.dispatch.store: database still unreachable "
                                                   "after [0-9]+ ms \\([0-9]+ attempts since the last line"_s),
                                10000),
             qPrintable(daemon->log()));
    QVERIFY(daemon->isRunning());
    QVERIFY2(!daemon->log().contains(u"listening"_s), qPrintable(daemon->log()));
    QVERIFY(daemon->workerPids().isEmpty());
    const int lines = daemon->countLog(QRegularExpression(u"database still unreachable"_s));

    QElapsedTimer clock;
    clock.start();
    if (stopServer) {
        QVERIFY2(cluster.start(&error), qPrintable(error));
        // Our own connections died with the server.
        for (const QString &name : QSqlDatabase::connectionNames()) {
            QSqlDatabase db = QSqlDatabase::database(name, false);
            db.close();
            db.open();
        }
    } else {
        QVERIFY(m_db->allowConnections(true));
    }
    QVERIFY2(daemon->waitForReady(15000), qPrintable(daemon->log()));
    qInfo("%d attempt lines while unreachable; READY %lld ms after the database was back", lines, clock.elapsed());
    const QList<qint64> ids = m_queue->insert(u"s"_s, 5);
    QCOMPARE(ids.size(), 5);
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status = 'done'"_s), 5, 5000);
    QCOMPARE(daemon->terminate(), 0);
}

QTEST_GUILESS_MAIN(tst_Startup)
#include "tst_startup.moc"
