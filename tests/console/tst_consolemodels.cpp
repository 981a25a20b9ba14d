// SPDX-License-Identifier: AGPL-3.0-or-later
// The console's models of the pipeline: a snapshot in, rows out; an event
// in, the right row changes; structural and data signals only after the
// flush; the stages laid out as a graph. (The event log:
// tst_consoleeventlog; throughput over time: tst_consolethroughput.)
#include "modeltestdata.h"
#include "pipelinegraph.h"
#include "poolmodel.h"
#include "queuemodel.h"
#include "workermodel.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QSignalSpy>
#include <QTest>
#include <QTranslator>

using namespace pepsi;
using namespace pepsi::console;
using namespace Qt::StringLiterals;

namespace {

// A tick of enrich's figures, through the wire.
TickSnapshot enrichTick(int workers, int busy, int idle, int inFlight)
{
    TickSnapshot tick;
    tick.stages[u"enrich"_s] = TickStage{1500.0, inFlight, busy, idle, workers, 16};
    return viaWire(tick);
}

WorkerSnapshot worker(qint64 pid, qint64 headAgeMs)
{
    WorkerSnapshot worker;
    worker.pid = pid;
    worker.stage = u"enrich"_s;
    worker.state = WorkerSnapshot::State::Running;
    if (headAgeMs >= 0)
        worker.ids = {pid - 4913};
    worker.headAgeMs = headAgeMs;
    worker.maxRuntimeMs = 300000;
    return worker;
}

StageInfo stage(const QString &name, const QStringList &next)
{
    StageInfo stage;
    stage.name = name;
    stage.next = next;
    return stage;
}

} // namespace

class TestConsoleModels : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void poolSnapshot_data();
    void poolSnapshot();
    void poolEvent_data();
    void poolEvent();
    void signalsOnlyAfterFlush();
    void eventsCoalesceIntoOneDataChanged();
    void snapshotRemovesGoneStages();
    void queueGrowth_data();
    void queueGrowth();
    void queueKeepsCountsWhileDatabaseIsDown();
    void workers_data();
    void workers();
    void workerEvents();
    void pipelineLayout_data();
    void pipelineLayout();

private:
    QTranslator m_english;
};

void TestConsoleModels::initTestCase()
{
    // As pepsi-console does: English plural forms ("1 message", "2 messages").
    QVERIFY(m_english.load(u":/i18n/pepsi-console_en.qm"_s));
    QCoreApplication::installTranslator(&m_english);
}

void TestConsoleModels::poolSnapshot_data()
{
    QTest::addColumn<QString>("stage");
    QTest::addColumn<int>("column");
    QTest::addColumn<QVariant>("expected");
    QTest::addColumn<bool>("highlighted");

    QTest::newRow("enrich busy") << u"enrich"_s << int(PoolModel::Busy) << QVariant(3) << false;
    QTest::newRow("enrich idle") << u"enrich"_s << int(PoolModel::Idle) << QVariant(1) << false;
    QTest::newRow("enrich cap") << u"enrich"_s << int(PoolModel::Parallelism) << QVariant(4) << false;
    QTest::newRow("enrich in flight") << u"enrich"_s << int(PoolModel::InFlight) << QVariant(9) << false;
    QTest::newRow("enrich capacity") << u"enrich"_s << int(PoolModel::Capacity) << QVariant(16) << false;
    QTest::newRow("enrich state") << u"enrich"_s << int(PoolModel::State) << QVariant(u"claiming"_s) << false;
    QTest::newRow("ingest in cooldown") << u"ingest"_s << int(PoolModel::State) << QVariant(u"cooldown"_s) << true;
    QTest::newRow("ingest capacity 0") << u"ingest"_s << int(PoolModel::Capacity) << QVariant(0) << true;
}

void TestConsoleModels::poolSnapshot()
{
    QFETCH(QString, stage);
    QFETCH(int, column);
    QFETCH(QVariant, expected);
    QFETCH(bool, highlighted);

    // GIVEN a status snapshot, WHEN it is applied and flushed
    PoolModel model;
    model.applyStatus(twoStages());
    model.flush();
    // THEN one row per stage, with the snapshot's values
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.columnCount(), int(PoolModel::ColumnCount));
    QCOMPARE(cellOf(model, stage, column).toString(), expected.toString());
    QCOMPARE(cellOf(model, stage, 0, KeyedTableModel::HighlightRole).toBool(), highlighted);
}

