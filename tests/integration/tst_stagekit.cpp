// SPDX-License-Identifier: AGPL-3.0-or-later
// The stage-program kit end to end: pepsi-stage-example (and the fake worker
// in its default mode) as real processes against a real database, with the
// test playing the dispatcher.
#include "stagekittest.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QSqlQuery>
#include <QTest>

#include <memory>

using namespace Qt::StringLiterals;

class tst_StageKit : public StageKitTest
{
    Q_OBJECT

private Q_SLOTS:
    void advance_data();
    void advance();
    void answersABatchInOrder();
    void notRunningIsAFailureNamingTheId_data();
    void notRunningIsAFailureNamingTheId();
    void badLineIsAProtocolError_data();
    void badLineIsAProtocolError();
    void unterminatedLastLineIsAnsweredAtEof();
    void setsApplicationName();
    void readsTheOverlay_data();
    void readsTheOverlay();
    void readsABoundedOverlay();
    void workTime();
    void stampStart_data();
    void stampStart();
    void lostConnectionIsTryLaterThenRecovers();
    void databaseDownAtStartIsTryLater();
    void startupErrors_data();
    void startupErrors();
};

void tst_StageKit::advance_data()
{
    QTest::addColumn<QString>("program");
    QTest::addColumn<QString>("stage");
    QTest::addColumn<QString>("nextStage");
    QTest::addColumn<QString>("nextStatus");

    QTest::newRow("first -> middle") << WorkerHarness::Example << u"first"_s << u"middle"_s << u"pending"_s;
    QTest::newRow("middle -> first of NEXT") << WorkerHarness::Example << u"middle"_s << u"last"_s << u"pending"_s;
    QTest::newRow("terminal: done") << WorkerHarness::Example << u"last"_s << u"last"_s << u"done"_s;
    QTest::newRow("fake, ok") << WorkerHarness::Fake << u"fake"_s << u"last"_s << u"pending"_s;
    QTest::newRow("fake at terminal") << WorkerHarness::Fake << u"last"_s << u"last"_s << u"done"_s;
}

void tst_StageKit::advance()
{
    QFETCH(QString, program);
    QFETCH(QString, stage);
    QFETCH(QString, nextStage);
    QFETCH(QString, nextStatus);

    const qint64 id = m_harness->insertRow(stage);
    QProcess &worker = m_harness->start(program, stage);
    QCOMPARE(WorkerHarness::exchange(worker, QByteArray::number(id) + '\n', 1), QByteArrayList{"0"});

    const QVariantMap after = m_harness->row(id);
    QCOMPARE(after.value(u"stage"_s).toString(), nextStage);
    QCOMPARE(after.value(u"status"_s).toString(), nextStatus);
    if (program == WorkerHarness::Fake) {
        const QJsonObject state = after.value(u"state"_s).toJsonObject();
        QCOMPARE(state[u"runs"_s][stage].toInt(), 1);
        QCOMPARE(state[u"pids"_s][stage].toInteger(), worker.processId());
    }
    QCOMPARE(WorkerHarness::finish(worker), u"exit 0"_s);
}

void tst_StageKit::answersABatchInOrder()
{
    const qint64 a = m_harness->insertRow(u"first"_s);
    const qint64 notRunning = m_harness->insertRow(u"first"_s, u"pending"_s);
    const qint64 b = m_harness->insertRow(u"first"_s);
    QProcess &worker = m_harness->start(WorkerHarness::Example, u"first"_s);

    const QByteArray batch =
        QByteArray::number(a) + '\n' + QByteArray::number(notRunning) + '\n' + QByteArray::number(b) + '\n';
    const QByteArrayList expected{"0", "1 message " + QByteArray::number(notRunning) + " is not running at stage first",
                                  "0"};
    QCOMPARE(WorkerHarness::exchange(worker, batch, 3), expected);
    QCOMPARE(m_harness->row(a).value(u"stage"_s).toString(), u"middle"_s);
    QCOMPARE(m_harness->row(b).value(u"stage"_s).toString(), u"middle"_s);
    QCOMPARE(m_harness->row(notRunning).value(u"status"_s).toString(), u"pending"_s);
    QCOMPARE(WorkerHarness::finish(worker), u"exit 0"_s);
}

