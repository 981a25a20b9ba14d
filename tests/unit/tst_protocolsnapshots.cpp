// SPDX-License-Identifier: AGPL-3.0-or-later
// The snapshot values of the control protocol (common/control/snapshots.h)
// through their JSON and back, and the shapes doc/control-protocol.rst fixes
// (the messages and message replies: tst_protocolmessages).
#include "control/protocol.h"
#include "control/snapshotcodec.h"
#include "samplesnapshots.h"
#include "snapshotwire.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace pepsi;
using namespace pepsi::protocol;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(pepsi::PoolSnapshot)
Q_DECLARE_METATYPE(pepsi::StageQueue)

class TestProtocolSnapshots : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void pool_data();
    void pool();
    void worker();
    void workerWithoutIds();
    void stageStats();
    void stats();
    void stageQueue_data();
    void stageQueue();
    void queueCounts();
    void status();
    void statusWithoutQueueCounts();
    void wireNames_data();
    void wireNames();
    void stagesAndTick();
    void lifecycleNames();
};

void TestProtocolSnapshots::pool_data()
{
    QTest::addColumn<PoolSnapshot>("pool");
    QTest::newRow("working") << sampleEnrichPool();
    PoolSnapshot cooling = sampleEnrichPool();
    cooling.capacity = 0;
    cooling.cooldownUntil = when;
    cooling.cooldownReason = u"PROGRAM does not exist"_s;
    QTest::newRow("in cooldown") << cooling;
    PoolSnapshot retired = sampleEnrichPool();
    retired.retired = true;
    retired.drained = true;
    retired.starting = 1;
    retired.retiring = 2;
    QTest::newRow("retired and drained") << retired;
}

void TestProtocolSnapshots::pool()
{
    QFETCH(PoolSnapshot, pool);
    const QJsonObject json = wire(toJson(pool));
    QCOMPARE(poolFromJson(json, pool.stage), pool);
    QCOMPARE(json.value(field::Cooldown).toBool(), pool.cooldownUntil.has_value());
    QCOMPARE(json.contains(field::Retired), pool.retired);
    QVERIFY(!json.contains(field::Stage)); // the key it is filed under
}

void TestProtocolSnapshots::worker()
{
    WorkerSnapshot worker = sampleEnrichWorker();
    worker.retiring = true;

    const QJsonObject json = wire(toJson(worker));
    QCOMPARE(json.value(field::Ids).toArray(), QJsonArray({88, 89, 90}));
    QCOMPARE(json.value(field::Held).toInteger(), qint64(3));
    QCOMPARE(json.value(field::HeadId).toInteger(), qint64(88));
    QCOMPARE(json.value(field::State).toString(), u"running"_s);
    const WorkerSnapshot back = workerFromJson(json);
    QCOMPARE(back.ids, worker.ids);
    QCOMPARE(back.heldCount(), qint64(3));
    QCOMPARE(back.headOfLine(), qint64(88));
    QCOMPARE(toJson(back), toJson(worker));

    WorkerSnapshot idle;
    idle.pid = 7;
    idle.stage = u"score"_s;
    const QJsonObject idleJson = wire(toJson(idle));
    QVERIFY(idleJson.value(field::HeadId).isNull());
    QVERIFY(idleJson.value(field::HeadAgeMs).isNull());
    QCOMPARE(toJson(workerFromJson(idleJson)), toJson(idle));
}

void TestProtocolSnapshots::workerWithoutIds()
{
    WorkerSnapshot worker;
    worker.pid = 5001;
    worker.stage = u"enrich"_s;
    worker.ids = {88, 89, 90};
    worker.headAgeMs = 40;

    const QJsonObject json = wire(toJson(worker, WorkerIds::Omitted));
    QVERIFY(!json.contains(field::Ids));
    const WorkerSnapshot back = workerFromJson(json);
    QVERIFY(back.ids.isEmpty());
    QCOMPARE(back.heldCount(), qint64(3));
    QCOMPARE(back.headOfLine(), qint64(88));
    QCOMPARE(back.headAgeMs, qint64(40));
    // and written again it says the same
    QCOMPARE(toJson(back, WorkerIds::Omitted), json);
}

void TestProtocolSnapshots::stageStats()
{
    const StageStatsSnapshot stats{52, 12, 3, 1, 8123456, 2.5, 2.0};
    QCOMPARE(stageStatsFromJson(wire(toJson(stats))), stats);
}

void TestProtocolSnapshots::stats()
{
    StatsSnapshot stats;
    stats.since = when;
    stats.claimed = 120;
    stats.rounds = 30;
    stats.stageRuns = 360;
    stats.messages = 119;
    stats.rate10s = 6.5;
    stats.rate60s = 6.25;
    stats.stages[u"enrich"_s] = StageStatsSnapshot{52, 12, 0, 1, 8123456, 2.5, 2.0, 3, 0.75, true};
    stats.stages[u"score"_s] = StageStatsSnapshot{7, 0, 1, 0, 100, 0.5, 0.25, 0};
    const QJsonObject json = wire(toJson(stats));
    QCOMPARE(statsFromJson(json), stats);
    QCOMPARE(json.value(field::Since).toString(), u"2026-12-02T19:51:47.123Z"_s);
}