void TestConsoleModels::poolEvent_data()
{
    QTest::addColumn<QByteArray>("event");
    QTest::addColumn<QString>("stage");
    QTest::addColumn<int>("column");
    QTest::addColumn<QVariant>("expected");

    const QByteArray tick = QJsonDocument(tickEvent(enrichTick(2, 1, 1, 4), 9)).toJson();
    QTest::newRow("tick: busy") << tick << u"enrich"_s << int(PoolModel::Busy) << QVariant(1);
    QTest::newRow("tick: idle, as the daemon counts it") << tick << u"enrich"_s << int(PoolModel::Idle) << QVariant(1);
    QTest::newRow("tick: in flight") << tick << u"enrich"_s << int(PoolModel::InFlight) << QVariant(4);
    QTest::newRow("tick: workers") << tick << u"enrich"_s << int(PoolModel::Workers) << QVariant(2);
    QTest::newRow("drained") << QByteArray(R"({"event": "stage_drained", "seq": 9, "stage": "enrich", "uid": 0})")
                             << u"enrich"_s << int(PoolModel::State) << QVariant(u"drained"_s);
    QTest::newRow("resumed") << QByteArray(R"({"event": "stage_resumed", "seq": 9, "stage": "enrich", "uid": 0})")
                             << u"enrich"_s << int(PoolModel::State) << QVariant(u"claiming"_s);
    QTest::newRow("cooldown entered") << QByteArray(R"({"event": "cooldown_entered", "seq": 9, "stage": "enrich",
                          "until": "2026-12-02T19:52:00.000Z", "reason": "exited with status 78"})")
                                      << u"enrich"_s << int(PoolModel::State) << QVariant(u"cooldown"_s);
    QTest::newRow("cooldown left") << QByteArray(R"({"event": "cooldown_left", "seq": 9, "stage": "ingest"})")
                                   << u"ingest"_s << int(PoolModel::State) << QVariant(u"claiming"_s);
    QTest::newRow("unknown stage changes nothing")
        << QByteArray(R"({"event": "stage_drained", "seq": 9, "stage": "nosuch", "uid": 0})") << u"enrich"_s
        << int(PoolModel::State) << QVariant(u"claiming"_s);
}

void TestConsoleModels::poolEvent()
{
    QFETCH(QByteArray, event);
    QFETCH(QString, stage);
    QFETCH(int, column);
    QFETCH(QVariant, expected);

    // GIVEN the two stages
    PoolModel model;
    model.applyStatus(twoStages());
    model.flush();
    // WHEN the event comes (ConsoleFeed hands a tick on decoded)
    const QJsonObject received = json(event.constData());
    if (received.value(protocol::field::Event).toString() == protocol::event::Tick)
        model.applyTick(protocol::tickFromJson(received));
    else
        model.applyEvent(received);
    model.flush();
    // THEN the row shows it, and no row came or went
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(cellOf(model, stage, column).toString(), expected.toString());
}

void TestConsoleModels::signalsOnlyAfterFlush()
{
    PoolModel model;
    model.setFlushInterval(60'000); // only the explicit flush publishes
    QSignalSpy aboutToInsert(&model, &QAbstractItemModel::rowsAboutToBeInserted);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    int rowsWhenAboutToInsert = -1;
    connect(&model, &QAbstractItemModel::rowsAboutToBeInserted, this,
            [&] { rowsWhenAboutToInsert = model.rowCount(); });

    model.applyStatus(twoStages());
    QCOMPARE(inserted.count(), 0);
    QCOMPARE(model.rowCount(), 0);

    model.flush();
    QCOMPARE(aboutToInsert.count(), 1);
    QCOMPARE(rowsWhenAboutToInsert, 0);
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(inserted.at(0).at(1).toInt(), 0);
    QCOMPARE(inserted.at(0).at(2).toInt(), 1);
    QCOMPARE(model.rowCount(), 2);

    // The same snapshot again changes nothing: no signal at all.
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.applyStatus(twoStages());
    model.flush();
    QCOMPARE(changed.count(), 0);
    QCOMPARE(inserted.count(), 1);
}

void TestConsoleModels::eventsCoalesceIntoOneDataChanged()
{
    PoolModel model;
    model.applyStatus(twoStages());
    model.flush();
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy flushed(&model, &KeyedTableModel::flushed);

    for (int i = 0; i < 50; ++i) {
        TickSnapshot tick = enrichTick(4, i % 4, 4 - i % 4, i);
        tick.stages[u"ingest"_s] = TickStage{};
        model.applyTick(viaWire(tick));
    }
    QCOMPARE(changed.count(), 0);
    model.flush();
    QCOMPARE(changed.count(), 1); // fifty events, one repaint
    QCOMPARE(flushed.count(), 1);
    QCOMPARE(cellOf(model, u"enrich"_s, PoolModel::InFlight, KeyedTableModel::SortRole).toInt(), 49);

    // Left alone, the model's own timer publishes within a few hundred ms.
    model.applyEvent(json(R"({"event": "stage_drained", "seq": 99, "stage": "ingest", "uid": 0})"));
    QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 2, 1000);
}

