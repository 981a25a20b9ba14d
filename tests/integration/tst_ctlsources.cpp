// SPDX-License-Identifier: AGPL-3.0-or-later
// Live settings against a real pepsi-dispatch through pepsi-ctl: `stages`
// says where each option's value comes from (file, overlay or default, and
// what the file says under an overlay row), `set` makes it the overlay's,
// `unset` removes the row so that the file's value comes back, and unsetting
// a row that is not there is a refusal naming the stage and the option.
#include "controlchecks.h"
#include "ctldaemontest.h"
#include "ctlrun.h"
#include "daemonprocess.h"
#include "testdatabase.h"

#include <QFile>
#include <QJsonArray>

#include <memory>

using namespace Qt::StringLiterals;

class tst_CtlSources : public CtlDaemonTest
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();

    void sourcesAsLoaded();
    void setThenUnset();
    void unsetOverDefault();
    void unsetARowWrittenInAnotherCase();
    void unsetWithoutARow_data();
    void unsetWithoutARow();

private:
    // The `stages` entry of one stage, as `pepsi-ctl --json stages` prints it.
    QJsonObject stage(const QString &name);
    int reloads() { return m_daemon->countLog(QRegularExpression(u"pipeline reloaded"_s)); }
    // Runs pepsi-ctl ARGUMENTS, expecting exit 0, and waits for the reload it causes.
    bool runAndReload(const QStringList &arguments, QString *out);
};

void tst_CtlSources::initTestCase()
{
    PEPSI_REQUIRE_CTL_BINARIES();
    PEPSI_REQUIRE_DATABASE_IN(m_db, "ctlsources");
    m_daemon = std::make_unique<DaemonProcess>(m_db->uri());
    m_daemon->addStage(u"ingest"_s, DaemonProcess::fakeWorker(), {{u"NEXT"_s, u"deliver"_s}});
    m_daemon->addStage(u"deliver"_s, DaemonProcess::fakeWorker(), {{u"PARALLELISM"_s, u"3"_s}});
    QVERIFY(startReady(*m_daemon));
}

void tst_CtlSources::init()
{
    // Each test begins with the file alone.
    if (m_db->scalar(u"SELECT count(*) FROM config_overlay"_s) == 0)
        return;
    const int before = reloads();
    QVERIFY(m_db->exec(u"DELETE FROM config_overlay"_s));
    QTRY_VERIFY_WITH_TIMEOUT(reloads() > before, 10000);
}

QJsonObject tst_CtlSources::stage(const QString &name)
{
    const CtlRun run = runCtl(at() + QStringList{u"--json"_s, u"stages"_s});
    if (!run.finished || run.exitCode != 0) {
        qWarning("%s", qPrintable(run.describe()));
        return {};
    }
    const QJsonArray stages = QJsonDocument::fromJson(run.out.toUtf8()).object().value(u"stages"_s).toArray();
    for (const QJsonValue &each : stages) {
        if (each[u"name"_s].toString() == name)
            return each.toObject();
    }
    return {};
}

bool tst_CtlSources::runAndReload(const QStringList &arguments, QString *out)
{
    const int before = reloads();
    const CtlRun run = runCtl(at() + arguments);
    *out = run.out;
    if (!run.finished || run.exitCode != 0 || !run.err.isEmpty()) {
        qWarning("%s", qPrintable(run.describe()));
        return false;
    }
    // The overlay's notification reloads the graph after the reply.
    return QTest::qWaitFor([&] { return reloads() > before; }, 10000);
}

void tst_CtlSources::sourcesAsLoaded()
{
    const QJsonObject deliver = stage(u"deliver"_s);
    VERIFY_FIELDS(deliver, u"sources"_s, u"file_values"_s);
    QCOMPARE(deliver[u"sources"_s].toObject(),
             (QJsonObject{{u"PROGRAM"_s, u"file"_s},
                          {u"PARALLELISM"_s, u"file"_s},
                          {u"QUEUE_LIMIT"_s, u"default"_s},
                          {u"MAX_MESSAGES"_s, u"default"_s},
                          {u"NEXT"_s, u"default"_s},
                          {u"FUSE"_s, u"default"_s}}));
    QCOMPARE(deliver[u"file_values"_s].toObject(), QJsonObject());
    QCOMPARE(stage(u"ingest"_s)[u"sources"_s][u"NEXT"_s].toString(), u"file"_s);

    // Nothing is marked live in the table.
    const CtlRun table = runCtl(at() + QStringList{u"stages"_s});
    QVERIFY2(table.exitCode == 0 && !table.out.contains(u"overlay"_s), qPrintable(table.describe() + table.out));
}

