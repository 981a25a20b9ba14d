// SPDX-License-Identifier: AGPL-3.0-or-later
// The Dispatcher's pipeline: a stage pool per stage of the graph in force,
// and the one reload path (the `reload` command, SIGHUP, config_changed, an
// overlay that changed while the database was away): its PipelineReloader
// reads and checks, the Dispatcher applies the graph.
#include "core/dispatcher.h"

#include "control/reloadcodec.h"
#include "core/dispatchstate.h"
#include "model/logcategories.h"
#include "storage/databasesession.h"
#include "workers/workerpool.h"

namespace pepsi {

WorkerPool *Dispatcher::createPool(const StageConfig &stage)
{
    const DispatchSettings &settings = m_reloader.settings();
    PoolOptions options;
    options.configFile = settings.configFile;
    options.maxRuntime = settings.maxRuntime;
    options.idleTimeout = settings.workerIdleTimeout;
    options.tempfailDelay = settings.tempfailDelay;
    auto *pool = new WorkerPool(stage, options, this);
    m_state->watchPool(pool);
    connect(pool, &WorkerPool::capacityFreed, this, &Dispatcher::requestRound);
    connect(pool, &WorkerPool::settle, this, &Dispatcher::onSettle);
    connect(pool, &WorkerPool::runEnded, &m_stats, &StatisticsFlusher::record);
    connect(pool, &WorkerPool::advanced, this,
            [this, pool](qint64 id, const QList<FusedRun> &fused) { onAdvanced(pool->stage().name, id, fused); });
    connect(pool, &WorkerPool::drained, this, [this, pool] { onPoolDrained(pool); });
    return pool;
}

void Dispatcher::applyGraph(const StageGraph &graph)
{
    for (const QString &name : m_pools.currentStages()) {
        if (const StageConfig *stage = graph.stage(name)) {
            m_pools.find(name)->reconfigure(*stage);
            continue;
        }
        qCInfo(lcMain).noquote() << "stage" << name
                                 << "is gone from the pipeline; its pending messages stay where they are";
        m_pools.retire(name);
    }
    for (const StageConfig &stage : graph.stages()) {
        if (!m_pools.find(stage.name))
            m_pools.add(createPool(stage));
    }
    m_graph = graph;
    m_stats.setGraph(graph);
    // Answers were credited to the NEXT stages of the old graph: a stage the
    // new one adds or routes to again may hold rows nobody announced to it.
    m_floors.reset();
}

Result<ReloadSnapshot, QString> Dispatcher::reload(const QString &source, bool command)
{
    if (!m_session->isUp()) {
        m_reloadPending = true;
        m_pendingSource = source;
        return QStringLiteral("the database is unreachable; the configuration is read again once it is back");
    }
    const auto overlay = m_reloader.readOverlay();
    if (!overlay) {
        m_reloadPending = true;
        m_pendingSource = source;
        statementFailed(m_reloader.overlayError());
        return QStringLiteral("reading config_overlay failed; it is read again once the database answers");
    }
    const auto candidate =
        m_reloader.prepare(*overlay, command ? PipelineReloader::Check::Programs : PipelineReloader::Check::Parse);
    if (!candidate.problems.isEmpty() && command) {
        qCWarning(lcMain).noquote() << "reload refused; the pipeline stays as it was:"
                                    << candidate.problems.join(QStringLiteral("; "));
        return QStringLiteral("the configuration was not reloaded; nothing changed:\n")
            + candidate.problems.join(u'\n');
    }
    if (!candidate.parses) {
        refuseReload(candidate.problems.join(QStringLiteral("; ")));
        return QStringLiteral("the reloaded configuration does not parse; the dispatcher is stopping (see its log)");
    }
    // Whatever caused it, this reload read the changes that notifications
    // waiting to be coalesced announce (a refused one did not apply them).
    m_reloader.cancelPending();
    m_reloadPending = false;
    m_reloader.accept(candidate);
    for (const QString &option : candidate.pipeline.ignored)
        qCWarning(lcMain).noquote() << option << "is read only at start; ignored until a restart";
    const ReloadSnapshot reloaded{candidate.pipeline.graph.names(), candidate.changes, source};
    qCInfo(lcMain).noquote() << QStringLiteral("pipeline reloaded (%1): %2; stages: %3")
                                    .arg(source, protocol::describe(candidate.changes),
                                         reloaded.stages.isEmpty() ? QStringLiteral("(none)")
                                                                   : reloaded.stages.join(u' '));
    applyGraph(candidate.pipeline.graph);
    m_state->reloaded(reloaded);
    requestRound();
    return reloaded;
}

// Routing by a graph the workers no longer share would be worse than stopping.
void Dispatcher::refuseReload(const QString &problems)
{
    stop(1, QStringLiteral("reloaded configuration does not parse: %1; stopping").arg(problems), StopMode::Drain);
}

void Dispatcher::reloadFile()
{
    if (m_lifecycle == Lifecycle::Stopping || m_lifecycle == Lifecycle::Stopped) {
        qCInfo(lcMain) << "SIGHUP while stopping; ignored";
        return;
    }
    qCInfo(lcMain).noquote() << "SIGHUP: reading" << m_reloader.filePath() << "again";
    m_notifier.reloading();
    if (!m_pipelineBuilt) {
        // Nothing runs yet: the file alone must parse, as at start, and what
        // it says (but what the process already acted on) applies once it serves.
        const auto candidate = m_reloader.prepareWithLastOverlay(PipelineReloader::Check::Parse);
        if (!candidate.parses)
            return refuseReload(candidate.problems.join(QStringLiteral("; ")));
        m_reloader.accept(candidate);
        for (const QString &option : candidate.pipeline.ignored)
            qCWarning(lcMain).noquote() << option << "cannot change once the dispatcher runs; ignored";
        qCInfo(lcMain) << "configuration read again; it applies once this dispatcher serves";
    } else if (m_session->isUp()) {
        (void)reload(QString(protocol::value::Signal));
    } else {
        // A broken file stops the process now, not once the database is
        // back: check it against the overlay last read.
        const auto candidate = m_reloader.prepareWithLastOverlay(PipelineReloader::Check::Parse);
        if (!candidate.parses)
            return refuseReload(candidate.problems.join(QStringLiteral("; ")));
        m_reloadPending = true;
        m_pendingSource = QString(protocol::value::Signal);
        qCInfo(lcMain) << "the database is unreachable; the pipeline is rebuilt from the file and "
                          "config_overlay once it is back";
    }
    m_notifier.reloaded();
}

} // namespace pepsi
