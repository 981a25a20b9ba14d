// SPDX-License-Identifier: AGPL-3.0-or-later
// The schema and its installer: idempotent install, transactional upgrades,
// refusal of a newer database, the indexes and triggers the dispatcher relies
// on, and the pepsi-schema program's command line.
#include "db/database.h"
#include "db/schemainstaller.h"
#include "schemafixtures.h"
#include "testconfig.h"
#include "testdatabase.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <atomic>
#include <memory>

using namespace Qt::StringLiterals;
using pepsi::SchemaInstaller;

namespace {

// PostgreSQL delivers notifications in commit order: once a NOTIFY sent after
// the statements under test has arrived, all that they caused have arrived
// too. How many came before that fence; -1 when it did not come.
int notificationsBeforeFence(TestDatabase &tdb, const QSignalSpy &spy, const QString &channel)
{
    if (!tdb.exec(u"SELECT pg_notify('%1', 'fence')"_s.arg(channel)))
        return -1;
    const auto fenceAt = [&spy] {
        for (qsizetype i = 0; i < spy.size(); ++i) {
            if (spy.at(i).at(2).toString() == u"fence"_s)
                return int(i);
        }
        return -1;
    };
    if (!QTest::qWaitFor([&fenceAt] { return fenceAt() >= 0; }, 5000))
        return -1;
    return fenceAt();
}

} // namespace

class tst_Schema : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void scriptsAreEmbedded();
    void badScriptDirectory_data();
    void badScriptDirectory();
    void installsFromScratchAndTwiceChangesNothing();
    void refusesNewerDatabase();
    void upgradeAppliesOnlyNewScripts();
    void failedUpgradeChangesNothing_data();
    void failedUpgradeChangesNothing();
    void concurrentInstallerWaitsForTheLock();
    void queueIndexes_data();
    void queueIndexes();
    void workqueueInsertNotifiesOncePerStatement();
    void configOverlayNotifies_data();
    void configOverlayNotifies();
    void tool_data();
    void tool();
};

void tst_Schema::scriptsAreEmbedded()
{
    SchemaInstaller installer{QSqlDatabase()};
    const auto scripts = installer.scripts();
    QVERIFY2(scripts.ok(), qPrintable(scripts.ok() ? QString() : scripts.error()));
    QVERIFY(!scripts->isEmpty());
    QCOMPARE(scripts->first().fileName, u"001_initial.sql"_s);
    QCOMPARE(installer.latestVersion(), scripts->last().version);
}

void tst_Schema::badScriptDirectory_data()
{
    QTest::addColumn<QStringList>("files");
    QTest::addColumn<QString>("error"); // a regular expression

    QTest::newRow("not numbered") << QStringList{u"initial.sql"_s}
                                  << u"/initial\\.sql: a schema script must be named NNN_name\\.sql$"_s;
    QTest::newRow("two digits") << QStringList{u"01_initial.sql"_s}
                                << u"/01_initial\\.sql: a schema script must be named NNN_name\\.sql$"_s;
    QTest::newRow("no name") << QStringList{u"001.sql"_s} << u"/001\\.sql: a schema script must be named"_s;
    QTest::newRow("gap") << QStringList{u"001_a.sql"_s, u"003_c.sql"_s}
                         << u"/003_c\\.sql: expected schema version 2 here"_s;
    QTest::newRow("repeat") << QStringList{u"001_a.sql"_s, u"001_b.sql"_s}
                            << u"/001_b\\.sql: expected schema version 2 here"_s;
    QTest::newRow("not from 1") << QStringList{u"002_b.sql"_s} << u"/002_b\\.sql: expected schema version 1 here"_s;
}

