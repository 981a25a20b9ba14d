// SPDX-License-Identifier: AGPL-3.0-or-later
// What an operator's tools make of a real pepsi-dispatch's control socket, as
// documented: the socat one-liner and doc/examples/pepsi-rates.py while
// messages flow, and the metrics and the alert rules of doc/operations.rst
// through `promtool check`.
#include "controlchecks.h"
#include "controltestclient.h"
#include "daemonprocess.h"
#include "daemontest.h"

#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>

#include <algorithm>
#include <memory>

using namespace Qt::StringLiterals;

class tst_ControlScripts : public DaemonTest
{
    Q_OBJECT

private Q_SLOTS:
    void documentedScripts();
    void metricsPassPromtool();
};

// The socat one-liner and doc/examples/pepsi-rates.py, as documented.
void tst_ControlScripts::documentedScripts()
{
    if (QStandardPaths::findExecutable(u"socat"_s).isEmpty() || QStandardPaths::findExecutable(u"python3"_s).isEmpty())
        QSKIP("needs socat and python3 (scripts/deps installs them)");
    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"a"_s, DaemonProcess::fakeWorker(), {{u"NEXT"_s, u"b"_s}});
    daemon.addStage(u"b"_s, DaemonProcess::fakeWorker());
    QVERIFY(startReady(daemon));
    QueueProbe probe(m_db->db());
    QVERIFY(!probe.insert(u"a"_s, 4000, {{u"a"_s, u"slow:1"_s}}).isEmpty());

    // doc/control-protocol.rst, "Scripting", with this daemon's socket.
    QProcess socat;
    socat.start(u"sh"_s, {u"-c"_s, u"echo '{\"cmd\":\"status\"}' | socat - UNIX-CONNECT:"_s + daemon.controlSocket()});
    QTRY_VERIFY_WITH_TIMEOUT(socat.state() == QProcess::NotRunning, 10000);
    QCOMPARE(socat.exitCode(), 0);
    const QByteArray output = socat.readAllStandardOutput();
    const QJsonObject status = QJsonDocument::fromJson(output).object();
    QVERIFY2(status.value(u"ok"_s).toBool(), output.left(500).constData());
    QCOMPARE(keysOf(status.value(u"result"_s)[u"stages"_s]), QStringList({u"a"_s, u"b"_s}));

    QProcess rates;
    rates.start(u"python3"_s,
                {QStringLiteral(PEPSI_SOURCE_DIR) + u"/doc/examples/pepsi-rates.py"_s, u"--socket"_s,
                 daemon.controlSocket(), u"--ticks"_s, u"4"_s});
    // Not waitForFinished(): the daemon under test must be able to write its
    // log to us meanwhile, or it blocks on a full pipe.
    QTRY_VERIFY_WITH_TIMEOUT(rates.state() == QProcess::NotRunning, 20000);
    QCOMPARE(rates.exitCode(), 0);
    const QStringList lines = QString::fromUtf8(rates.readAllStandardOutput()).split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 4);
    const QRegularExpression shape(
        uR"(^\d\d:\d\d:\d\d  a ([\d.]+)/s busy \d+ in flight \d+  b ([\d.]+)/s busy \d+ in flight \d+  \(claimed \d+, completed \d+\)$)"_s);
    double highest = 0;
    for (const QString &line : lines) {
        const auto match = shape.match(line);
        QVERIFY2(match.hasMatch(), qPrintable(line));
        highest = std::max(highest, match.captured(1).toDouble());
    }
    qInfo("pepsi-rates.py: %s", qPrintable(lines.last()));
    QVERIFY2(highest > 0, "no rate above zero while messages flowed");

    // Its errors are clear.
    QProcess missing;
    missing.start(u"python3"_s,
                  {QStringLiteral(PEPSI_SOURCE_DIR) + u"/doc/examples/pepsi-rates.py"_s, u"--socket"_s,
                   daemon.controlSocket() + u".missing"_s});
    QTRY_VERIFY_WITH_TIMEOUT(missing.state() == QProcess::NotRunning, 10000);
    QCOMPARE(missing.exitCode(), 1);
    QVERIFY(missing.readAllStandardError().startsWith("pepsi-rates: cannot connect to "));
    QCOMPARE(daemon.terminate(), 0);
}

// The real daemon's metrics pass `promtool check metrics`, and the alert
// rules of doc/operations.rst pass `promtool check rules`. CI must have
// promtool (scripts/deps installs Debian's prometheus); elsewhere it may skip.
void tst_ControlScripts::metricsPassPromtool()
{
    const QString promtool = QStandardPaths::findExecutable(u"promtool"_s);
    if (promtool.isEmpty()) {
        if (qEnvironmentVariable("CI") == u"true"_s)
            QFAIL("promtool is missing (Debian package prometheus; scripts/deps installs it)");
        QSKIP("needs promtool (Debian package prometheus)");
    }
    DaemonProcess daemon(m_db->uri());
    ControlTestClient client;
    QVERIFY(startTwoStages(daemon, client));
    QVERIFY(client.request(R"({"cmd":"drain","stage":"b"})"_ba).value(u"ok"_s).toBool());
    QueueProbe probe(m_db->db());
    QVERIFY(!probe.insert(u"a"_s, 200).isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(
        client.request(R"({"cmd":"queues"})"_ba)[u"result"_s][u"stages"_s][u"b"_s][u"pending"_s].toInt(), 200, 30000);

    // a's runs are counted as its workers answer, just after the rows move on to b
    QString text;
    QTRY_VERIFY_WITH_TIMEOUT((text = client.request(R"({"cmd":"metrics"})"_ba)[u"result"_s][u"text"_s].toString(),
                              text.split(u'\n').contains(u"pepsi_dispatch_runs_total{stage=\"a\"} 200"_s)),
                             10000);
    for (const QString &line :
         {u"pepsi_dispatch_up 1"_s, u"pepsi_dispatch_drained{stage=\"b\"} 1"_s,
          u"pepsi_dispatch_queue_messages{stage=\"b\",status=\"pending\"} 200"_s,
          u"pepsi_dispatch_runs_total{stage=\"a\"} 200"_s, u"pepsi_dispatch_runs_total{stage=\"b\"} 0"_s,
          u"pepsi_dispatch_stage_failing{stage=\"a\"} 0"_s, u"pepsi_dispatch_stage_failure_share{stage=\"b\"} 0"_s})
        QVERIFY2(text.split(u'\n').contains(line), qPrintable(line + u"\n--- not in ---\n"_s + text));

    QProcess check;
    check.start(promtool, {u"check"_s, u"metrics"_s});
    QVERIFY(check.waitForStarted());
    check.write(text.toUtf8());
    check.closeWriteChannel();
    QTRY_VERIFY_WITH_TIMEOUT(check.state() == QProcess::NotRunning, 20000);
    const QByteArray said = check.readAllStandardOutput() + check.readAllStandardError();
    QVERIFY2(check.exitCode() == 0 && said.trimmed().isEmpty(), said.constData());

    QProcess rules;
    rules.start(
        promtool,
        {u"check"_s, u"rules"_s, QStringLiteral(PEPSI_SOURCE_DIR) + u"/doc/examples/pepsi-dispatch.rules.yml"_s});
    QTRY_VERIFY_WITH_TIMEOUT(rules.state() == QProcess::NotRunning, 20000);
    QVERIFY2(rules.exitCode() == 0,
             QByteArray(rules.readAllStandardOutput() + rules.readAllStandardError()).constData());
    QCOMPARE(daemon.terminate(), 0);
}

QTEST_GUILESS_MAIN(tst_ControlScripts)
#include "tst_controlscripts.moc"