void TestConsoleModels::snapshotRemovesGoneStages()
{
    PoolModel model;
    model.applyStatus(twoStages());
    model.flush();
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    StatusSnapshot status = twoStages();
    status.pools.removeLast(); // ingest
    model.applyStatus(viaWire(status));
    model.flush();
    QCOMPARE(removed.count(), 1);
    QCOMPARE(model.keys(), QStringList{u"enrich"_s});
}

void TestConsoleModels::queueGrowth_data()
{
    QTest::addColumn<QList<int>>("pending"); // one snapshot each
    QTest::addColumn<bool>("growing");
    QTest::addColumn<QString>("trend"); // the Backlog column's words (C locale)

    QTest::newRow("one snapshot") << QList<int>{1000} << false << u"steady"_s;
    QTest::newRow("grew once") << QList<int>{1000, 2000} << false << u"rising (+1,000)"_s;
    QTest::newRow("grew twice") << QList<int>{1000, 2000, 3000} << true << u"growing (+1,000)"_s;
    QTest::newRow("grew, then shrank") << QList<int>{1000, 2000, 3000, 2500} << false << u"falling (−500)"_s;
    QTest::newRow("steady") << QList<int>{1000, 1000, 1000} << false << u"steady"_s;
    QTest::newRow("grew twice after a dip") << QList<int>{3000, 1000, 1500, 1600} << true << u"growing (+100)"_s;
    QTest::newRow("grew twice, below the floor") << QList<int>{77, 150, 187} << false << u"rising (+37)"_s;
    QTest::newRow("reaches the floor") << QList<int>{500, 900, 1000} << true << u"growing (+100)"_s;
}

void TestConsoleModels::queueGrowth()
{
    QFETCH(QList<int>, pending);
    QFETCH(bool, growing);
    QFETCH(QString, trend);

    QLocale::setDefault(QLocale::c());
    QueueModel model;
    for (int n : pending) {
        StatusSnapshot status;
        status.pools = {pool(u"enrich"_s, 1, 1, 1, 1, 4)};
        status.queues = QueueCounts{QDateTime::currentDateTimeUtc(), {}};
        status.queues->stages[u"enrich"_s].pending = n;
        status.queues->stages[u"enrich"_s].failed = 7;
        model.applyStatus(viaWire(status));
        model.flush();
    }
    QCOMPARE(model.isGrowing(u"enrich"_s), growing);
    QCOMPARE(cellOf(model, u"enrich"_s, 0, KeyedTableModel::HighlightRole).toBool(), growing);
    QCOMPARE(cellOf(model, u"enrich"_s, QueueModel::Pending, KeyedTableModel::SortRole).toLongLong(),
             qint64(pending.last()));
    QCOMPARE(cellOf(model, u"enrich"_s, QueueModel::Pending).toString(), QLocale().toString(pending.last()));
    QCOMPARE(model.count(u"enrich"_s, u"failed"_s), qint64(7));
    QCOMPARE(cellOf(model, u"enrich"_s, QueueModel::Trend).toString(), trend.replace(u',', QString()));
    QLocale::setDefault(QLocale::system());
}

void TestConsoleModels::queueKeepsCountsWhileDatabaseIsDown()
{
    QueueModel model;
    model.applyStatus(twoStages());
    model.flush();
    // As the daemon says it: once, at the top, and every stage's queue null.
    StatusSnapshot down = twoStages();
    down.queues.reset();
    down.queuesError = u"database unreachable"_s;
    down = viaWire(down);
    QVERIFY(!down.queues); // the queues_at null came through
    model.applyStatus(down);
    model.flush();
    QCOMPARE(model.queuesError(), u"database unreachable"_s);
    QCOMPARE(cellOf(model, u"enrich"_s, QueueModel::Pending, KeyedTableModel::SortRole).toLongLong(), qint64(1200));
    QCOMPARE(cellOf(model, u"ingest"_s, QueueModel::Timeout, KeyedTableModel::SortRole).toLongLong(), qint64(3));
}