void tst_Schema::badScriptDirectory()
{
    QFETCH(QStringList, files);
    QFETCH(QString, error);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    for (const QString &name : files)
        QVERIFY(writeFile(dir.filePath(name), "SELECT 1;\n"));

    SchemaInstaller installer(QSqlDatabase(), dir.path());
    const auto scripts = installer.scripts();
    QVERIFY(!scripts.ok());
    QVERIFY2(QRegularExpression(error).match(scripts.error()).hasMatch(), qPrintable(scripts.error()));
    QCOMPARE(installer.latestVersion(), 0);
    const auto installed = installer.install();
    QVERIFY(!installed.ok());
    QCOMPARE(installed.error(), scripts.error());
}

void tst_Schema::installsFromScratchAndTwiceChangesNothing()
{
    PEPSI_REQUIRE_DATABASE(tdb, "scratch");
    // TestDatabase installed the schema already: start over from nothing.
    QVERIFY(tdb.exec(u"SET client_min_messages = warning; DROP SCHEMA public CASCADE; CREATE SCHEMA public"_s));
    SchemaInstaller installer(tdb.db());
    QCOMPARE(installer.currentVersion().value(), 0);

    const auto first = installer.install();
    QVERIFY2(first.ok(), qPrintable(first.ok() ? QString() : first.error()));
    QCOMPARE(first->fromVersion, 0);
    QCOMPARE(first->toVersion, installer.latestVersion());
    QCOMPARE(first->applied.first(), u"001_initial.sql"_s);
    QCOMPARE(installer.currentVersion().value(), installer.latestVersion());
    const QString before = catalogState(tdb);

    const auto second = installer.install();
    QVERIFY2(second.ok(), qPrintable(second.ok() ? QString() : second.error()));
    QCOMPARE(second->fromVersion, installer.latestVersion());
    QCOMPARE(second->toVersion, installer.latestVersion());
    QVERIFY(second->applied.isEmpty());
    QCOMPARE(catalogState(tdb), before);
}

void tst_Schema::refusesNewerDatabase()
{
    PEPSI_REQUIRE_DATABASE(tdb, "newer");
    QVERIFY(tdb.exec(u"INSERT INTO pepsi_schema (version) VALUES (999)"_s));
    const QString before = catalogState(tdb);
    SchemaInstaller installer(tdb.db());
    QCOMPARE(installer.currentVersion().value(), 999);

    const auto installed = installer.install();
    QVERIFY(!installed.ok());
    QCOMPARE(installed.error(),
             u"the database has schema version 999, newer than version %1 that this build of "
             "pepsi-dispatch knows; install a newer pepsi-dispatch"_s.arg(installer.latestVersion()));
    QCOMPARE(catalogState(tdb), before);
}