void tst_StageKit::notRunningIsAFailureNamingTheId_data()
{
    QTest::addColumn<QString>("rowStage");
    QTest::addColumn<QString>("rowStatus");

    QTest::newRow("pending") << u"first"_s << u"pending"_s;
    QTest::newRow("paused") << u"first"_s << u"paused"_s;
    QTest::newRow("done") << u"first"_s << u"done"_s;
    QTest::newRow("running at another stage") << u"middle"_s << u"running"_s;
    QTest::newRow("no such row") << QString() << QString();
}

void tst_StageKit::notRunningIsAFailureNamingTheId()
{
    QFETCH(QString, rowStage);
    QFETCH(QString, rowStatus);

    const qint64 id = rowStage.isNull() ? 999999 : m_harness->insertRow(rowStage, rowStatus);
    QProcess &worker = m_harness->start(WorkerHarness::Example, u"first"_s);
    QCOMPARE(WorkerHarness::exchange(worker, QByteArray::number(id) + '\n', 1),
             QByteArrayList{"1 message " + QByteArray::number(id) + " is not running at stage first"});
    if (!rowStage.isNull()) {
        QCOMPARE(m_harness->place(id), QString(rowStage + u' ' + rowStatus));
    }
    QCOMPARE(WorkerHarness::finish(worker), u"exit 0"_s);
}

void tst_StageKit::badLineIsAProtocolError_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QByteArray>("answer");

    const auto bad = [](const QByteArray &shown) -> QByteArray { return "65 protocol error: bad id \"" + shown + '"'; };
    QTest::newRow("word") << QByteArray("abc") << bad("abc");
    QTest::newRow("trailing junk") << QByteArray("12x") << bad("12x");
    QTest::newRow("empty") << QByteArray("") << bad("");
    QTest::newRow("negative") << QByteArray("-5") << bad("-5");
    QTest::newRow("two ids") << QByteArray("1 2") << bad("1 2");
    QTest::newRow("too many digits") << QByteArray("1234567890123456789") << bad("1234567890123456789");
    QTest::newRow("control character") << QByteArray("7\x01") << bad("7 ");
    QTest::newRow("over-long line") << QByteArray(5000, '1')
                                    << QByteArray("65 protocol error: line longer than 4096 bytes");
}

void tst_StageKit::badLineIsAProtocolError()
{
    QFETCH(QByteArray, line);
    QFETCH(QByteArray, answer);

    const qint64 id = m_harness->insertRow(u"first"_s);
    QProcess &worker = m_harness->start(WorkerHarness::Example, u"first"_s);
    // the worker answers the bad line and goes on with the next id
    QCOMPARE(WorkerHarness::exchange(worker, line + '\n' + QByteArray::number(id) + '\n', 2),
             (QByteArrayList{answer, "0"}));
    QCOMPARE(m_harness->row(id).value(u"stage"_s).toString(), u"middle"_s);
    QCOMPARE(WorkerHarness::finish(worker), u"exit 0"_s);
}

void tst_StageKit::unterminatedLastLineIsAnsweredAtEof()
{
    const qint64 id = m_harness->insertRow(u"last"_s);
    QProcess &worker = m_harness->start(WorkerHarness::Example, u"last"_s);
    worker.write(QByteArray::number(id));
    worker.closeWriteChannel();
    QCOMPARE(WorkerHarness::exchange(worker, {}, 1), QByteArrayList{"0"});
    QCOMPARE(WorkerHarness::finish(worker), u"exit 0"_s);
    QCOMPARE(m_harness->row(id).value(u"status"_s).toString(), u"done"_s);
}

