// SPDX-License-Identifier: AGPL-3.0-or-later
#include "core/pipelineapplier.h"

#include "control/reloadcodec.h"
#include "core/poolset.h"
#include "model/logcategories.h"
#include "workers/workerpool.h"

namespace pepsi {

PipelineApplier::PipelineApplier(const Configuration &file, const DispatchSettings &settings, PoolSet &pools,
                                 QObject *parent)
    : QObject(parent)
    , m_reloader(file, settings)
    , m_pools(pools)
{ }

PipelineApplier::~PipelineApplier() { m_pools.clear(); }

WorkerPool *PipelineApplier::createPool(const StageConfig &stage)
{
    const DispatchSettings &settings = m_reloader.settings();
    PoolOptions options;
    options.configFile = settings.configFile;
    options.maxRuntime = settings.maxRuntime;
    options.idleTimeout = settings.workerIdleTimeout;
    options.tempfailDelay = settings.tempfailDelay;
    return new WorkerPool(stage, options, this);
}

void PipelineApplier::apply(const StageGraph &graph)
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
        if (m_pools.find(stage.name))
            continue;
        WorkerPool *pool = createPool(stage);
        Q_EMIT poolCreated(pool);
        m_pools.add(pool);
    }
    m_graph = graph;
    Q_EMIT applied(m_graph);
}

Result<ReloadSnapshot, QString> PipelineApplier::reload(const QString &source, bool command)
{
    const auto overlay = m_reloader.readOverlay();
    if (!overlay) {
        Q_EMIT readFailed(source, m_reloader.overlayError());
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
        Q_EMIT unparsable(candidate.problems.join(QStringLiteral("; ")));
        return QStringLiteral("the reloaded configuration does not parse; the dispatcher is stopping (see its log)");
    }
    // Whatever caused it, this reload read the changes that notifications
    // waiting to be coalesced announce (a refused one did not apply them).
    m_reloader.cancelPending();
    m_reloader.accept(candidate);
    for (const QString &option : candidate.pipeline.ignored)
        qCWarning(lcMain).noquote() << option << "is read only at start; ignored until a restart";
    const ReloadSnapshot snapshot{candidate.pipeline.graph.names(), candidate.changes, source};
    qCInfo(lcMain).noquote() << QStringLiteral("pipeline reloaded (%1): %2; stages: %3")
                                    .arg(source, protocol::describe(candidate.changes),
                                         snapshot.stages.isEmpty() ? QStringLiteral("(none)")
                                                                   : snapshot.stages.join(u' '));
    apply(candidate.pipeline.graph);
    Q_EMIT reloaded(snapshot);
    return snapshot;
}

bool PipelineApplier::checkFile(bool accept)
{
    const auto candidate = m_reloader.prepareWithLastOverlay(PipelineReloader::Check::Parse);
    if (!candidate.parses) {
        Q_EMIT unparsable(candidate.problems.join(QStringLiteral("; ")));
        return false;
    }
    if (accept) {
        m_reloader.accept(candidate);
        for (const QString &option : candidate.pipeline.ignored)
            qCWarning(lcMain).noquote() << option << "cannot change once the dispatcher runs; ignored";
    }
    return true;
}

} // namespace pepsi
