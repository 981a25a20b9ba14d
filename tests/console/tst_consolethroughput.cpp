// SPDX-License-Identifier: AGPL-3.0-or-later
// The console's throughput over time: ten minutes of each stage's rate from
// the ticks, and which share of a stage's runs failed between two snapshots
// (the failing stage the views warn of), also across a daemon's restart.
#include "modeltestdata.h"
#include "throughputmodel.h"

#include <QLocale>
#include <QSignalSpy>
#include <QTest>

using namespace pepsi;
using namespace pepsi::console;
using namespace Qt::StringLiterals;

namespace {

// A tick through the wire, as ConsoleFeed hands it on: its stages' 10-second rates.
void applyTick(ThroughputModel &model, const QMap<QString, double> &rates, const QDateTime &time = {})
{
    TickSnapshot tick;
    for (auto it = rates.cbegin(); it != rates.cend(); ++it)
        tick.stages[it.key()].rate10s = it.value();
    model.applyTick(viaWire(tick), time);
}

} // namespace

class TestConsoleThroughput : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void throughputHistory();
    void throughputFailures();
};

void TestConsoleThroughput::throughputHistory()
{
    ThroughputModel model;
    model.applyStatus(twoStages());
    // One snapshot cannot say which share of the ticks' rate failed: no samples yet.
    applyTick(model, {{u"enrich"_s, 5.0}});
    QVERIFY(model.history(u"enrich"_s).isEmpty());
    model.applyStatus(twoStages());
    model.flush();
    QCOMPARE(cellOf(model, u"enrich"_s, ThroughputModel::Runs, KeyedTableModel::SortRole).toLongLong(), qint64(52011));
    QCOMPARE(cellOf(model, u"enrich"_s, ThroughputModel::Runs).toString(), QLocale().toString(52011));
    QSignalSpy history(&model, &ThroughputModel::historyChanged);

    const QDateTime t0 = QDateTime::fromString(u"2026-12-02T19:00:00.000Z"_s, Qt::ISODateWithMs);
    for (int i = 0; i < 700; ++i) {
        applyTick(model, {{u"enrich"_s, double(i)}}, t0.addSecs(i));
    }
    QCOMPARE(history.count(), 700);
    const auto samples = model.history(u"enrich"_s);
    // Ten minutes are kept, the oldest first.
    QCOMPARE(samples.size(), ThroughputModel::HistorySeconds + 1);
    QCOMPARE(samples.last().rate, 699.0);
    QCOMPARE(samples.first().time, t0.addSecs(699 - ThroughputModel::HistorySeconds));
    model.flush();
    QCOMPARE(cellOf(model, u"enrich"_s, ThroughputModel::Rate10s, KeyedTableModel::SortRole).toDouble(), 699.0);
    QCOMPARE(model.historyStages(), QStringList{u"enrich"_s});
}

void TestConsoleThroughput::throughputFailures()
{
    // Two snapshots 5 s apart: deliver failed 500 of its 510 runs, enrich none of its 1000.
    const auto status = [](const char *time, qint64 enrichRuns, qint64 deliverRuns, qint64 deliverFailed) {
        StatusSnapshot snapshot;
        snapshot.time = QDateTime::fromString(QString::fromLatin1(time), Qt::ISODateWithMs);
        snapshot.pools = {pool(u"deliver"_s, 1, 1, 1, 1, 4), pool(u"enrich"_s, 1, 1, 1, 1, 4)};
        snapshot.stats.stages[u"enrich"_s].runs = enrichRuns;
        StageStatsSnapshot &deliver = snapshot.stats.stages[u"deliver"_s];
        deliver.runs = deliverRuns;
        deliver.rate10s = 102.0;
        deliver.failures = deliverFailed - 20;
        deliver.timeouts = 10;
        deliver.crashes = 10;
        return viaWire(snapshot);
    };
    ThroughputModel model;
    model.applyStatus(status("2026-12-02T19:00:00.000Z", 1000, 100, 20));
    QCOMPARE(model.failureRate(u"deliver"_s), 0.0); // one snapshot: no share yet
    model.applyStatus(status("2026-12-02T19:00:05.000Z", 2000, 610, 520));
    QCOMPARE(model.failureRate(u"deliver"_s), 100.0); // that share of the 10-second rate
    QCOMPARE(model.failureShare(u"deliver"_s), 500.0 / 510.0);
    QVERIFY(model.isFailing(u"deliver"_s));
    QCOMPARE(model.failureRate(u"enrich"_s), 0.0);
    QVERIFY(!model.isFailing(u"enrich"_s));
    QCOMPARE(model.failedTotal(), qint64(520));
    model.flush();
    QVERIFY(cellOf(model, u"deliver"_s, 0, KeyedTableModel::HighlightRole).toBool());

    // A tick's rate counts the failed runs too: the history keeps them apart.
    applyTick(model, {{u"deliver"_s, 102.0}, {u"enrich"_s, 200.0}},
              QDateTime::fromString(u"2026-12-02T19:00:06.000Z"_s, Qt::ISODateWithMs));
    QCOMPARE(model.history(u"deliver"_s).last().rate, 2.0);
    QCOMPARE(model.history(u"deliver"_s).last().failed, 100.0);
    QCOMPARE(model.history(u"enrich"_s).last().rate, 200.0);
    QCOMPARE(model.history(u"enrich"_s).last().failed, 0.0);

    // 20 s later the window holds the newest snapshots only: deliver is well again.
    model.applyStatus(status("2026-12-02T19:00:20.000Z", 3000, 1610, 520));
    model.applyStatus(status("2026-12-02T19:00:25.000Z", 4000, 2610, 520));
    QCOMPARE(model.failureRate(u"deliver"_s), 0.0);
    QVERIFY(!model.isFailing(u"deliver"_s));

    // A restarted daemon counts from zero: no negative rates, no false alarm.
    model.applyStatus(status("2026-12-02T19:00:30.000Z", 10, 10, 20));
    QCOMPARE(model.failureRate(u"deliver"_s), 0.0);
}

QTEST_MAIN(TestConsoleThroughput)
#include "tst_consolethroughput.moc"
