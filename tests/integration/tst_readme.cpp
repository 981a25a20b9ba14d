// SPDX-License-Identifier: AGPL-3.0-or-later
// The README's quick commands, run as it shows them: each `pepsi-ctl` example
// of a `console` block against a real daemon with the demo's stages, its exit
// status and the shape of its output (the first line with the figures made
// into placeholders, the table headings word for word, the rows' column
// counts) held against what the README prints; the schema commands; the
// scripts the README names and their options. A README that drifts from the
// programs fails here, not on a newcomer's first day.
#include "controlchecks.h"
#include "ctlrun.h"
#include "daemonprocess.h"
#include "testdatabase.h"

#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QSqlError>
#include <QSqlQuery>

#include <memory>

using namespace Qt::StringLiterals;

namespace {

QString readmePath() { return QStringLiteral(PEPSI_SOURCE_DIR "/README.md"); }

// One `$ command` of a ```console block and the lines the README shows after it.
struct Example
{
    QString command;
    QStringList output;
};

QList<Example> consoleExamples(const QString &readme)
{
    QList<Example> examples;
    bool inBlock = false;
    for (const QString &line : readme.split(u'\n')) {
        if (line.startsWith(u"```")) {
            inBlock = !inBlock && line.trimmed() == u"```console";
            continue;
        }
        if (!inBlock)
            continue;
        if (line.startsWith(u"$ "))
            examples.append({line.mid(2).trimmed(), {}});
        else if (!examples.isEmpty() && !line.isEmpty())
            examples.last().output.append(line);
    }
    return examples;
}

// Figures (counts, rates, durations, dates and times) made into one placeholder.
QString shape(const QString &line)
{
    static const QRegularExpression figure(u"[0-9][0-9.:-]*(ms|s|m|h)?"_s);
    QString shaped = line;
    shaped.replace(figure, u"#"_s);
    return shaped.simplified();
}

QStringList columns(const QString &line)
{
    static const QRegularExpression gap(u"\\s+"_s);
    return line.trimmed().split(gap, Qt::SkipEmptyParts);
}

} // namespace

class tst_Readme : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();

    void ctlExamples_data();
    void ctlExamples();
    void schemaCommands();
    void namedScriptsExist();

private:
    QString m_readme;
    std::unique_ptr<TestDatabase> m_db;
    std::unique_ptr<DaemonProcess> m_daemon;
};

void tst_Readme::initTestCase()
{
    QFile file(readmePath());
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(readmePath()));
    m_readme = QString::fromUtf8(file.readAll());
    PEPSI_REQUIRE_CTL_BINARIES();
    PEPSI_REQUIRE_DATABASE_IN(m_db, "readme");
    // The demo's pipeline (scripts/demo), with a backlog at its first stage.
    m_daemon = std::make_unique<DaemonProcess>(m_db->uri());
    m_daemon->addStage(u"ingest"_s, DaemonProcess::exampleStage(), {{u"NEXT"_s, u"enrich"_s}});
    m_daemon->addStage(u"enrich"_s, DaemonProcess::exampleStage(), {{u"NEXT"_s, u"deliver"_s}});
    m_daemon->addStage(u"deliver"_s, DaemonProcess::exampleStage());
    QVERIFY(startReady(*m_daemon));
    QSqlQuery insert(m_db->db());
    QVERIFY2(insert.exec(u"INSERT INTO workqueue (stage) SELECT 'ingest' FROM generate_series(1, 2000)"_s),
             qPrintable(insert.lastError().text()));
}

void tst_Readme::cleanupTestCase()
{
    if (m_daemon)
        QCOMPARE(m_daemon->terminate(), 0);
}

void tst_Readme::ctlExamples_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QStringList>("shown");
    const QString demoCtl = u"build/ctl/pepsi-ctl -c build/demo/pepsi.conf "_s;
    int found = 0;
    for (const Example &example : consoleExamples(m_readme)) {
        // Every pepsi-ctl example of the README is the demo's: one that names
        // another binary or configuration is a README that drifted.
        if (!example.command.contains(u"pepsi-ctl"))
            continue;
        QVERIFY2(example.command.startsWith(demoCtl), qPrintable(example.command));
        ++found;
        QTest::newRow(qPrintable(example.command.mid(demoCtl.size())))
            << columns(example.command.mid(demoCtl.size())) << example.output;
    }
    QVERIFY2(found >= 2, "the README shows pepsi-ctl status and queues");
}

