// SPDX-License-Identifier: AGPL-3.0-or-later
// pepsi-dispatch check as a real process against a real PostgreSQL: the file
// and the overlay read as serve reads them, every problem with its FILE:LINE,
// an unreachable database, and the units' ExecReload (doc/operations.rst).
#include "daemonprocess.h"
#include "databasefixture.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTest>

#include <memory>

using namespace Qt::StringLiterals;

class tst_ConfigCheck : public QObject, private DatabaseFixture
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanup() { resetDatabase(); }
    void goodFilePrintsItsStages();
    void everyProblemWithItsLine();
    void overlayRowThatBreaksTheGraph();
    void unreachableDatabaseStillChecksTheFile();
    void unitsCheckBeforeReloading();

private:
    // Runs `pepsi-dispatch -c FILE check`; its exit code.
    static int check(DaemonProcess &daemon);
};

void tst_ConfigCheck::initTestCase() { PEPSI_REQUIRE_BINARIES(); }

int tst_ConfigCheck::check(DaemonProcess &daemon)
{
    const QString path = daemon.writeConfig();
    if (path.isEmpty() || !daemon.startWith({u"-c"_s, path, u"check"_s}))
        return -2;
    return daemon.waitForExit(20000);
}

void tst_ConfigCheck::goodFilePrintsItsStages()
{
    if (!freshDatabase())
        return;
    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"ingest"_s, DaemonProcess::fakeWorker(), {{u"NEXT"_s, u"deliver"_s}});
    daemon.addStage(u"deliver"_s, DaemonProcess::fakeWorker(), {{u"PARALLELISM"_s, u"2"_s}});
    QCOMPARE(check(daemon), 0);
    const QString out = daemon.standardOutput();
    QVERIFY2(out.contains(u"stage deliver\n"_s) && out.contains(u"stage ingest\n"_s), qPrintable(out));
    QVERIFY2(out.contains(u"edge ingest -> deliver"_s), qPrintable(out));
    QVERIFY2(out.contains(u"  PARALLELISM = 2 (file "_s + daemon.configPath() + u':'), qPrintable(out));
    QVERIFY2(out.contains(u"  QUEUE_LIMIT = 4 (default)"_s), qPrintable(out));
    QVERIFY2(out.contains(u"config_overlay: 0 rows read"_s), qPrintable(out));
    QVERIFY2(daemon.log().isEmpty(), qPrintable(daemon.log()));
    // Nothing written, no lock taken: the database saw no dispatcher.
    QCOMPARE(m_db->scalar(u"SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'"_s), 0);
}

void tst_ConfigCheck::everyProblemWithItsLine()
{
    if (!freshDatabase())
        return;
    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"ingest"_s, DaemonProcess::fakeWorker(), {{u"NEXT"_s, u"enrich"_s}});
    daemon.writeConfig();
    const QString script = QFileInfo(daemon.configPath()).absolutePath() + u"/not-executable.sh"_s;
    QFile file(script);
    QVERIFY(file.open(QIODevice::WriteOnly) && file.write("#!/bin/sh\nexec cat\n") > 0);
    file.close();
    QVERIFY(file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther));
    daemon.appendRaw("[stage-enrich]\n"
                     "PROGRAM = "
                     + DaemonProcess::fakeWorker().toUtf8()
                     + "\n"
                       "NEXT = nosuchstage\n"
                       "\n"
                       "[stage-deliver]\n"
                       "PROGRAM = /nonexistent/deliver\n"
                       "PARALLELISM = lots\n"
                       "\n"
                       "[stage-archive]\n"
                       "PROGRAM = "
                     + script.toUtf8() + "\n");
    QCOMPARE(check(daemon), 78);
    const QString err = daemon.log();
    const QString at = daemon.configPath() + u':';
    const int first = daemon.appendedLine();
    QVERIFY2(err.contains(at + QString::number(first + 2) + u": stage-enrich: NEXT: unknown stage \"nosuchstage\""_s),
             qPrintable(err));
    QVERIFY2(err.contains(at + QString::number(first + 5) + u": stage-deliver: PROGRAM \"/nonexistent/deliver\""_s),
             qPrintable(err));
    QVERIFY2(err.contains(at + QString::number(first + 6) + u": stage-deliver: PARALLELISM: \"lots\""_s),
             qPrintable(err));
    QVERIFY2(err.contains(at + QString::number(first + 9) + u": stage-archive: PROGRAM \""_s + script
                          + u"\" is not executable"_s),
             qPrintable(err));
    QCOMPARE(err.trimmed().split(u'\n').size(), 4);
}

void tst_ConfigCheck::overlayRowThatBreaksTheGraph()
{
    if (!freshDatabase())
        return;
    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"ingest"_s, DaemonProcess::fakeWorker());
    QCOMPARE(check(daemon), 0);
    QVERIFY(m_db->exec(u"INSERT INTO config_overlay VALUES ('stage-ingest', 'next', 'nowhere')"_s));
    QCOMPARE(check(daemon), 78);
    QVERIFY2(daemon.log().contains(u"config_overlay (stage-ingest, NEXT): stage-ingest: NEXT: unknown stage "
                                   "\"nowhere\""_s),
             qPrintable(daemon.log()));
    QVERIFY2(daemon.standardOutput().contains(u"config_overlay: 1 rows read"_s), qPrintable(daemon.standardOutput()));
}

void tst_ConfigCheck::unreachableDatabaseStillChecksTheFile()
{
    DaemonProcess daemon(u"host=/nonexistent dbname=pepsi"_s);
    daemon.addStage(u"ingest"_s, DaemonProcess::fakeWorker());
    QCOMPARE(check(daemon), 0);
    QVERIFY2(daemon.standardOutput().contains(u"database: not reachable"_s)
                 && daemon.standardOutput().contains(u"config_overlay not read"_s),
             qPrintable(daemon.standardOutput()));
    QVERIFY2(daemon.standardOutput().contains(u"stage ingest\n"_s), qPrintable(daemon.standardOutput()));

    daemon.setStageOption(u"ingest"_s, u"MAX_MESSAGES"_s, u"0"_s);
    QCOMPARE(check(daemon), 78);
    QVERIFY2(daemon.log().contains(u"stage-ingest: MAX_MESSAGES"_s), qPrintable(daemon.log()));
    QVERIFY2(daemon.standardOutput().contains(u"config_overlay not read"_s), qPrintable(daemon.standardOutput()));
}

void tst_ConfigCheck::unitsCheckBeforeReloading()
{
    const QDir units(QStringLiteral(PEPSI_SOURCE_DIR "/resources/systemd"));
    const QStringList names = units.entryList({u"*.service"_s}, QDir::Files);
    QVERIFY(!names.isEmpty());
    for (const QString &name : names) {
        QFile unit(units.filePath(name));
        QVERIFY(unit.open(QIODevice::ReadOnly));
        QStringList reloads;
        for (const QByteArray &line : unit.readAll().split('\n'))
            if (line.startsWith("ExecReload="))
                reloads << QString::fromUtf8(line.mid(int(qstrlen("ExecReload="))));
        QCOMPARE(reloads.size(), 2);
        QVERIFY2(reloads[0].startsWith(u"/usr/bin/pepsi-dispatch "_s) && reloads[0].endsWith(u" check"_s),
                 qPrintable(name + u": "_s + reloads[0]));
        QCOMPARE(reloads[1], u"/bin/kill -HUP $MAINPID"_s);
    }
}

QTEST_GUILESS_MAIN(tst_ConfigCheck)
#include "tst_configcheck.moc"
