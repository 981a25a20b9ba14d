// SPDX-License-Identifier: AGPL-3.0-or-later
// PoolSet: current pools found by stage, retiring ones walked but not found,
// retiring before drained() can come back, drained ones dropped, the sorted
// listing, the sums over every pool, and ownership. Pools that never got an
// id start no process.
#include "core/poolset.h"
#include "workers/workerpool.h"

#include <QPointer>
#include <QSignalSpy>
#include <QTest>

using namespace pepsi;

namespace {

WorkerPool *poolOf(const char *stage)
{
    StageConfig config;
    config.name = QString::fromLatin1(stage);
    config.program = QStringLiteral("/bin/true");
    return new WorkerPool(config, PoolOptions{}, nullptr);
}

QStringList namesOf(const QList<const WorkerPool *> &pools)
{
    QStringList names;
    for (const WorkerPool *pool : pools)
        names.append(pool->stage().name);
    return names;
}

} // namespace

class TestPoolSet : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void findsCurrentPoolsOnly();
    void forEachVisitsCurrentThenRetiring();
    void retireMovesBeforeDrainedComesBack();
    void dropRetiredTakesRetiringPoolsOnly();
    void orderedSortsCurrentByStage();
    void sumsOverEveryPool();
    void clearDeletesEveryPool();
};

void TestPoolSet::findsCurrentPoolsOnly()
{
    // GIVEN two current pools
    PoolSet set;
    QVERIFY(set.isEmpty());
    WorkerPool *a = poolOf("a");
    WorkerPool *b = poolOf("b");
    set.add(a);
    set.add(b);
    // THEN each is found by its stage, an unknown stage is not
    QCOMPARE(set.find(QStringLiteral("a")), a);
    QCOMPARE(set.find(QStringLiteral("b")), b);
    QCOMPARE(set.find(QStringLiteral("c")), nullptr);
    // WHEN one retires THEN it is no longer found, but the set still holds it
    QCOMPARE(set.retire(QStringLiteral("a")), a);
    QCOMPARE(set.find(QStringLiteral("a")), nullptr);
    QCOMPARE(set.retire(QStringLiteral("a")), nullptr);
    QVERIFY(!set.isEmpty());
    QCOMPARE(set.currentStages(), QStringList{QStringLiteral("b")});
}

void TestPoolSet::forEachVisitsCurrentThenRetiring()
{
    PoolSet set;
    set.add(poolOf("a"));
    set.add(poolOf("b"));
    set.add(poolOf("c"));
    set.retire(QStringLiteral("b"));
    QStringList all;
    set.forEach([&all](const WorkerPool *pool) { all.append(pool->stage().name); });
    QStringList current;
    set.forEachCurrent([&current](const WorkerPool *pool) { current.append(pool->stage().name); });
    QCOMPARE(all.size(), 3);
    QCOMPARE(all.last(), QStringLiteral("b")); // retiring ones come last
    std::sort(current.begin(), current.end());
    QCOMPARE(current, (QStringList{QStringLiteral("a"), QStringLiteral("c")}));
}

void TestPoolSet::retireMovesBeforeDrainedComesBack()
{
    // A pool without workers reports drained() from inside retire(): by then
    // it must be a retiring pool, so the owner can drop it.
    PoolSet set;
    WorkerPool *a = poolOf("a");
    set.add(a);
    bool dropped = false;
    QObject context;
    QObject::connect(a, &WorkerPool::drained, &context, [&] { dropped = set.dropRetired(a); });
    QPointer<WorkerPool> alive(a);
    set.retire(QStringLiteral("a"));
    QVERIFY(dropped);
    QVERIFY(set.isEmpty());
    // Dropped is deleted later, from the event loop (it was reporting).
    QVERIFY(alive);
    QTRY_VERIFY(!alive);
}

void TestPoolSet::dropRetiredTakesRetiringPoolsOnly()
{
    PoolSet set;
    WorkerPool *a = poolOf("a");
    set.add(a);
    // A current pool is not dropped.
    QVERIFY(!set.dropRetired(a));
    QCOMPARE(set.find(QStringLiteral("a")), a);
    WorkerPool *stranger = poolOf("x");
    QVERIFY(!set.dropRetired(stranger));
    delete stranger;
}

void TestPoolSet::orderedSortsCurrentByStage()
{
    PoolSet set;
    for (const char *stage : {"delta", "alpha", "charlie", "bravo", "echo"})
        set.add(poolOf(stage));
    set.retire(QStringLiteral("echo"));
    set.retire(QStringLiteral("bravo"));
    QCOMPARE(namesOf(set.ordered()),
             (QStringList{QStringLiteral("alpha"), QStringLiteral("charlie"), QStringLiteral("delta"),
                          QStringLiteral("echo"), QStringLiteral("bravo")}));
}

void TestPoolSet::sumsOverEveryPool()
{
    PoolSet set;
    set.add(poolOf("a"));
    set.add(poolOf("b"));
    set.retire(QStringLiteral("a"));
    QCOMPARE(set.workerCount(), 0);
    QCOMPARE(set.inFlight(), 0);
    QVERIFY(set.heldIds().isEmpty());
}

void TestPoolSet::clearDeletesEveryPool()
{
    QPointer<WorkerPool> current;
    QPointer<WorkerPool> retiring;
    {
        PoolSet set;
        current = poolOf("a");
        retiring = poolOf("b");
        set.add(current);
        set.add(retiring);
        set.retire(QStringLiteral("b"));
        set.clear();
        QVERIFY(set.isEmpty());
        QVERIFY(!current);
        QVERIFY(!retiring);
        // And what it still holds goes with it.
        current = poolOf("c");
        set.add(current);
    }
    QVERIFY(!current);
}

QTEST_GUILESS_MAIN(TestPoolSet)
#include "tst_poolset.moc"