void tst_Readme::ctlExamples()
{
    QFETCH(QStringList, arguments);
    QFETCH(QStringList, shown);
    QVERIFY(!shown.isEmpty());
    const CtlRun run = runCtl(QStringList{u"-c"_s, m_daemon->configPath()} + arguments);
    QVERIFY2(run.finished && run.exitCode == 0, qPrintable(run.describe()));
    const QStringList printed = run.out.split(u'\n', Qt::SkipEmptyParts);
    QVERIFY2(!printed.isEmpty(), qPrintable(run.describe()));
    QCOMPARE(shape(printed.first()), shape(shown.first()));

    // The tables: the same headings, and per row of a stage the README shows
    // as many columns as pepsi-ctl prints for it.
    auto headings = [](const QStringList &lines) {
        QStringList found;
        for (const QString &line : lines) {
            if (line.startsWith(u"STAGE "))
                found.append(line.simplified());
        }
        return found;
    };
    QCOMPARE(headings(printed), headings(shown));
    int rowsCompared = 0;
    for (const QString &line : shown) {
        const QStringList shownColumns = columns(line);
        const QString stage = shownColumns.value(0);
        if (stage.isEmpty() || stage == u"STAGE" || !line.startsWith(stage))
            continue;
        for (const QString &other : printed) {
            if (columns(other).value(0) != stage)
                continue;
            QCOMPARE(columns(other).size(), shownColumns.size());
            ++rowsCompared;
        }
    }
    if (!headings(shown).isEmpty())
        QVERIFY2(rowsCompared >= 3, "each of the demo's stages has a row");
}

// The schema commands of "The database on an existing PostgreSQL server":
// install (again: no change) and status, on this test's configuration.
void tst_Readme::schemaCommands()
{
    for (const QString &command : {u"install"_s, u"status"_s})
        QVERIFY2(m_readme.contains(u"pepsi-schema -c /etc/pepsi/pepsi.conf "_s + command), qPrintable(command));
    const QString schema = DaemonProcess::buildDir() + u"/tools/pepsi-schema"_s;
    for (const QString &command : {u"install"_s, u"status"_s}) {
        QProcess process;
        process.start(schema, {u"-c"_s, m_daemon->configPath(), command});
        QVERIFY(process.waitForFinished(30000));
        QVERIFY2(process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0,
                 qPrintable(command + u": "_s + QString::fromUtf8(process.readAllStandardError())));
    }
}

// Each scripts/NAME the README names exists and runs, and each option it
// gives scripts/demo is in the demo's usage.
void tst_Readme::namedScriptsExist()
{
    static const QRegularExpression named(u"scripts/([a-z-]+)( --[a-z-]+)?"_s);
    QProcess demo;
    demo.start(QStringLiteral(PEPSI_SOURCE_DIR "/scripts/demo"), {u"--help"_s});
    QVERIFY(demo.waitForFinished(10000));
    const QString usage = QString::fromUtf8(demo.readAllStandardError());
    QVERIFY2(usage.startsWith(u"usage: scripts/demo"), qPrintable(usage));
    int seen = 0;
    for (auto it = named.globalMatch(m_readme); it.hasNext();) {
        const auto match = it.next();
        const QFileInfo script(QStringLiteral(PEPSI_SOURCE_DIR "/scripts/") + match.captured(1));
        QVERIFY2(script.isFile() && script.isExecutable(), qPrintable(match.captured(0)));
        if (match.captured(1) == u"demo" && !match.captured(2).isEmpty())
            QVERIFY2(usage.contains(match.captured(2).trimmed()), qPrintable(match.captured(0)));
        ++seen;
    }
    QVERIFY(seen >= 4);
}

QTEST_GUILESS_MAIN(tst_Readme)
#include "tst_readme.moc"