void tst_StageKit::setsApplicationName()
{
    const qint64 id = m_harness->insertRow(u"middle"_s);
    QProcess &worker = m_harness->start(WorkerHarness::Example, u"middle"_s);
    QCOMPARE(WorkerHarness::exchange(worker, QByteArray::number(id) + '\n', 1), QByteArrayList{"0"});
    QSqlQuery q(m_db->db());
    QVERIFY(q.exec(u"SELECT count(*) FROM pg_stat_activity WHERE application_name = 'pepsi-stage-middle' "
                   u"AND datname = current_database()"_s));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toInt(), 1);
    QCOMPARE(WorkerHarness::finish(worker), u"exit 0"_s);
}

void tst_StageKit::readsTheOverlay_data()
{
    QTest::addColumn<QStringList>("rows"); // inserted in this order
    QTest::addColumn<QString>("next");     // where the worker sends the message

    QTest::newRow("NEXT changed") << QStringList{u"('stage-first', 'next', 'other')"_s} << u"other"_s;
    // Heap order puts "next" first, (section, option) order "NEXT": the
    // dispatcher applies "next" last, so must the worker.
    QTest::newRow("NEXT twice, in other case")
        << QStringList{u"('stage-first', 'next', 'other')"_s, u"('stage-first', 'NEXT', 'last')"_s} << u"other"_s;
}

// The worker routes by the file plus config_overlay, as its dispatcher does.
void tst_StageKit::readsTheOverlay()
{
    QFETCH(QStringList, rows);
    QFETCH(QString, next);
    for (const QString &row : std::as_const(rows))
        QCOMPARE(m_harness->exec(u"INSERT INTO config_overlay VALUES "_s + row), QString());
    const qint64 id = m_harness->insertRow(u"first"_s);
    QProcess &worker = m_harness->start(WorkerHarness::Example, u"first"_s);
    QCOMPARE(WorkerHarness::exchange(worker, QByteArray::number(id) + '\n', 1), QByteArrayList{"0"});
    QCOMPARE(m_harness->row(id).value(u"stage"_s).toString(), next);
    QCOMPARE(WorkerHarness::finish(worker), u"exit 0"_s);
}

// The worker reads at most one row past the overlay's limit (the refusal
// counts what was read), as the dispatcher does.
void tst_StageKit::readsABoundedOverlay()
{
    QCOMPARE(m_harness->exec(u"INSERT INTO config_overlay SELECT 'stage-x', 'OPTION_' || i, '1' "
                             "FROM generate_series(1, 14000) i"_s),
             QString());
    QProcess &refused = m_harness->start(WorkerHarness::Example, u"first"_s);
    QCOMPARE(WorkerHarness::finish(refused), u"exit 78"_s);
    const QByteArray err = refused.readAllStandardError();
    QVERIFY2(err.contains("config_overlay has more than 4096 rows (4097 read); none applied"), err.constData());
}

void tst_StageKit::workTime()
{
    QCOMPARE(m_harness->exec(u"INSERT INTO config_overlay VALUES ('stage-first', 'WORK_TIME', '300 ms')"_s), QString());
    const qint64 id = m_harness->insertRow(u"first"_s);
    QProcess &worker = m_harness->start(WorkerHarness::Example, u"first"_s);
    QElapsedTimer timer;
    timer.start();
    const QByteArrayList answers = WorkerHarness::exchange(worker, QByteArray::number(id) + '\n', 1);
    // A worker that refused WORK_TIME (or any of its stage's options) exits
    // 78 without answering: that is the regression, and its stderr says why.
    QVERIFY2(answers == QByteArrayList{"0"}, worker.readAllStandardError().constData());
    QVERIFY2(timer.elapsed() >= 300, qPrintable(QString::number(timer.elapsed())));
    QCOMPARE(WorkerHarness::finish(worker), u"exit 0"_s);

    QCOMPARE(m_harness->exec(u"UPDATE config_overlay SET value = 'soon'"_s), QString());
    QProcess &bad = m_harness->start(WorkerHarness::Example, u"first"_s);
    QCOMPARE(WorkerHarness::finish(bad), u"exit 78"_s);
    QVERIFY(bad.readAllStandardError().contains("WORK_TIME"));
}

