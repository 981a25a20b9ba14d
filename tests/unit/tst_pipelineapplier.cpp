// SPDX-License-Identifier: AGPL-3.0-or-later
// PipelineApplier alone: a graph becomes the pools of a PoolSet (a stage kept
// is reconfigured in place, a stage dropped retires, a new stage gets a pool,
// announced before it joins the set); a reload that cannot read
// config_overlay waits and changes nothing; a file that does not parse is
// handed on, not applied; the pools it built go with it. Pools that never got
// an id start no process; the reload with a database is in tst_reload.
#include "core/pipelineapplier.h"
#include "core/poolset.h"
#include "workers/workerpool.h"

#include "testconfig.h"

#include <QPointer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace pepsi;
using namespace Qt::StringLiterals;

namespace {

QStringList stagesOf(const QList<const WorkerPool *> &pools)
{
    QStringList names;
    for (const WorkerPool *pool : pools)
        names.append(pool->stage().name);
    return names;
}

} // namespace

class TestPipelineApplier : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void graphBecomesPools();
    void unreadableOverlayChangesNothing();
    void unparsableFileIsHandedOn();
    void poolsGoWithTheApplier();

private:
    void write(const QByteArray &text);
    std::unique_ptr<PipelineApplier> started(PoolSet &pools);

    QTemporaryDir m_dir;
    QString m_path;
};

void TestPipelineApplier::init()
{
    QVERIFY(m_dir.isValid());
    m_path = m_dir.filePath(u"pepsi.conf"_s);
    write("[stage-a]\nPROGRAM = /bin/true\nNEXT = b\n[stage-b]\nPROGRAM = /bin/true\n");
}

void TestPipelineApplier::write(const QByteArray &text)
{
    QCOMPARE(writeTestConfig(m_dir, QString::fromUtf8(text)), m_path);
}

// The file's pipeline in force, not applied yet: no pool exists.
std::unique_ptr<PipelineApplier> TestPipelineApplier::started(PoolSet &pools)
{
    const auto file = Configuration::load(m_path);
    if (!file)
        return nullptr;
    auto applier =
        std::make_unique<PipelineApplier>(file.value(), DispatchSettings::fromConfiguration(*file).value(), pools);
    if (!applier->reloader().start({}))
        return nullptr;
    return applier;
}

void TestPipelineApplier::graphBecomesPools()
{
    PoolSet pools;
    const auto applier = started(pools);
    QVERIFY(applier);
    // Announced before it joins the set: whoever wires it up sees it first.
    QStringList announced;
    connect(applier.get(), &PipelineApplier::poolCreated, this, [&](WorkerPool *pool) {
        QVERIFY(!pools.find(pool->stage().name));
        announced.append(pool->stage().name);
    });
    QSignalSpy applied(applier.get(), &PipelineApplier::applied);

    // WHEN the first graph is applied THEN every stage has a pool
    applier->apply(applier->reloader().current().graph);
    announced.sort();
    QCOMPARE(announced, (QStringList{u"a"_s, u"b"_s}));
    QCOMPARE(stagesOf(pools.ordered()), (QStringList{u"a"_s, u"b"_s}));
    QCOMPARE(applied.size(), 1);
    QCOMPARE(applier->graph().names(), (QStringList{u"a"_s, u"b"_s}));

    // WHEN a graph keeps a (changed), drops b and adds c
    const WorkerPool *a = pools.find(u"a"_s);
    write("[stage-a]\nPROGRAM = /bin/true\nPARALLELISM = 3\nNEXT = c\n[stage-c]\nPROGRAM = /bin/true\n");
    const auto candidate = applier->reloader().prepare({}, PipelineReloader::Check::Parse);
    QVERIFY2(candidate.problems.isEmpty(), qPrintable(candidate.problems.join(u'\n')));
    announced.clear();
    applier->apply(candidate.pipeline.graph);
    // THEN a's pool is the same one, reconfigured; c got one; b's retires
    QCOMPARE(pools.find(u"a"_s), a);
    QCOMPARE(a->stage().parallelism, 3);
    QCOMPARE(announced, QStringList{u"c"_s});
    QCOMPARE(pools.find(u"b"_s), nullptr);
    QCOMPARE(stagesOf(pools.ordered()), (QStringList{u"a"_s, u"c"_s, u"b"_s}));
    QCOMPARE(applied.size(), 2);
    QCOMPARE(applier->graph().names(), (QStringList{u"a"_s, u"c"_s}));
}

void TestPipelineApplier::unreadableOverlayChangesNothing()
{
    PoolSet pools;
    const auto applier = started(pools);
    QVERIFY(applier);
    applier->apply(applier->reloader().current().graph);
    write("[stage-c]\nPROGRAM = /bin/true\n");
    QSignalSpy readFailed(applier.get(), &PipelineApplier::readFailed);
    QSignalSpy applied(applier.get(), &PipelineApplier::applied);
    QSignalSpy reloaded(applier.get(), &PipelineApplier::reloaded);

    // No session: config_overlay cannot be read, so the reload waits.
    const auto result = applier->reload(u"signal"_s);
    QVERIFY(!result);
    QCOMPARE(readFailed.size(), 1);
    QCOMPARE(readFailed[0][0].toString(), u"signal"_s);
    QVERIFY(!readFailed[0][1].toString().isEmpty());
    QCOMPARE(applied.size(), 0);
    QCOMPARE(reloaded.size(), 0);
    QCOMPARE(stagesOf(pools.ordered()), (QStringList{u"a"_s, u"b"_s}));
}

void TestPipelineApplier::unparsableFileIsHandedOn()
{
    PoolSet pools;
    const auto applier = started(pools);
    QVERIFY(applier);
    applier->apply(applier->reloader().current().graph);
    QSignalSpy unparsable(applier.get(), &PipelineApplier::unparsable);

    // A file that parses is checked against the overlay last read, and kept
    // only when asked (before the pipeline serves).
    write("[stage-a]\nPROGRAM = /bin/false\n");
    QVERIFY(applier->checkFile(false));
    QCOMPARE(unparsable.size(), 0);
    QCOMPARE(applier->reloader().current().graph.stage(u"a"_s)->program, u"/bin/true"_s);

    // One that does not is handed to whoever stops, with its problems.
    write("[stage-a]\nPROGRAM = /bin/true\nPARALLELISM = lots\n");
    QVERIFY(!applier->checkFile(false));
    QCOMPARE(unparsable.size(), 1);
    QVERIFY2(unparsable[0][0].toString().contains(m_path + u":3: "_s), qPrintable(unparsable[0][0].toString()));
    QCOMPARE(applier->graph().names(), (QStringList{u"a"_s, u"b"_s}));
    QCOMPARE(stagesOf(pools.ordered()), (QStringList{u"a"_s, u"b"_s}));
}

void TestPipelineApplier::poolsGoWithTheApplier()
{
    // The set outlives the applier here, as it does not in the Dispatcher:
    // either way each pool is deleted once.
    PoolSet pools;
    QPointer<WorkerPool> a;
    {
        const auto applier = started(pools);
        QVERIFY(applier);
        applier->apply(applier->reloader().current().graph);
        a = pools.find(u"a"_s);
        QVERIFY(a);
    }
    QVERIFY(pools.isEmpty());
    QVERIFY(!a);
}

QTEST_GUILESS_MAIN(TestPipelineApplier)
#include "tst_pipelineapplier.moc"