void TestProtocolSnapshots::stageQueue_data()
{
    QTest::addColumn<StageQueue>("queue");
    QTest::newRow("with a pending row") << StageQueue{1200, 9, 3, 12, 0, 5400};
    QTest::newRow("pending by age") << StageQueue{1200, 9, 3, 12, 0, 7'300'000, {1000, 150, 40, 6, 3, 1}};
    QTest::newRow("nothing pending") << StageQueue{0, 0, 0, 0, 2, std::nullopt};
}

void TestProtocolSnapshots::stageQueue()
{
    QFETCH(StageQueue, queue);
    const QJsonObject json = wire(toJson(queue));
    QCOMPARE(stageQueueFromJson(json), queue);
    QCOMPARE(json.value(field::OldestPendingAgeMs).isNull(), !queue.oldestPendingAgeMs);
    // pending_ages: one key per bucket, youngest first, as qshape's columns
    const QJsonObject ages = json.value(field::PendingAges).toObject();
    QCOMPARE(ages.keys().size(), 6);
    for (qsizetype i = 0; i < pendingAgeBuckets().size(); ++i)
        QCOMPARE(ages.value(pendingAgeBuckets().at(i)).toInteger(), queue.pendingAges.at(size_t(i)));
}

void TestProtocolSnapshots::queueCounts()
{
    QueueCounts counts;
    counts.takenAt = when;
    counts.stages[u"enrich"_s] = StageQueue{1200, 9, 3, 12, 0, 5400};
    counts.stages[u"score"_s] = StageQueue{0, 0, 0, 0, 2, std::nullopt};
    const QJsonObject json = wire(toJson(counts, when.addMSecs(250)));
    QCOMPARE(json.value(field::AgeMs).toInteger(), qint64(250));
    counts.ageMs = 250; // as the reader has it
    QCOMPARE(queueCountsFromJson(json), counts);
}

void TestProtocolSnapshots::status()
{
    StatusSnapshot status;
    status.time = when;
    status.state = Lifecycle::Running;
    status.stats.claimed = 120;
    status.stats.stageRuns = 360;
    status.stats.rate10s = 6.5;
    status.stats.stages[u"enrich"_s] = StageStatsSnapshot{52, 12, 0, 1, 8123456, 2.5, 2.0, 0};
    status.stats.stages[u"score"_s] = StageStatsSnapshot{};
    PoolSnapshot score;
    score.stage = u"score"_s;
    score.workers = 1;
    score.capacity = 8;
    status.pools = {sampleEnrichPool(), score};
    status.poolTotals = PoolTotals::of(status.pools);
    status.queues = QueueCounts{when.addSecs(-1), {}};
    status.queues->stages[u"enrich"_s] = StageQueue{1200, 9, 3, 12, 0, 5400};
    status.queues->stages[u"score"_s] = StageQueue{};

    const QJsonObject json = wire(toJson(status));
    QCOMPARE(statusFromJson(json), status);
    const QJsonObject totals = json.value(field::Totals).toObject();
    QCOMPARE(totals.value(field::Workers).toInt(), 4);
    QCOMPARE(totals.value(field::Capacity).toInt(), 24);
    QCOMPARE(json.value(field::Stages).toObject().value(u"enrich"_s).toObject().value(field::Queue).toObject(),
             toJson(StageQueue{1200, 9, 3, 12, 0, 5400}));
    QVERIFY(!json.contains(field::QueuesError));
}

void TestProtocolSnapshots::statusWithoutQueueCounts()
{
    StatusSnapshot status;
    status.time = when;
    status.state = Lifecycle::Reconnecting;
    status.pools = {sampleEnrichPool()};
    status.poolTotals = PoolTotals{7, 5, 19, 48}; // the daemon's, of the pools left out too
    status.stats.stages[u"enrich"_s] = StageStatsSnapshot{};
    status.queuesError = u"database unreachable"_s;

    const QJsonObject json = wire(toJson(status));
    // The reason is said once, at the top; every stage's queue is null.
    QCOMPARE(json.value(field::QueuesError).toString(), u"database unreachable"_s);
    QVERIFY(json.value(field::QueuesAt).isNull());
    const QJsonObject enrich = json.value(field::Stages).toObject().value(u"enrich"_s).toObject();
    QVERIFY(enrich.value(field::Queue).isNull());
    QVERIFY(!enrich.contains(field::QueuesError));
    QCOMPARE(json.value(field::Totals)[field::Workers].toInt(), 7);
    QCOMPARE(statusFromJson(json), status);
}