void tst_StageKit::stampStart_data()
{
    QTest::addColumn<QString>("option");
    QTest::addColumn<bool>("stamped");

    QTest::newRow("default: no stamp") << QString() << false;
    QTest::newRow("STAMP_START = NO") << u"NO"_s << false;
    QTest::newRow("STAMP_START = YES") << u"YES"_s << true;
}

void tst_StageKit::stampStart()
{
    QFETCH(QString, option);
    QFETCH(bool, stamped);

    if (!option.isEmpty()) {
        QCOMPARE(
            m_harness->exec(u"INSERT INTO config_overlay VALUES ('stage-first', 'STAMP_START', '%1')"_s.arg(option)),
            QString());
    }
    const qint64 id = m_harness->insertRow(u"first"_s);
    QProcess &worker = m_harness->start(WorkerHarness::Example, u"first"_s);
    const qint64 beforeUsec = QDateTime::currentMSecsSinceEpoch() * 1000;
    QCOMPARE(WorkerHarness::exchange(worker, QByteArray::number(id) + '\n', 1), QByteArrayList{"0"});
    const qint64 afterUsec = QDateTime::currentMSecsSinceEpoch() * 1000 + 1000;
    QCOMPARE(WorkerHarness::finish(worker), u"exit 0"_s);

    const QVariantMap after = m_harness->row(id);
    QCOMPARE(after.value(u"stage"_s).toString(), u"middle"_s);
    const QJsonValue started = after.value(u"state"_s).toJsonObject()[u"started"_s][u"first"_s];
    QCOMPARE(started.isDouble(), stamped);
    if (stamped) {
        // The real-time clock when the handler got the id: after it was sent, before the answer came.
        const qint64 usec = started.toInteger();
        QVERIFY2(usec >= beforeUsec && usec <= afterUsec,
                 qPrintable(u"%1 not in [%2, %3]"_s.arg(usec).arg(beforeUsec).arg(afterUsec)));
    }
}

