// SPDX-License-Identifier: AGPL-3.0-or-later
// FailureWatch alone, on a clock the test moves: when a stage is failing and
// when it has recovered (the shares, the thresholds, the window), and how
// message_failed is coalesced (at once, then at most once a Spacing).
#include "core/failurewatch.h"

#include <QSignalSpy>
#include <QTest>

using namespace pepsi;
using namespace Qt::StringLiterals;

namespace {

// One run from a script character: o succeeded, f failed, T timed out,
// c crashed holding a message, n crashed holding none, t tried later (75).
RunReport run(QChar kind, const QString &stage, const QString &reason)
{
    RunReport report;
    report.stage = stage;
    switch (kind.unicode()) {
    case 'o':
        report.result = RunReport::Result::Succeeded;
        break;
    case 'f':
        report.result = RunReport::Result::Failed;
        break;
    case 'T':
        report.result = RunReport::Result::TimedOut;
        break;
    case 'c':
        report.result = RunReport::Result::Crashed;
        break;
    case 'n':
        report.result = RunReport::Result::Crashed;
        report.heldMessage = false;
        break;
    case 't':
        report.result = RunReport::Result::TriedLater;
        break;
    default:
        qFatal("unknown run kind");
    }
    if (report.result != RunReport::Result::Succeeded && report.heldMessage)
        report.reason = reason;
    return report;
}

} // namespace

class TestFailureWatch : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void failingAndRecovered_data();
    void failingAndRecovered();
    void messageFailedIsCoalesced_data();
    void messageFailedIsCoalesced();
    void theSpacingTimerReportsTheRest();
};

void TestFailureWatch::failingAndRecovered_data()
{
    QTest::addColumn<QString>("script"); // runs (see run()); '>' moves the clock a second on
    QTest::addColumn<QStringList>("events");
    QTest::addColumn<double>("share");
    QTest::addColumn<bool>("failing");

    const QString ten = u"ffffffffff"_s;
    QTest::newRow("9 failures: too few runs") << u"fffffffff"_s << QStringList{} << 1.0 << false;
    QTest::newRow("10 failures: failing") << ten << QStringList{u"failing@10 1"_s} << 1.0 << true;
    QTest::newRow("half of 10: failing") << u"ofofofofof"_s << QStringList{u"failing@10 0.5"_s} << 0.5 << true;
    QTest::newRow("4 of 10: not failing") << u"ooooooffff"_s << QStringList{} << 0.4 << false;
    QTest::newRow("5 of 11: not yet, the 6th of 12 is")
        << u"oooooofffff"_s + u"f"_s << QStringList{u"failing@12 0.5"_s} << 0.5 << true;
    QTest::newRow("timeouts and crashes fail") << u"TTTTTccccc"_s << QStringList{u"failing@10 1"_s} << 1.0 << true;
    QTest::newRow("tries later count neither way") << u"tttttttttttffff"_s << QStringList{} << 1.0 << false;
    QTest::newRow("a crash holding nothing counts neither way")
        << u"nnnnnnnnnnfffff"_s << QStringList{} << 1.0 << false;
    QTest::newRow("recovered under a tenth")
        << ten + QString(91, u'o') << QStringList{u"failing@10 1"_s, u"recovered@101 0.0990099"_s} << 10.0 / 101
        << false;
    QTest::newRow("a tenth exactly is not recovered")
        << ten + QString(90, u'o') << QStringList{u"failing@10 1"_s} << 0.1 << true;
    QTest::newRow("between the thresholds it stays failing")
        << ten + QString(30, u'o') << QStringList{u"failing@10 1"_s} << 0.25 << true;
    QTest::newRow("failures spread over the window count")
        << u"f>f>f>f>f>f>f>f>f>f"_s << QStringList{u"failing@10 1"_s} << 1.0 << true;
    QTest::newRow("a failure 10 s old has left the window")
        << u"f>>>>>>>>>>fffffffff"_s << QStringList{} << 1.0 << false;
    QTest::newRow("old failures leave, new successes recover")
        << ten + u">>>>>>>>>>"_s + QString(10, u'o') << QStringList{u"failing@10 1"_s, u"recovered@20 0"_s} << 0.0
        << false;
    QTest::newRow("idle: it stays as it was last seen")
        << ten + u">>>>>>>>>>>>"_s << QStringList{u"failing@10 1"_s} << 0.0 << true;
    QTest::newRow("failing again after recovering")
        << ten + u">>>>>>>>>>"_s + QString(10, u'o') + u">>>>>>>>>>"_s + ten
        << QStringList{u"failing@10 1"_s, u"recovered@20 0"_s, u"failing@30 1"_s} << 1.0 << true;
}

