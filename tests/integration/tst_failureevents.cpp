// SPDX-License-Identifier: AGPL-3.0-or-later
// Failures where an operator looks, against a real pepsi-dispatch and the
// fake worker failing a share of its messages: message_failed with the count
// and the reason, at most about once a second; stage_failing once most runs
// fail and stage_recovered once it heals (with their log lines); the same in
// `pepsi-ctl events`, the `metrics` gauge, and `pepsi-ctl status` with the
// failed backlog and the age of its counts (doc/control-protocol.rst, Events).
#include "controlchecks.h"
#include "controltestclient.h"
#include "ctlrun.h"
#include "daemonprocess.h"
#include "daemontest.h"

#include <QDateTime>
#include <QProcess>
#include <QRegularExpression>

#include <csignal>

using namespace Qt::StringLiterals;

namespace {

QDateTime eventTime(const QJsonObject &event)
{
    return QDateTime::fromString(event.value(u"time"_s).toString(), Qt::ISODateWithMs);
}

bool hasLine(const QString &text, const QString &line) { return text.split(u'\n').contains(line); }

} // namespace

class tst_FailureEvents : public DaemonTest
{
    Q_OBJECT

private Q_SLOTS:
    void failuresShowWhereOperatorsLook();
    void ctlStatusShowsTheFailedBacklog();
    void ctlTopRefreshesUntilInterrupted();
};