void tst_StageKit::lostConnectionIsTryLaterThenRecovers()
{
    const qint64 a = m_harness->insertRow(u"first"_s);
    const qint64 b = m_harness->insertRow(u"first"_s);
    QProcess &worker = m_harness->start(WorkerHarness::Example, u"first"_s);
    QCOMPARE(WorkerHarness::exchange(worker, QByteArray::number(a) + '\n', 1), QByteArrayList{"0"});

    QCOMPARE(m_harness->exec(u"SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                             u"WHERE application_name = 'pepsi-stage-first'"_s),
             QString());
    const QByteArrayList lost = WorkerHarness::exchange(worker, QByteArray::number(b) + '\n', 1);
    QCOMPARE(lost.size(), 1);
    QVERIFY2(lost.first().startsWith("75 database connection lost: "), lost.first().constData());
    QCOMPARE(m_harness->row(b).value(u"status"_s).toString(), u"running"_s);

    // the next message finds the connection reset
    QCOMPARE(WorkerHarness::exchange(worker, QByteArray::number(b) + '\n', 1), QByteArrayList{"0"});
    QCOMPARE(m_harness->row(b).value(u"stage"_s).toString(), u"middle"_s);
    QCOMPARE(WorkerHarness::finish(worker), u"exit 0"_s);
    QVERIFY(worker.readAllStandardError().contains("database connection re-established"));
}

void tst_StageKit::databaseDownAtStartIsTryLater()
{
    const QString config = m_harness->writeConfig({}, u"postgresql:///nosuch?host=/nonexistent&port=1"_s);
    QProcess &worker = m_harness->start(WorkerHarness::Example, u"first"_s, {u"-c"_s, config, u"worker"_s});
    const QByteArrayList answers = WorkerHarness::exchange(worker, "1\n2\n", 2);
    QCOMPARE(answers.size(), 2);
    for (const QByteArray &answer : answers)
        QVERIFY2(answer.startsWith("75 database unavailable: "), answer.constData());
    QCOMPARE(WorkerHarness::finish(worker), u"exit 0"_s);
    // logged once per outage, not once per message
    QCOMPARE(worker.readAllStandardError().count("database unavailable"), 1);
}

void tst_StageKit::startupErrors_data()
{
    QTest::addColumn<QString>("stage");       // null: PEPSI_STAGE unset
    QTest::addColumn<QString>("configExtra"); // appended to the pipeline
    QTest::addColumn<QString>("database");    // empty: the test database
    QTest::addColumn<QStringList>("args");    // %CONFIG% is the file; empty: -c %CONFIG% worker
    QTest::addColumn<QString>("exit");
    QTest::addColumn<QStringList>("stderrHas"); // %CONFIG% is the file

    const QStringList defaults;
    QTest::newRow("unknown stage") << u"nosuch"_s << QString() << QString() << defaults << u"exit 78"_s
                                   << QStringList{u"PEPSI_STAGE=nosuch names no stage of %CONFIG%"_s};
    QTest::newRow("PEPSI_STAGE unset") << QString() << QString() << QString() << defaults << u"exit 78"_s
                                       << QStringList{u"PEPSI_STAGE is not set"_s};
    // the pipeline ends at line 20; the appended text starts at line 21
    QTest::newRow("syntax error") << u"first"_s << u"\n[stage-broken\n"_s << QString() << defaults << u"exit 78"_s
                                  << QStringList{u"%CONFIG%:22: bad section header"_s};
    QTest::newRow("bad graph") << u"first"_s << u"\n[stage-x]\nPROGRAM = p\nNEXT = nowhere\n"_s << QString() << defaults
                               << u"exit 78"_s << QStringList{u"%CONFIG%:24"_s, u"NEXT"_s, u"nowhere"_s};
    QTest::newRow("bad DATABASE") << u"first"_s << QString() << u"dbname=x junk"_s << defaults << u"exit 78"_s
                                  << QStringList{u"%CONFIG%:2: [pepsi] DATABASE: "_s};
    QTest::newRow("missing file") << u"first"_s << QString() << QString()
                                  << QStringList{u"-c"_s, u"/nonexistent.conf"_s, u"worker"_s} << u"exit 78"_s
                                  << QStringList{u"/nonexistent.conf"_s};
    QTest::newRow("no command") << u"first"_s << QString() << QString() << QStringList{u"-c"_s, u"%CONFIG%"_s}
                                << u"exit 64"_s << QStringList{u"missing command: worker"_s, u"usage:"_s};
    QTest::newRow("unknown argument") << u"first"_s << QString() << QString() << QStringList{u"worker"_s, u"--bogus"_s}
                                      << u"exit 64"_s << QStringList{u"\"--bogus\""_s, u"usage:"_s};
    QTest::newRow("-c without file") << u"first"_s << QString() << QString() << QStringList{u"worker"_s, u"-c"_s}
                                     << u"exit 64"_s << QStringList{u"-c needs a file name"_s};
    QTest::newRow("help") << u"first"_s << QString() << QString() << QStringList{u"-h"_s} << u"exit 0"_s
                          << QStringList{};
}

void tst_StageKit::startupErrors()
{
    QFETCH(QString, stage);
    QFETCH(QString, configExtra);
    QFETCH(QString, database);
    QFETCH(QStringList, args);
    QFETCH(QString, exit);
    QFETCH(QStringList, stderrHas);

    const QString config = m_harness->writeConfig(configExtra, database);
    for (QString &arg : args)
        arg.replace(u"%CONFIG%"_s, config);
    if (args.isEmpty())
        args = QStringList{u"-c"_s, config, u"worker"_s};
    QProcess &worker = m_harness->start(WorkerHarness::Example, stage, args);
    QCOMPARE(WorkerHarness::finish(worker), exit);
    const QString err = QString::fromUtf8(worker.readAllStandardError());
    for (QString expected : stderrHas) {
        expected.replace(u"%CONFIG%"_s, config);
        QVERIFY2(err.contains(expected), qPrintable(u"missing \""_s + expected + u"\" in: "_s + err));
    }
    if (exit == u"exit 0"_s)
        QVERIFY(worker.readAllStandardOutput().startsWith("usage:"));
}

QTEST_GUILESS_MAIN(tst_StageKit)
#include "tst_stagekit.moc"