void TestConsoleModels::workers_data()
{
    QTest::addColumn<QList<WorkerSnapshot>>("workers");
    QTest::addColumn<QList<qint64>>("pids");
    QTest::addColumn<QList<qint64>>("highlighted");

    QTest::newRow("none") << QList<WorkerSnapshot>{} << QList<qint64>{} << QList<qint64>{};
    QTest::newRow("fresh head") << QList<WorkerSnapshot>{worker(5001, 12)} << QList<qint64>{5001} << QList<qint64>{};
    QTest::newRow("80% of max_runtime") << QList<WorkerSnapshot>{worker(5001, 240000), worker(5002, 239999),
                                                                 worker(5003, -1)}
                                        << QList<qint64>{5001, 5002, 5003} << QList<qint64>{5001};
}

void TestConsoleModels::workers()
{
    QFETCH(QList<WorkerSnapshot>, workers);
    QFETCH(QList<qint64>, pids);
    QFETCH(QList<qint64>, highlighted);

    WorkerModel model;
    model.applyWorkers(viaWire(workers));
    model.flush();
    QCOMPARE(model.pids(), pids);
    QList<qint64> hot;
    for (int row = 0; row < model.rowCount(); ++row) {
        if (model.index(row, 0).data(KeyedTableModel::HighlightRole).toBool())
            hot.append(model.index(row, WorkerModel::Pid).data().toLongLong());
    }
    QCOMPARE(hot, highlighted);
}

void TestConsoleModels::workerEvents()
{
    WorkerModel model;
    model.applyWorkers(viaWire(QList<WorkerSnapshot>{worker(5001, -1)}));
    model.flush();
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);

    model.applyEvent(json(R"({"event": "worker_started", "seq": 3, "pid": 5002, "stage": "deliver"})"));
    model.applyEvent(json(R"({"event": "worker_crashed", "seq": 4, "pid": 5001, "stage": "enrich",
                              "cause": "crashed: signal 9", "message_id": 88, "requeued": 0})"));
    QCOMPARE(inserted.count(), 0);
    model.flush();
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(removed.count(), 1);
    QCOMPARE(model.pids(), QList<qint64>{5002});
    QCOMPARE(cellOf(model, u"5002"_s, WorkerModel::Stage).toString(), u"deliver"_s);
    QCOMPARE(cellOf(model, u"5002"_s, WorkerModel::State).toString(), u"starting"_s);
}

void TestConsoleModels::pipelineLayout_data()
{
    QTest::addColumn<QList<StageInfo>>("stages");
    QTest::addColumn<QStringList>("order");
    QTest::addColumn<QList<int>>("layers");
    QTest::addColumn<int>("edges");

    QTest::newRow("a chain") << QList<StageInfo>{stage(u"deliver"_s, {}), stage(u"enrich"_s, {u"deliver"_s}),
                                                 stage(u"ingest"_s, {u"enrich"_s})}
                             << QStringList{u"ingest"_s, u"enrich"_s, u"deliver"_s} << QList<int>{0, 1, 2} << 2;
    QTest::newRow("a fork and a join") << QList<StageInfo>{stage(u"a"_s, {u"b"_s, u"c"_s}), stage(u"b"_s, {u"d"_s}),
                                                           stage(u"c"_s, {u"e"_s}), stage(u"d"_s, {}),
                                                           stage(u"e"_s, {u"d"_s})}
                                       << QStringList{u"a"_s, u"b"_s, u"c"_s, u"e"_s, u"d"_s}
                                       << QList<int>{0, 1, 1, 2, 3} << 5;
    QTest::newRow("an unknown successor is not drawn")
        << QList<StageInfo>{stage(u"a"_s, {u"zz"_s})} << QStringList{u"a"_s} << QList<int>{0} << 0;
    QTest::newRow("empty") << QList<StageInfo>{} << QStringList{} << QList<int>{} << 0;
}

void TestConsoleModels::pipelineLayout()
{
    QFETCH(QList<StageInfo>, stages);
    QFETCH(QStringList, order);
    QFETCH(QList<int>, layers);
    QFETCH(int, edges);

    const PipelineGraph graph = PipelineGraph::fromStages(viaWire(StagesSnapshot{stages, {}}));
    QStringList names;
    QList<int> got;
    for (const auto &node : graph.nodes) {
        names.append(node.name);
        got.append(node.layer);
    }
    QCOMPARE(names, order);
    QCOMPARE(got, layers);
    QCOMPARE(graph.edgeCount(), edges);
}

QTEST_MAIN(TestConsoleModels)
#include "tst_consolemodels.moc"