// Three of every four messages fail: the events say so as it happens, and
// say it is over once the stage's messages go well again.
void tst_FailureEvents::failuresShowWhereOperatorsLook()
{
    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"deliver"_s, DaemonProcess::fakeWorker(), {{u"PARALLELISM"_s, u"2"_s}});
    const auto client = startSubscribed(daemon, {u"message_failed"_s, u"stage_failing"_s, u"stage_recovered"_s});
    QVERIFY(client);
    QProcess ctl;
    ctl.start(ctlBinary(),
              {u"--socket"_s, daemon.controlSocket(), u"events"_s, u"message_failed"_s, u"stage_failing"_s,
               u"stage_recovered"_s, u"tick"_s});
    QVERIFY(ctl.waitForStarted());
    // Its first tick says it has subscribed: no failure comes before.
    QByteArray out;
    QVERIFY2(QTest::qWaitFor([&] { return (out += ctl.readAllStandardOutput()).contains("  tick "); }, 10000),
             qPrintable(QString::fromUtf8(out + ctl.readAllStandardError())));

    QStringList modes;
    for (int i = 0; i < 40; ++i)
        modes.append(i % 4 == 0 ? u"ok"_s : u"fail:3"_s);
    QCOMPARE(m_queue->insertModes(u"deliver"_s, modes).size(), 40);

    // GIVEN 30 failures THEN stage_failing, with the share of the window
    const auto failing = client->takeEvent(u"stage_failing"_s);
    QVERIFY(failing);
    QCOMPARE(failing->value(u"stage"_s).toString(), u"deliver"_s);
    const double share = failing->value(u"failure_share"_s).toDouble();
    QVERIFY2(share >= 0.5 && share <= 1.0, qPrintable(QString::number(share)));
    QTRY_COMPARE(daemon.countLog(QRegularExpression(u"WARNING.*stage deliver is failing: \\d+ of its \\d+ runs in "
                                                    "the last 10 s failed .*the latest: status 3: fake failure"_s)),
                 1);
    // AND message_failed counts every one, with the reason as the row has it, at most once a second
    qint64 counted = 0;
    QList<QDateTime> times;
    while (counted < 30) {
        const auto failed = client->takeEvent(u"message_failed"_s);
        QVERIFY2(failed, qPrintable(u"%1 of 30 failures reported"_s.arg(counted)));
        QCOMPARE(failed->value(u"stage"_s).toString(), u"deliver"_s);
        QCOMPARE(failed->value(u"reason"_s).toString(), u"status 3: fake failure"_s);
        const qint64 count = failed->value(u"count"_s).toInteger();
        QVERIFY(count >= 1);
        counted += count;
        times.append(eventTime(*failed));
    }
    QCOMPARE(counted, 30);
    QVERIFY2(times.size() < 30, "coalesced, not one event per failure");
    for (qsizetype i = 1; i < times.size(); ++i)
        QVERIFY2(times.at(i - 1).msecsTo(times.at(i)) >= 900, "at most about once a second");
    QCOMPARE(m_queue->count(u"status = 'failed' AND state->>'dispatch_error' = 'status 3: fake failure'"_s), 30);

    // AND status and metrics say the stage is failing
    const QJsonObject stats =
        client->request(R"({"cmd":"status"})"_ba)[u"result"_s][u"stages"_s][u"deliver"_s][u"stats"_s].toObject();
    QCOMPARE(stats.value(u"failing"_s).toBool(), true);
    QVERIFY(stats.value(u"failure_share"_s).toDouble() >= 0.5);
    const QString metrics = client->request(R"({"cmd":"metrics"})"_ba)[u"result"_s][u"text"_s].toString();
    QVERIFY2(hasLine(metrics, u"pepsi_dispatch_stage_failing{stage=\"deliver\"} 1"_s), qPrintable(metrics));
    QVERIFY2(metrics.contains(u"# TYPE pepsi_dispatch_stage_failure_share gauge"_s), qPrintable(metrics));

    // WHEN its messages go well again THEN stage_recovered, under a tenth
    QVERIFY(!m_queue->insert(u"deliver"_s, 400, {{u"deliver"_s, u"ok"_s}}).isEmpty());
    const auto recovered = client->takeEvent(u"stage_recovered"_s, 30000);
    QVERIFY(recovered);
    QCOMPARE(recovered->value(u"stage"_s).toString(), u"deliver"_s);
    QVERIFY(recovered->value(u"failure_share"_s).toDouble() < 0.1);
    QTRY_COMPARE(daemon.countLog(QRegularExpression(u"INFO.*stage deliver recovered: \\d+ of its \\d+ runs"_s)), 1);
    QTRY_VERIFY(hasLine(client->request(R"({"cmd":"metrics"})"_ba)[u"result"_s][u"text"_s].toString(),
                        u"pepsi_dispatch_stage_failing{stage=\"deliver\"} 0"_s));

    // pepsi-ctl events printed the same in words, and stops on SIGINT with 0
    const QRegularExpression failedLine(
        u"^\\d\\d:\\d\\d:\\d\\d\\.\\d{3}  message_failed deliver: \\d+ messages? failed; the latest: status 3: "
        "fake failure$"_s,
        QRegularExpression::MultilineOption);
    const QRegularExpression failingLine(
        u"^\\d\\d:\\d\\d:\\d\\d\\.\\d{3}  stage_failing deliver: \\d+ % of its runs in the last 10 s failed "
        "\\(failing\\)$"_s,
        QRegularExpression::MultilineOption);
    const QRegularExpression recoveredLine(u"^\\S+  stage_recovered deliver: \\d % of its runs"_s,
                                           QRegularExpression::MultilineOption);
    QVERIFY2(QTest::qWaitFor(
                 [&] {
                     out += ctl.readAllStandardOutput();
                     const QString text = QString::fromUtf8(out);
                     return failedLine.match(text).hasMatch() && failingLine.match(text).hasMatch()
                         && recoveredLine.match(text).hasMatch();
                 },
                 10000),
             out.constData());
    QCOMPARE(::kill(pid_t(ctl.processId()), SIGINT), 0);
    QVERIFY(QTest::qWaitFor([&ctl] { return ctl.state() == QProcess::NotRunning; }, 5000));
    QCOMPARE(ctl.exitCode(), 0);
    QCOMPARE(daemon.terminate(), 0);
}

