// SPDX-License-Identifier: AGPL-3.0-or-later
// The schema files are complete on their own (pepsi-schema(1), doc/man/pepsi-schema.rst):
// applied in order with psql, as a DBA would, they give the database that
// `pepsi-schema install` gives, the same versions recorded and the same
// catalogue, and `serve` accepts either; `pepsi-schema install` upgrades a
// database that psql put at version 1.
#include "daemonprocess.h"
#include "daemonstart.h"
#include "queueprobe.h"
#include "schemafixtures.h"
#include "testdatabase.h"

#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

struct Run
{
    int exitCode = -1;
    QString output; // stdout and stderr
};

Run run(const QString &program, const QStringList &arguments)
{
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(program, arguments);
    Run result;
    if (!process.waitForFinished(60000) || process.exitStatus() != QProcess::NormalExit) {
        result.output = program + u" did not finish: "_s + process.errorString();
        return result;
    }
    result.exitCode = process.exitCode();
    result.output = QString::fromUtf8(process.readAll());
    return result;
}

// As the documentation tells a DBA: one transaction, stop at the first error.
Run psql(const TestDatabase &tdb, const QString &file)
{
    return run(u"psql"_s,
               {u"-X"_s, u"-q"_s, u"-1"_s, u"-v"_s, u"ON_ERROR_STOP=1"_s, u"-d"_s, tdb.uri(), u"-f"_s, file});
}

Run schemaTool(const TestDatabase &tdb, const QString &command)
{
    return run(toolBinary(), {u"--database"_s, tdb.uri(), command});
}

// The database as createdb leaves it.
bool emptied(TestDatabase &tdb)
{
    return tdb.exec(u"SET client_min_messages = warning; DROP SCHEMA public CASCADE; CREATE SCHEMA public"_s);
}

QString versions(TestDatabase &tdb)
{
    return text(tdb.db(), u"SELECT string_agg(version::text, ',' ORDER BY version) FROM pepsi_schema"_s);
}

QString allVersions()
{
    QStringList numbers;
    for (qsizetype i = 1; i <= shippedNames().size(); ++i)
        numbers << QString::number(i);
    return numbers.join(u',');
}

} // namespace

class tst_SchemaFiles : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();

    void psqlGivesWhatTheInstallerGives();
    void installerUpgradesWhatPsqlApplied();

private:
    // serve runs a message through a stage on this database, and stops cleanly.
    void verifyServeAccepts(TestDatabase &tdb);

    QTemporaryDir m_scripts; // the shipped scripts, as files for psql
};

void tst_SchemaFiles::initTestCase()
{
    PEPSI_REQUIRE_BINARIES();
    QVERIFY2(QFile::exists(toolBinary()), qPrintable(toolBinary() + u" is missing: is PEPSI_BUILD_DIR set?"_s));
    if (QStandardPaths::findExecutable(u"psql"_s).isEmpty())
        QSKIP("psql is not installed");
    QVERIFY(copyShippedScripts(m_scripts) > 1);
}

void tst_SchemaFiles::verifyServeAccepts(TestDatabase &tdb)
{
    DaemonProcess daemon(tdb.uri());
    daemon.addStage(u"s"_s, DaemonProcess::fakeWorker());
    QVERIFY(startReady(daemon));
    QueueProbe queue(tdb.db());
    QVERIFY(!queue.insert(u"s"_s, 3).isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(queue.count(u"status = 'done'"_s), 3, 15000);
    QCOMPARE(daemon.terminate(), 0);
}

void tst_SchemaFiles::psqlGivesWhatTheInstallerGives()
{
    PEPSI_REQUIRE_DATABASE(byTool, "bytool");
    TestDatabase byPsql(u"bypsql"_s);
    QVERIFY2(byPsql.isValid(), qPrintable(byPsql.errorString()));
    QVERIFY(emptied(byTool));
    QVERIFY(emptied(byPsql));

    const Run installed = schemaTool(byTool, u"install"_s);
    QVERIFY2(installed.exitCode == 0, qPrintable(installed.output));
    for (const QString &name : shippedNames()) {
        const Run applied = psql(byPsql, m_scripts.filePath(name));
        QVERIFY2(applied.exitCode == 0, qPrintable(name + u": "_s + applied.output));
    }

    QCOMPARE(versions(byPsql), allVersions());
    QCOMPARE(versions(byTool), allVersions());
    QCOMPARE(catalogState(byPsql), catalogState(byTool));
    const Run status = schemaTool(byPsql, u"status"_s);
    QVERIFY2(status.exitCode == 0 && status.output.contains(u"up to date"_s), qPrintable(status.output));

    verifyServeAccepts(byPsql);
    verifyServeAccepts(byTool);
}

void tst_SchemaFiles::installerUpgradesWhatPsqlApplied()
{
    PEPSI_REQUIRE_DATABASE(reference, "reference"); // installed by SchemaInstaller
    TestDatabase tdb(u"fromone"_s);
    QVERIFY2(tdb.isValid(), qPrintable(tdb.errorString()));
    QVERIFY(emptied(tdb));
    const QStringList names = shippedNames();
    const Run first = psql(tdb, m_scripts.filePath(names.constFirst()));
    QVERIFY2(first.exitCode == 0, qPrintable(first.output));
    QCOMPARE(versions(tdb), u"1"_s);

    // Version 1 alone is older than this build needs: serve says what to run.
    DaemonProcess refused(tdb.uri());
    refused.addStage(u"s"_s, DaemonProcess::fakeWorker());
    QVERIFY(refused.start());
    QCOMPARE(refused.waitForExit(), 78);
    QVERIFY2(refused.log().contains(u"schema version 1, older than version %1"_s.arg(names.size()))
                 && refused.log().contains(u"pepsi-schema install"_s),
             qPrintable(refused.log()));

    const Run upgraded = schemaTool(tdb, u"install"_s);
    QVERIFY2(upgraded.exitCode == 0, qPrintable(upgraded.output));
    for (const QString &name : names.mid(1))
        QVERIFY2(upgraded.output.contains(name), qPrintable(upgraded.output));
    QCOMPARE(versions(tdb), allVersions());
    QCOMPARE(catalogState(tdb), catalogState(reference));
    verifyServeAccepts(tdb);
}

QTEST_GUILESS_MAIN(tst_SchemaFiles)
#include "tst_schemafiles.moc"
