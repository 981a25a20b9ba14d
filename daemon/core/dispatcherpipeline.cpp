// SPDX-License-Identifier: AGPL-3.0-or-later
// The Dispatcher's pipeline: a stage pool per stage of the graph in force,
// and the reloads that change the graph (SIGHUP, config_changed, an overlay
// that changed while the database was away).
#include "core/dispatcher.h"

#include "core/dispatchstate.h"
#include "core/pipelineconfig.h"
#include "model/logcategories.h"
#include "storage/databasesession.h"
#include "workers/workerpool.h"

namespace pepsi {

WorkerPool *Dispatcher::createPool(const StageConfig &stage)
{
    PoolOptions options;
    options.configFile = m_settings.configFile;
    options.maxRuntime = m_settings.maxRuntime;
    options.idleTimeout = m_settings.workerIdleTimeout;
    options.tempfailDelay = m_settings.tempfailDelay;
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

void Dispatcher::reload()
{
    if (!m_session->isUp()) {
        m_reloadPending = true;
        return;
    }
    const auto overlay = m_session->overlay().read();
    if (!overlay) {
        m_reloadPending = true;
        return statementFailed(m_session->overlay().lastError());
    }
    m_reloadPending = false;
    m_overlay = *overlay;
    const auto pipeline = PipelineConfig::onReload(m_file, *overlay, m_settings);
    if (!pipeline)
        return refuseReload(pipeline.error());
    for (const QString &option : pipeline->ignored)
        qCWarning(lcMain).noquote() << option << "is read only at start; ignored until a restart";
    qCInfo(lcMain).noquote() << "pipeline reloaded; stages:" << pipeline->graph.names().join(u' ')
                             << "; retiring every worker";
    applyGraph(pipeline->graph);
    m_state->reloaded();
    requestRound();
}

// Routing by a graph the workers no longer share would be worse than stopping.
void Dispatcher::refuseReload(const ConfigError &error)
{
    stop(1, QStringLiteral("reloaded configuration does not parse: %1; stopping").arg(error.toString()),
         StopMode::Drain);
}

void Dispatcher::reloadFile()
{
    if (m_lifecycle == Lifecycle::Stopping || m_lifecycle == Lifecycle::Stopped) {
        qCInfo(lcMain) << "SIGHUP while stopping; ignored";
        return;
    }
    const QString path = m_file.fileName();
    qCInfo(lcMain).noquote() << "SIGHUP: reading" << path << "again";
    m_notifier.reloading();
    const auto file = Configuration::load(path);
    if (!file)
        return refuseReload(file.error());
    m_file = file.value();
    if (!m_pipelineBuilt) {
        // Nothing runs yet: the file alone must parse, as at start, and what
        // it says (but what the process already acted on) applies once it serves.
        const auto pipeline = PipelineConfig::atStart(m_file, {}, m_fileSettings);
        if (!pipeline)
            return refuseReload(pipeline.error());
        for (const QString &option : pipeline->ignored)
            qCWarning(lcMain).noquote() << option << "cannot change once the dispatcher runs; ignored";
        qCInfo(lcMain) << "configuration read again; it applies once this dispatcher serves";
    } else if (m_session->isUp()) {
        m_state->reloadRequested(QString(protocol::value::Signal));
        reload();
    } else {
        // A broken file stops the process now, not once the database is
        // back: check it against the overlay last read.
        const auto pipeline = PipelineConfig::onReload(m_file, m_overlay, m_settings);
        if (!pipeline)
            return refuseReload(pipeline.error());
        m_reloadPending = true;
        qCInfo(lcMain) << "the database is unreachable; the pipeline is rebuilt from the file and "
                          "config_overlay once it is back";
    }
    m_notifier.reloaded();
}

} // namespace pepsi