// `pepsi-ctl status` shows each stage's failed and timed-out rows (not only
// the failures since the daemon started) and how old its counts are.
void tst_FailureEvents::ctlStatusShowsTheFailedBacklog()
{
    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"deliver"_s, DaemonProcess::fakeWorker(), {{u"PARALLELISM"_s, u"2"_s}});
    QVERIFY(startReady(daemon));
    QCOMPARE(m_queue->insert(u"deliver"_s, 7, {{u"deliver"_s, u"fail:3"_s}}).size(), 7);
    QTRY_COMPARE(m_queue->count(u"status = 'failed'"_s), 7);
    // A failed backlog from before this daemon: 5 rows failed earlier, 2 timed out.
    QVERIFY(m_queue->scalar(u"WITH s AS (INSERT INTO workqueue (stage, status, state) SELECT 'deliver', "
                            "'failed', '{\"dispatch_error\": \"status 3: old\"}' FROM generate_series(1, 5) "
                            "RETURNING 1) SELECT count(*) FROM s"_s)
            == 5);
    QVERIFY(m_queue->scalar(u"WITH s AS (INSERT INTO workqueue (stage, status) SELECT 'deliver', 'timeout' "
                            "FROM generate_series(1, 2) RETURNING 1) SELECT count(*) FROM s"_s)
            == 2);

    // The counts may be some seconds old: the next status counts anew.
    const QRegularExpression row(u"^deliver +\\d+/2 +\\d+/8 +0 +- +12 +2 +[\\d.]+ +[\\d.]+ +7 +-$"_s,
                                 QRegularExpression::MultilineOption);
    const QRegularExpression age(u"^queue counts (\\d+ms|[\\d.]+s) old \\(counted at \\d{4}-\\d\\d-\\d\\d "
                                 "\\d\\d:\\d\\d:\\d\\d\\)$"_s,
                                 QRegularExpression::MultilineOption);
    CtlRun run;
    QTRY_VERIFY2_WITH_TIMEOUT(
        (run = runCtl({u"--socket"_s, daemon.controlSocket(), u"status"_s}), row.match(run.out).hasMatch()),
        qPrintable(run.describe() + u"\n"_s + run.out), 15000);
    QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
    QVERIFY2(age.match(run.out).hasMatch(), qPrintable(run.out));
    QCOMPARE(daemon.terminate(), 0);
}

// `pepsi-ctl top` into a pipe: frame after frame, each with the status table
// and the failures per stage, until SIGINT ends it with exit 0.
void tst_FailureEvents::ctlTopRefreshesUntilInterrupted()
{
    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"deliver"_s, DaemonProcess::fakeWorker());
    QVERIFY(startReady(daemon));
    QCOMPARE(m_queue->insert(u"deliver"_s, 3, {{u"deliver"_s, u"fail:3"_s}}).size(), 3);
    QTRY_COMPARE(m_queue->count(u"status = 'failed'"_s), 3);

    QProcess top;
    top.start(ctlBinary(), {u"--socket"_s, daemon.controlSocket(), u"top"_s, u"--interval"_s, u"0.2"_s});
    QVERIFY(top.waitForStarted());
    QByteArray out;
    QVERIFY2(QTest::qWaitFor([&] { return (out += top.readAllStandardOutput()).count("pepsi-ctl top: ") >= 2; }, 10000),
             qPrintable(QString::fromUtf8(out + top.readAllStandardError())));
    const QString text = QString::fromUtf8(out);
    // Not a terminal: no escape sequences, and Ctrl-C is the way out.
    QVERIFY2(!text.contains(u'\x1b'), qPrintable(text));
    QVERIFY2(text.contains(u"(Ctrl-C quits)"_s), qPrintable(text));
    const QRegularExpression statusRow(u"^deliver +\\d+/4 +\\d+/16 +0 +- +3 +0 "_s,
                                       QRegularExpression::MultilineOption);
    const QRegularExpression failureRow(u"^deliver +3 +3 +0 +0 +3 +\\d+ %$"_s, QRegularExpression::MultilineOption);
    QVERIFY2(statusRow.match(text).hasMatch() && failureRow.match(text).hasMatch(), qPrintable(text));
    QCOMPARE(::kill(pid_t(top.processId()), SIGINT), 0);
    QVERIFY(QTest::qWaitFor([&top] { return top.state() == QProcess::NotRunning; }, 5000));
    QCOMPARE(top.exitStatus(), QProcess::NormalExit);
    QCOMPARE(top.exitCode(), 0);
    QCOMPARE(top.readAllStandardError(), QByteArray());
    QCOMPARE(daemon.terminate(), 0);
}

QTEST_GUILESS_MAIN(tst_FailureEvents)
#include "tst_failureevents.moc"