void TestFailureWatch::failingAndRecovered()
{
    QFETCH(QString, script);
    QFETCH(QStringList, events);
    QFETCH(double, share);
    QFETCH(bool, failing);

    // GIVEN a watch on a clock at 10 s
    qint64 nowMs = 10'000;
    FailureWatch watch(nullptr, [&nowMs] { return nowMs; });
    QStringList seen;
    int runs = 0;
    connect(&watch, &FailureWatch::stageFailing, this, [&](const QString &stage, double s) {
        QCOMPARE(stage, u"s"_s);
        seen << u"failing@%1 %2"_s.arg(runs).arg(s);
    });
    connect(&watch, &FailureWatch::stageRecovered, this, [&](const QString &stage, double s) {
        QCOMPARE(stage, u"s"_s);
        seen << u"recovered@%1 %2"_s.arg(runs).arg(s);
    });
    // WHEN the runs of the script end
    for (const QChar kind : std::as_const(script)) {
        if (kind == u'>') {
            nowMs += 1000;
            continue;
        }
        ++runs;
        watch.record(run(kind, u"s"_s, u"status 3: bad"_s));
    }
    // THEN the stage's state changed as listed, and is now as expected
    QCOMPARE(seen, events);
    QCOMPARE(watch.failureShare(u"s"_s), share);
    QCOMPARE(watch.isFailing(u"s"_s), failing);
    QCOMPARE(watch.isFailing(u"other"_s), false);
    QCOMPARE(watch.failureShare(u"other"_s), 0.0);
}

void TestFailureWatch::messageFailedIsCoalesced_data()
{
    // runs at stage s (f, o, t: see run()) or, upper case, at stage g; '|'
    // the spacing timer fires. Every run's reason is "r<N>", N counting runs.
    QTest::addColumn<QString>("script");
    QTest::addColumn<QStringList>("reports"); // "stage count reason"

    QTest::newRow("the first failure at once") << u"f"_s << QStringList{u"s 1 r1"_s};
    QTest::newRow("the next ones wait for the spacing") << u"fff"_s << QStringList{u"s 1 r1"_s};
    QTest::newRow("then come counted, with the latest reason") << u"fff|"_s << QStringList{u"s 1 r1"_s, u"s 2 r3"_s};
    QTest::newRow("a spacing without failures ends the spacing") << u"f||f"_s << QStringList{u"s 1 r1"_s, u"s 1 r2"_s};
    QTest::newRow("a spacing with failures starts another")
        << u"ff|f|f"_s << QStringList{u"s 1 r1"_s, u"s 1 r2"_s, u"s 1 r3"_s};
    QTest::newRow("successes and tries later are not failures") << u"oot|"_s << QStringList{};
    QTest::newRow("the reason is the latest failure's") << u"ffof|"_s << QStringList{u"s 1 r1"_s, u"s 2 r4"_s};
    QTest::newRow("each stage its own count and reason")
        << u"fFfF|"_s << QStringList{u"s 1 r1"_s, u"g 2 r4"_s, u"s 1 r3"_s};
}

void TestFailureWatch::messageFailedIsCoalesced()
{
    QFETCH(QString, script);
    QFETCH(QStringList, reports);

    qint64 nowMs = 0;
    FailureWatch watch(nullptr, [&nowMs] { return nowMs; });
    QStringList seen;
    connect(&watch, &FailureWatch::messagesFailed, this,
            [&](const QString &stage, qint64 count, const QString &reason) {
                seen << u"%1 %2 %3"_s.arg(stage).arg(count).arg(reason);
            });
    int runs = 0;
    for (const QChar kind : std::as_const(script)) {
        if (kind == u'|') {
            watch.reportFailures();
            continue;
        }
        ++runs;
        const bool other = kind.isUpper();
        watch.record(run(other ? kind.toLower() : kind, other ? u"g"_s : u"s"_s, u"r%1"_s.arg(runs)));
    }
    QCOMPARE(seen, reports);
}

void TestFailureWatch::theSpacingTimerReportsTheRest()
{
    // GIVEN a watch that reported a failure at once
    FailureWatch watch;
    QSignalSpy reports(&watch, &FailureWatch::messagesFailed);
    watch.record(run(u'f', u"s"_s, u"r1"_s));
    QCOMPARE(reports.size(), 1);
    // WHEN two more fail within the spacing
    watch.record(run(u'f', u"s"_s, u"r2"_s));
    watch.record(run(u'f', u"s"_s, u"r3"_s));
    QCOMPARE(reports.size(), 1);
    // THEN its timer reports them, once the spacing is over
    QElapsedTimer waited;
    waited.start();
    QTRY_COMPARE(reports.size(), 2);
    QVERIFY(waited.elapsed() >= FailureWatch::Spacing.count() - 100);
    QCOMPARE(reports.at(1).at(1).toLongLong(), 2);
    QCOMPARE(reports.at(1).at(2).toString(), u"r3"_s);
}

QTEST_GUILESS_MAIN(TestFailureWatch)
#include "tst_failurewatch.moc"