void tst_Schema::upgradeAppliesOnlyNewScripts()
{
    PEPSI_REQUIRE_DATABASE(tdb, "upgrade");
    QTemporaryDir dir;
    const int shipped = copyShippedScripts(dir);
    QVERIFY(shipped > 0);
    const QString extra = nextScript(shipped, 1, u"extra"_s);
    // Several statements and a $$ body holding semicolons: sent as one text.
    QVERIFY(writeFile(dir.filePath(extra), R"(
CREATE TABLE extra (x integer);
CREATE FUNCTION extra_count() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE n bigint;
BEGIN
    SELECT count(*) INTO n FROM extra;
    RETURN n;
END $$;
INSERT INTO extra VALUES (1), (2);
)" + recordsVersion(shipped + 1)));
    SchemaInstaller installer(tdb.db(), dir.path());
    QCOMPARE(installer.latestVersion(), shipped + 1);

    const auto upgraded = installer.install();
    QVERIFY2(upgraded.ok(), qPrintable(upgraded.ok() ? QString() : upgraded.error()));
    QCOMPARE(upgraded->fromVersion, shipped);
    QCOMPARE(upgraded->toVersion, shipped + 1);
    QCOMPARE(upgraded->applied, QStringList{extra});
    QCOMPARE(tdb.scalar(u"SELECT extra_count()"_s), 2);
    QCOMPARE(tdb.scalar(u"SELECT max(version) FROM pepsi_schema"_s), shipped + 1);
    QCOMPARE(tdb.scalar(u"SELECT count(*) FROM pepsi_schema"_s), shipped + 1);
}

void tst_Schema::failedUpgradeChangesNothing_data()
{
    QTest::addColumn<QByteArray>("lastScript"); // after a good one; %1 stands for its version
    QTest::addColumn<QString>("error");         // a regular expression; %1: the last script's name

    QTest::newRow("a statement fails") << QByteArray("CREATE TABLE bad (x integer);\nSELECT no_such_function();\n")
                                       << u"^%1: .*no_such_function"_s;
    QTest::newRow("no version recorded") << QByteArray("CREATE TABLE bad (x integer);\n")
                                         << u"^%1 does not record its version in pepsi_schema$"_s;
    QTest::newRow("another version recorded")
        << QByteArray("CREATE TABLE bad (x integer);\nINSERT INTO pepsi_schema (version) VALUES (%1 + 1);\n")
        << u"^%1 records version \\d+ in pepsi_schema, not its own \\d+$"_s;
}

void tst_Schema::failedUpgradeChangesNothing()
{
    QFETCH(QByteArray, lastScript);
    QFETCH(QString, error);
    PEPSI_REQUIRE_DATABASE(tdb, "failed");
    QTemporaryDir dir;
    const int shipped = copyShippedScripts(dir);
    QVERIFY(shipped > 0);
    QVERIFY(writeFile(dir.filePath(nextScript(shipped, 1, u"good"_s)),
                      "CREATE TABLE good (x integer);\n" + recordsVersion(shipped + 1)));
    const QString bad = nextScript(shipped, 2, u"bad"_s);
    QVERIFY(writeFile(dir.filePath(bad), lastScript.replace("%1", QByteArray::number(shipped + 2))));
    const QString before = catalogState(tdb);

    SchemaInstaller installer(tdb.db(), dir.path());
    const auto installed = installer.install();
    QVERIFY(!installed.ok());
    const QString expected = error.arg(QRegularExpression::escape(bad));
    QVERIFY2(QRegularExpression(expected).match(installed.error()).hasMatch(),
             qPrintable(installed.error() + u" does not match "_s + expected));
    QCOMPARE(catalogState(tdb), before);
    QCOMPARE(installer.currentVersion().value(), shipped);
    // The connection is usable afterwards: the transaction was rolled back.
    QCOMPARE(tdb.scalar(u"SELECT to_regclass('good') IS NULL AND to_regclass('bad') IS NULL"_s), 1);
}

void tst_Schema::concurrentInstallerWaitsForTheLock()
{
    PEPSI_REQUIRE_DATABASE(tdb, "concurrent");
    QVERIFY(tdb.exec(u"SET client_min_messages = warning; DROP SCHEMA public CASCADE; CREATE SCHEMA public"_s));
    QSqlDatabase holder = tdb.newConnection(u"holder"_s);
    QVERIFY(holder.isOpen());
    QVERIFY(holder.transaction());
    QSqlQuery lock(holder);
    QVERIFY(lock.exec(u"SELECT pg_advisory_xact_lock(%1)"_s.arg(SchemaInstaller::LockKey)));

    std::atomic<bool> done{false};
    QString outcome;
    const QString uri = tdb.uri();
    std::unique_ptr<QThread> thread(QThread::create([&] {
        const QString name = u"tst_schema-thread"_s;
        {
            const auto db = pepsi::openDatabase(name, uri);
            if (!db) {
                outcome = db.error();
            } else {
                SchemaInstaller installer(*db);
                const auto installed = installer.install();
                outcome = installed.ok() ? installed->applied.join(u',') : installed.error();
            }
        }
        QSqlDatabase::removeDatabase(name);
        done = true;
    }));
    thread->start();
    // The installer's session waits for the lock that holder has: seen in pg_locks.
    const QString waiting = u"SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted "
                            "AND ((classid::bigint << 32) | objid::bigint) = %1"_s.arg(SchemaInstaller::LockKey);
    QTRY_COMPARE_WITH_TIMEOUT(tdb.scalar(waiting), 1, 10000);
    QVERIFY2(!done, qPrintable(outcome));
    QVERIFY(holder.commit());
    QTRY_VERIFY(done);
    QVERIFY(thread->wait(5000));
    QCOMPARE(outcome, shippedNames().join(u','));
}

void tst_Schema::queueIndexes_data()
{
    QTest::addColumn<QString>("index");
    QTest::addColumn<QString>("definition");
    QTest::addColumn<QString>("predicate");

    QTest::newRow("pending") << u"workqueue_pending"_s << u"ON public.workqueue USING btree (stage, workqueue_id)"_s
                             << u"(status = 'pending'::workqueue_status)"_s;
    QTest::newRow("paused") << u"workqueue_paused"_s << u"ON public.workqueue USING btree (timeout)"_s
                            << u"(status = 'paused'::workqueue_status)"_s;
    QTest::newRow("running") << u"workqueue_running"_s << u"ON public.workqueue USING btree (workqueue_id)"_s
                             << u"(status = 'running'::workqueue_status)"_s;
}

void tst_Schema::queueIndexes()
{
    QFETCH(QString, index);
    QFETCH(QString, definition);
    QFETCH(QString, predicate);
    PEPSI_REQUIRE_DATABASE(tdb, "indexes");
    const QString regclass = u"'public.%1'::regclass"_s.arg(index);
    QCOMPARE(text(tdb.db(), u"SELECT pg_get_expr(indpred, indrelid) FROM pg_index WHERE indexrelid = "_s + regclass),
             predicate);
    const QString indexdef = text(tdb.db(), u"SELECT pg_get_indexdef(%1)"_s.arg(regclass));
    QVERIFY2(indexdef.contains(definition), qPrintable(indexdef));
}

void tst_Schema::workqueueInsertNotifiesOncePerStatement()
{
    PEPSI_REQUIRE_DATABASE(tdb, "notify");
    QSqlDatabase listener = tdb.newConnection(u"listen"_s);
    QVERIFY(listener.isOpen());
    QVERIFY(listener.driver()->subscribeToNotification(u"workqueue"_s));
    QSignalSpy spy(listener.driver(), &QSqlDriver::notification);

    QVERIFY(tdb.exec(u"INSERT INTO workqueue (stage) VALUES ('a'), ('a'), ('b')"_s));
    QTRY_COMPARE(spy.count(), 1);
    QCOMPARE(spy.first().at(0).toString(), u"workqueue"_s);
    QCOMPARE(spy.first().at(1).value<QSqlDriver::NotificationSource>(), QSqlDriver::OtherSource);

    // Stage advances are updates and stay silent; a later insert notifies again.
    QVERIFY(tdb.exec(u"UPDATE workqueue SET stage = 'c', status = 'pending'"_s));
    QVERIFY(tdb.exec(u"INSERT INTO workqueue (stage) SELECT 'd' FROM generate_series(1, 100)"_s));
    QTRY_COMPARE(spy.count(), 2);
    QCOMPARE(notificationsBeforeFence(tdb, spy, u"workqueue"_s), 2);
}

void tst_Schema::configOverlayNotifies_data()
{
    QTest::addColumn<QString>("before");
    QTest::addColumn<QString>("statement");

    const QString row = u"INSERT INTO config_overlay VALUES ('stage-enrich', 'parallelism', '2')"_s;
    QTest::newRow("insert") << QString() << row;
    QTest::newRow("update") << row << u"UPDATE config_overlay SET value = '3'"_s;
    QTest::newRow("delete") << row << u"DELETE FROM config_overlay"_s;
    QTest::newRow("truncate") << row << u"TRUNCATE config_overlay"_s;
}

void tst_Schema::configOverlayNotifies()
{
    QFETCH(QString, before);
    QFETCH(QString, statement);
    PEPSI_REQUIRE_DATABASE(tdb, "overlay");
    if (!before.isEmpty())
        QVERIFY(tdb.exec(before));
    QSqlDatabase listener = tdb.newConnection(u"listen"_s);
    QVERIFY(listener.isOpen());
    QVERIFY(listener.driver()->subscribeToNotification(u"config_changed"_s));
    QSignalSpy spy(listener.driver(), &QSqlDriver::notification);

    QVERIFY(tdb.exec(statement));
    QTRY_COMPARE(spy.count(), 1);
    QCOMPARE(spy.first().at(0).toString(), u"config_changed"_s);
    QCOMPARE(notificationsBeforeFence(tdb, spy, u"config_changed"_s), 1);
}

void tst_Schema::tool_data()
{
    QTest::addColumn<QStringList>("arguments"); // %DB% is the test database, %CONF% a file naming it
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("output"); // a regular expression on stdout + stderr

    const QString latest = QString::number(SchemaInstaller(QSqlDatabase()).latestVersion());
    QTest::newRow("status") << QStringList{u"--database"_s, u"%DB%"_s, u"status"_s} << 0
                            << u"^database schema version %1, this build knows %1: up to date\n$"_s.arg(latest);
    QTest::newRow("install again") << QStringList{u"--database"_s, u"%DB%"_s, u"install"_s} << 0
                                   << u"^schema version %1 is current; nothing to do\n$"_s.arg(latest);
    QTest::newRow("config file") << QStringList{u"-c"_s, u"%CONF%"_s, u"install"_s} << 0
                                 << u"^schema version %1 is current; nothing to do\n$"_s.arg(latest);
    QTest::newRow("no command") << QStringList{u"--database"_s, u"%DB%"_s} << 64
                                << u"^pepsi-schema: expected one command, install or status"_s;
    QTest::newRow("unknown command") << QStringList{u"--database"_s, u"%DB%"_s, u"upgrade"_s} << 64
                                     << u"^pepsi-schema: expected one command"_s;
    QTest::newRow("unknown option") << QStringList{u"--frobnicate"_s, u"status"_s} << 64
                                    << u"^pepsi-schema: Unknown option 'frobnicate'"_s;
    QTest::newRow("missing config") << QStringList{u"-c"_s, u"/nonexistent/pepsi.conf"_s, u"status"_s} << 78
                                    << u"^pepsi-schema: /nonexistent/pepsi.conf: cannot read: "_s;
    QTest::newRow("bad database") << QStringList{u"--database"_s, u"host=/nonexistent port=1"_s, u"status"_s} << 1
                                  << u"^pepsi-schema: cannot connect to the database: "_s;
}

void tst_Schema::tool()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    QFETCH(QString, output);
    QVERIFY2(QFile::exists(toolBinary()), qPrintable(toolBinary() + u" is missing: is PEPSI_BUILD_DIR set?"_s));
    PEPSI_REQUIRE_DATABASE(tdb, "tool");
    QTemporaryDir dir;
    const QString config = writeTestConfig(dir, u"[pepsi]\nDATABASE = "_s + tdb.uri() + u'\n');
    QVERIFY(!config.isEmpty());
    for (QString &argument : arguments)
        argument.replace(u"%DB%"_s, tdb.uri()).replace(u"%CONF%"_s, config);

    QProcess tool;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(u"PEPSI_CONFIG"_s);
    tool.setProcessEnvironment(env);
    tool.start(toolBinary(), arguments);
    QVERIFY(tool.waitForFinished(20000));
    const QString printed = QString::fromUtf8(tool.readAllStandardOutput() + tool.readAllStandardError());
    QCOMPARE(tool.exitStatus(), QProcess::NormalExit);
    QVERIFY2(QRegularExpression(output).match(printed).hasMatch(), qPrintable(printed));
    QCOMPARE(tool.exitCode(), exitCode);
}

QTEST_GUILESS_MAIN(tst_Schema)
#include "tst_schema.moc"
