// SPDX-License-Identifier: AGPL-3.0-or-later
// The console's throughput over time: ten minutes of each stage's rate from
// the ticks, split by the daemon's failure share, and the daemon's verdict on
// a failing stage (which the views warn of), shown as sent, never recomputed.
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
    void olderDaemon();
};

void TestConsoleThroughput::throughputHistory()
{
    ThroughputModel model;
    // Before a snapshot brought the stage, nothing says which share of the
    // ticks' rate failed: no samples yet.
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
    // The daemon's verdict and share, as its encoder sends them: deliver is
    // failing, enrich failed some runs and is not (below the daemon's
    // threshold, or recovering: not ours to say).
    const auto status = [](double deliverShare, bool deliverFailing, double enrichShare) {
        StatusSnapshot snapshot;
        snapshot.pools = {pool(u"deliver"_s, 1, 1, 1, 1, 4), pool(u"enrich"_s, 1, 1, 1, 1, 4)};
        StageStatsSnapshot &enrich = snapshot.stats.stages[u"enrich"_s];
        enrich.runs = 1000;
        enrich.failures = 300;
        enrich.rate10s = 200.0;
        enrich.failureShare = enrichShare;
        StageStatsSnapshot &deliver = snapshot.stats.stages[u"deliver"_s];
        deliver.runs = 610;
        deliver.rate10s = 102.0;
        deliver.failures = 500;
        deliver.timeouts = 10;
        deliver.crashes = 10;
        deliver.failureShare = deliverShare;
        deliver.failing = deliverFailing;
        return viaWire(snapshot);
    };
    ThroughputModel model;
    model.applyStatus(status(0.5, true, 0.3));
    QCOMPARE(model.failureShare(u"deliver"_s), 0.5);
    QCOMPARE(model.failureRate(u"deliver"_s), 51.0); // that share of the 10-second rate
    QVERIFY(model.isFailing(u"deliver"_s));
    QCOMPARE(model.failureShare(u"enrich"_s), 0.3);
    QCOMPARE(model.failureRate(u"enrich"_s), 60.0);
    QVERIFY(!model.isFailing(u"enrich"_s));
    QCOMPARE(model.failedTotal(), qint64(820));
    model.flush();
    QVERIFY(cellOf(model, u"deliver"_s, 0, KeyedTableModel::HighlightRole).toBool());
    QVERIFY(!cellOf(model, u"enrich"_s, 0, KeyedTableModel::HighlightRole).toBool());
    QCOMPARE(cellOf(model, u"deliver"_s, ThroughputModel::FailRate, KeyedTableModel::SortRole).toDouble(), 51.0);

    // A tick's rate counts the failed runs too: the history keeps them apart.
    applyTick(model, {{u"deliver"_s, 100.0}, {u"enrich"_s, 200.0}},
              QDateTime::fromString(u"2026-12-02T19:00:06.000Z"_s, Qt::ISODateWithMs));
    QCOMPARE(model.history(u"deliver"_s).last().rate, 50.0);
    QCOMPARE(model.history(u"deliver"_s).last().failed, 50.0);
    QCOMPARE(model.history(u"enrich"_s).last().rate, 140.0);
    QCOMPARE(model.history(u"enrich"_s).last().failed, 60.0);

    // A failing stage whose share fell stays failing until the daemon says it
    // recovered, and is well the moment it does, whatever its share.
    model.applyStatus(status(0.2, true, 0.3));
    QVERIFY(model.isFailing(u"deliver"_s));
    QCOMPARE(model.failureShare(u"deliver"_s), 0.2);
    model.applyStatus(status(0.05, false, 0.3));
    QVERIFY(!model.isFailing(u"deliver"_s));
    QCOMPARE(model.failureShare(u"deliver"_s), 0.05);
}

void TestConsoleThroughput::olderDaemon()
{
    // A daemon from before the failure share sends neither field: share 0, not failing.
    StatusSnapshot snapshot;
    snapshot.pools = {pool(u"deliver"_s, 1, 1, 1, 1, 4)};
    StageStatsSnapshot &deliver = snapshot.stats.stages[u"deliver"_s];
    deliver.runs = 100;
    deliver.failures = 100;
    deliver.rate10s = 10.0;
    deliver.failureShare = 1.0;
    deliver.failing = true;
    QJsonObject json = protocol::toJson(snapshot);
    QJsonObject stages = json.value(protocol::field::Stages).toObject();
    QJsonObject stage = stages.value(u"deliver"_s).toObject();
    QJsonObject stats = stage.value(protocol::field::Stats).toObject();
    QVERIFY(stats.contains(protocol::field::FailureShare) && stats.contains(protocol::field::Failing));
    stats.remove(protocol::field::FailureShare);
    stats.remove(protocol::field::Failing);
    stage.insert(protocol::field::Stats, stats);
    stages.insert(u"deliver"_s, stage);
    json.insert(protocol::field::Stages, stages);

    ThroughputModel model;
    model.applyStatus(protocol::statusFromJson(wire(json)));
    QCOMPARE(model.failureShare(u"deliver"_s), 0.0);
    QCOMPARE(model.failureRate(u"deliver"_s), 0.0);
    QVERIFY(!model.isFailing(u"deliver"_s));
    QCOMPARE(model.failedTotal(), qint64(100));
}

QTEST_MAIN(TestConsoleThroughput)
#include "tst_consolethroughput.moc"