// The names scripts read (doc/control-protocol.rst), spelled out rather than
// taken from protocol::field: a renamed field fails here.
void TestProtocolSnapshots::wireNames_data()
{
    QTest::addColumn<QJsonValue>("object");
    QTest::addColumn<QString>("keys");

    StatusSnapshot status;
    status.pools = {sampleEnrichPool()};
    status.queues = QueueCounts{when, {}};
    const QJsonObject s = wire(toJson(status));
    const QJsonValue enrich = s[u"stages"_s][u"enrich"_s];
    QTest::newRow("status") << QJsonValue(s) << u"queues_at stages state time totals"_s;
    QTest::newRow("status totals") << s[u"totals"_s]
                                   << u"busy capacity claimed in_flight messages rate_10s rate_60s rounds "
                                      "stage_runs workers"_s;
    QTest::newRow("status pool") << enrich
                                 << u"busy capacity cooldown cooldown_reason cooldown_until drained idle in_flight "
                                    "parallelism queue queue_limit retiring starting stats workers"_s;
    QTest::newRow("queue") << enrich[u"queue"_s]
                           << u"failed oldest_pending_age_ms paused pending pending_ages running timeout"_s;
    QTest::newRow("pending ages") << enrich[u"queue"_s][u"pending_ages"_s] << u"10m 10s 1h 1m 1s older"_s;
    QTest::newRow("stage stats") << enrich[u"stats"_s]
                                 << u"busy_usec crashes failed_in_a_row failing failure_share failures rate_10s "
                                    "rate_60s runs timeouts"_s;

    const QJsonObject stages = wire(toJson(StagesSnapshot{{StageInfo{}}, {}}));
    QTest::newRow("stages") << QJsonValue(stages) << u"settings stages"_s;
    QTest::newRow("stage") << stages[u"stages"_s][0]
                           << u"drained file_values fuse max_messages name next parallelism predecessors program "
                              "queue_limit sources"_s;
    QTest::newRow("settings") << stages[u"settings"_s]
                              << u"config_file db_pool_size max_runtime_ms poll_interval_ms stats_interval_ms "
                                 "tempfail_delay_ms worker_idle_timeout_ms"_s;

    TickSnapshot tick;
    tick.stages[u"enrich"_s] = TickStage{};
    const QJsonObject t = wire(toJson(tick));
    QTest::newRow("tick") << QJsonValue(t) << u"busy capacity claimed completed in_flight rate_10s stages workers"_s;
    QTest::newRow("tick stage") << t[u"stages"_s][u"enrich"_s] << u"busy capacity idle in_flight rate_10s workers"_s;
}

void TestProtocolSnapshots::wireNames()
{
    QFETCH(QJsonValue, object);
    QFETCH(QString, keys);
    QStringList names = object.toObject().keys();
    names.sort();
    QCOMPARE(names.join(u' '), keys);
}

void TestProtocolSnapshots::stagesAndTick()
{
    StagesSnapshot stages{
        {StageInfo{u"enrich"_s, u"/usr/lib/pepsi/enrich"_s, 4, 4, 1000, {u"score"_s}, false, {u"ingest"_s}, true, {}}},
        SettingsSnapshot{300000, 5000, 30000, 60000, 30000, 8, u"/etc/pepsi/pepsi.conf"_s}};
    stages.stages[0].sources = {{u"PARALLELISM"_s, {OptionSource::Overlay, u"8"_s}}, {u"FUSE"_s, {}}};
    QCOMPARE(stagesFromJson(wire(toJson(stages))), stages);
    stages.settings.configFile.clear(); // none: null, not ""
    QVERIFY(wire(toJson(stages))[u"settings"_s][u"config_file"_s].isNull());
    QCOMPARE(stagesFromJson(wire(toJson(stages))), stages);

    TickSnapshot tick{12, 30, PoolTotals{4, 3, 9, 16}, 2004.5, {}};
    tick.stages[u"enrich"_s] = TickStage{2004.5, 9, 3, 1, 4, 16};
    QCOMPARE(tickFromJson(wire(toJson(tick))), tick);
}

void TestProtocolSnapshots::lifecycleNames()
{
    for (Lifecycle state : {Lifecycle::Starting, Lifecycle::WaitingForLock, Lifecycle::Running, Lifecycle::Reconnecting,
                            Lifecycle::Stopping, Lifecycle::Stopped})
        QVERIFY(lifecycleFromName(lifecycleName(state)) == state);
    QVERIFY(!lifecycleFromName(u"sleeping"_s));
    QCOMPARE(lifecycleName(Lifecycle::WaitingForLock), u"waiting_for_lock"_s);
}

QTEST_GUILESS_MAIN(TestProtocolSnapshots)
#include "tst_protocolsnapshots.moc"
