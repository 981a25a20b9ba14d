// SPDX-License-Identifier: AGPL-3.0-or-later
// Statistics: what each kind of run adds, fused runs attributed to the fused
// stage, deltas taken and given back.
#include "core/statistics.h"

#include <QTest>

using namespace pepsi;

namespace {

StageGraph threeStages()
{
    const auto config = Configuration::parse("[stage-a]\nPROGRAM = p\nNEXT = b\n"
                                             "[stage-b]\nPROGRAM = p\nNEXT = c\nFUSE = YES\n"
                                             "[stage-c]\nPROGRAM = p\nFUSE = YES\n",
                                             QStringLiteral("t.conf"));
    return StageGraph::fromConfiguration(config.value()).value();
}

RunReport run(const char *stage, RunReport::Result result, qint64 busy, QList<FusedRun> fused = {}, bool held = true)
{
    return RunReport{QString::fromLatin1(stage), result, held, busy, std::move(fused), {}};
}

} // namespace

Q_DECLARE_METATYPE(pepsi::RunReport)
Q_DECLARE_METATYPE(pepsi::StageCounters)

class TestStatistics : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void perResult_data();
    void perResult();
    void fusedRunsBelongToTheFusedStage();
    void deltaIsTakenOnceAndGivenBack();
    void failuresInARowEndAtASuccess();
};

void TestStatistics::failuresInARowEndAtASuccess()
{
    using R = RunReport::Result;
    Statistics stats;
    stats.setGraph(threeStages());
    stats.record(run("a", R::Failed, 1));
    stats.record(run("a", R::TimedOut, 1));
    stats.record(run("a", R::Crashed, 1));
    stats.record(run("a", R::Crashed, 1, {}, false)); // held nothing: no message failed
    stats.record(run("a", R::TriedLater, 1));         // neither way
    QCOMPARE(stats.failedInARow(QStringLiteral("a")), 3);
    QCOMPARE(stats.failedInARow(QStringLiteral("b")), 0);
    stats.record(run("b", R::Failed, 1));
    // A success of a that ran b fused ends both streaks.
    stats.record(run("a", R::Succeeded, 5, {{QStringLiteral("b"), 2}}));
    QCOMPARE(stats.failedInARow(QStringLiteral("a")), 0);
    QCOMPARE(stats.failedInARow(QStringLiteral("b")), 0);
    stats.record(run("a", R::Failed, 1));
    QCOMPARE(stats.failedInARow(QStringLiteral("a")), 1);
}

void TestStatistics::perResult_data()
{
    QTest::addColumn<RunReport>("report");
    QTest::addColumn<StageCounters>("expected");
    QTest::addColumn<qint64>("messages");

    using R = RunReport::Result;
    QTest::newRow("success mid-pipeline") << run("a", R::Succeeded, 70) << StageCounters{1, 0, 0, 0, 70} << 0LL;
    QTest::newRow("success at the terminal stage") << run("c", R::Succeeded, 5) << StageCounters{1, 0, 0, 0, 5} << 1LL;
    QTest::newRow("failure") << run("a", R::Failed, 9) << StageCounters{1, 1, 0, 0, 9} << 1LL;
    QTest::newRow("try later") << run("a", R::TriedLater, 3) << StageCounters{1, 0, 0, 0, 3} << 0LL;
    QTest::newRow("timeout") << run("b", R::TimedOut, 300) << StageCounters{1, 0, 1, 0, 300} << 1LL;
    QTest::newRow("crash holding a message") << run("a", R::Crashed, 0) << StageCounters{1, 0, 0, 1, 0} << 1LL;
    QTest::newRow("crash holding nothing") << run("a", R::Crashed, 0, {}, false) << StageCounters{0, 0, 0, 1, 0} << 0LL;
}

void TestStatistics::perResult()
{
    QFETCH(RunReport, report);
    QFETCH(StageCounters, expected);
    QFETCH(qint64, messages);

    Statistics stats;
    stats.setGraph(threeStages());
    stats.record(report);
    const StatsDelta delta = stats.takeDelta();
    QCOMPARE(delta.stages.value(report.stage), expected);
    QCOMPARE(delta.stageRuns, expected.runs);
    QCOMPARE(delta.messages, messages);
}

void TestStatistics::fusedRunsBelongToTheFusedStage()
{
    // GIVEN a worker of stage a that also ran b and c in the same pass
    Statistics stats;
    stats.setGraph(threeStages());
    // WHEN it reports 0 +b:120 +c:80 after 500 µs in all
    stats.record(run("a", RunReport::Result::Succeeded, 500, {{QStringLiteral("b"), 120}, {QStringLiteral("c"), 80}}));
    // THEN each stage has its own run and time, and the message left the pipeline at c
    const StatsDelta delta = stats.takeDelta();
    QCOMPARE(delta.stages.value(QStringLiteral("a")), (StageCounters{1, 0, 0, 0, 300}));
    QCOMPARE(delta.stages.value(QStringLiteral("b")), (StageCounters{1, 0, 0, 0, 120}));
    QCOMPARE(delta.stages.value(QStringLiteral("c")), (StageCounters{1, 0, 0, 0, 80}));
    QCOMPARE(delta.stageRuns, 3);
    QCOMPARE(delta.messages, 1);
}

void TestStatistics::deltaIsTakenOnceAndGivenBack()
{
    Statistics stats;
    stats.setGraph(threeStages());
    QVERIFY(!stats.hasDelta());
    stats.record(run("a", RunReport::Result::Failed, 10));
    QVERIFY(stats.hasDelta());
    const StatsDelta first = stats.takeDelta();
    QVERIFY(!stats.hasDelta());
    // A failed flush gives its numbers back; they add up with what came since.
    stats.record(run("a", RunReport::Result::Succeeded, 5));
    stats.giveBack(first);
    const StatsDelta second = stats.takeDelta();
    QCOMPARE(second.stages.value(QStringLiteral("a")), (StageCounters{2, 1, 0, 0, 15}));
    QCOMPARE(second.messages, 1);
    QCOMPARE(stats.totals().stages.value(QStringLiteral("a")), (StageCounters{2, 1, 0, 0, 15}));
}

QTEST_APPLESS_MAIN(TestStatistics)
#include "tst_statistics.moc"