void tst_CtlSources::setThenUnset()
{
    QString out;
    QVERIFY(runAndReload({u"set"_s, u"deliver"_s, u"PARALLELISM"_s, u"2"_s}, &out));
    QJsonObject deliver = stage(u"deliver"_s);
    QCOMPARE(deliver[u"parallelism"_s].toInt(), 2);
    QCOMPARE(deliver[u"sources"_s][u"PARALLELISM"_s].toString(), u"overlay"_s);
    QCOMPARE(deliver[u"file_values"_s].toObject(), (QJsonObject{{u"PARALLELISM"_s, u"3"_s}}));
    QCOMPARE(deliver[u"sources"_s][u"PROGRAM"_s].toString(), u"file"_s);
    QCOMPARE(deliver[u"sources"_s][u"QUEUE_LIMIT"_s].toString(), u"default"_s);

    const CtlRun table = runCtl(at() + QStringList{u"stages"_s});
    QVERIFY2(table.exitCode == 0, qPrintable(table.describe()));
    QVERIFY2(QRegularExpression(u"(?m)^deliver +2 \\(overlay\\) +4 +1000 +no +"_s).match(table.out).hasMatch(),
             qPrintable(table.out));
    QVERIFY2(table.out.contains(u"\n  deliver PARALLELISM = 2; the file says 3\n"_s), qPrintable(table.out));

    QVERIFY(runAndReload({u"unset"_s, u"deliver"_s, u"PARALLELISM"_s}, &out));
    QCOMPARE(out,
             u"deliver: PARALLELISM removed from config_overlay; the file's value or the default applies once "
             "the graph reloads\n"_s);
    QCOMPARE(m_db->scalar(u"SELECT count(*) FROM config_overlay"_s), 0);
    deliver = stage(u"deliver"_s);
    QCOMPARE(deliver[u"parallelism"_s].toInt(), 3);
    QCOMPARE(deliver[u"sources"_s][u"PARALLELISM"_s].toString(), u"file"_s);
    QCOMPARE(deliver[u"file_values"_s].toObject(), QJsonObject());
    QVERIFY(m_daemon->waitForLog(
        QRegularExpression(u"config_overlay \\(stage-deliver, PARALLELISM\\) removed on the control socket"_s)));
}

void tst_CtlSources::unsetOverDefault()
{
    QString out;
    QVERIFY(runAndReload({u"set"_s, u"deliver"_s, u"QUEUE_LIMIT"_s, u"8"_s}, &out));
    QJsonObject deliver = stage(u"deliver"_s);
    QCOMPARE(deliver[u"sources"_s][u"QUEUE_LIMIT"_s].toString(), u"overlay"_s);
    QVERIFY(!deliver[u"file_values"_s].toObject().contains(u"QUEUE_LIMIT"_s)); // the file has none
    const CtlRun table = runCtl(at() + QStringList{u"stages"_s});
    QVERIFY2(table.out.contains(u"  deliver QUEUE_LIMIT = 8; the file has none (the default)\n"_s),
             qPrintable(table.out));

    QVERIFY(runAndReload({u"unset"_s, u"deliver"_s, u"queue_limit"_s}, &out));
    deliver = stage(u"deliver"_s);
    QCOMPARE(deliver[u"queue_limit"_s].toInt(), 4);
    QCOMPARE(deliver[u"sources"_s][u"QUEUE_LIMIT"_s].toString(), u"default"_s);
}

// The overlay reads names without case and blanks; unset removes what it read.
void tst_CtlSources::unsetARowWrittenInAnotherCase()
{
    const int before = reloads();
    QVERIFY(m_db->exec(u"INSERT INTO config_overlay VALUES ('Stage-Deliver', ' max_messages ', '70')"_s));
    QTRY_VERIFY_WITH_TIMEOUT(reloads() > before, 10000);
    QCOMPARE(stage(u"deliver"_s)[u"sources"_s][u"MAX_MESSAGES"_s].toString(), u"overlay"_s);

    QString out;
    QVERIFY(runAndReload({u"unset"_s, u"deliver"_s, u"MAX_MESSAGES"_s}, &out));
    QCOMPARE(m_db->scalar(u"SELECT count(*) FROM config_overlay"_s), 0);
    const QJsonObject deliver = stage(u"deliver"_s);
    QCOMPARE(deliver[u"max_messages"_s].toInt(), 1000);
    QCOMPARE(deliver[u"sources"_s][u"MAX_MESSAGES"_s].toString(), u"default"_s);
}

void tst_CtlSources::unsetWithoutARow_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("error");
    QTest::newRow("no row")
        << QStringList{u"unset"_s, u"deliver"_s, u"PARALLELISM"_s} << 1
        << u"'unset': config_overlay has no PARALLELISM row for stage deliver; nothing was removed"_s;
    QTest::newRow("another stage's row")
        << QStringList{u"unset"_s, u"ingest"_s, u"QUEUE_LIMIT"_s} << 1
        << u"'unset': config_overlay has no QUEUE_LIMIT row for stage ingest; nothing was removed"_s;
    QTest::newRow("unknown stage") << QStringList{u"unset"_s, u"nope"_s, u"PARALLELISM"_s} << 1
                                   << u"'unset': unknown stage \"nope\" (stages: deliver, ingest)"_s;
    QTest::newRow("an option set does not write")
        << QStringList{u"unset"_s, u"deliver"_s, u"PROGRAM"_s} << 64
        << u"unset: OPTION is one of PARALLELISM, QUEUE_LIMIT, MAX_MESSAGES, not \"PROGRAM\""_s;
}

void tst_CtlSources::unsetWithoutARow()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    QFETCH(QString, error);
    // A row of another stage stays where it is.
    QString out;
    QVERIFY(runAndReload({u"set"_s, u"ingest"_s, u"PARALLELISM"_s, u"2"_s}, &out));
    const int before = reloads();
    const CtlRun run = runCtl(at() + arguments);
    QVERIFY2(run.finished && run.exitCode == exitCode, qPrintable(run.describe()));
    QVERIFY2(run.err.contains(error), qPrintable(run.err));
    QVERIFY(run.out.isEmpty());
    QCOMPARE(m_db->scalar(u"SELECT count(*) FROM config_overlay WHERE section = 'stage-ingest'"_s), 1);
    QCOMPARE(stage(u"ingest"_s)[u"sources"_s][u"PARALLELISM"_s].toString(), u"overlay"_s);
    // Refused without a statement that notifies: no reload retires the
    // workers for it, and the next overlay change is the only reload since.
    QVERIFY(runAndReload({u"set"_s, u"ingest"_s, u"PARALLELISM"_s, u"3"_s}, &out));
    QCOMPARE(reloads(), before + 1);
}

QTEST_GUILESS_MAIN(tst_CtlSources)
#include "tst_ctlsources.moc"
