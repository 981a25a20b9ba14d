// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "config/configuration.h"
#include "config/dispatchsettings.h"
#include "config/stagegraph.h"
#include "control/snapshots.h"
#include "core/pipelinereloader.h"

#include <QObject>

namespace pepsi {

class PoolSet;
class WorkerPool;

// The pipeline in force and how a new one takes its place: a stage pool per
// stage of the graph (built, reconfigured, retired in the PoolSet it is
// given), and every reload once the database answers, read and checked by its
// PipelineReloader. It never claims and never stops the process: what the
// rounds must know it signals (a pool to wire up, a graph applied, a reload
// that took effect or must wait), and a graph that does not parse it hands
// to whoever stops (unparsable()). Whether a reload may run now (the
// database up, the pipeline serving) is the caller's to decide.
class PipelineApplier : public QObject
{
    Q_OBJECT

public:
    PipelineApplier(const Configuration &file, const DispatchSettings &settings, PoolSet &pools,
                    QObject *parent = nullptr);
    // The pools it built are its children: it empties the PoolSet first, so
    // that nothing is deleted twice. The PoolSet must outlive it.
    ~PipelineApplier() override;

    PipelineReloader &reloader() { return m_reloader; }
    const StageGraph &graph() const { return m_graph; }                        // applied
    const DispatchSettings &settings() const { return m_reloader.settings(); } // the overlay applied

    // The pools become those of `graph`: a stage it keeps is reconfigured, a
    // stage it drops retires (its pool drains, then goes), a new stage gets a
    // pool (poolCreated()); then applied().
    void apply(const StageGraph &graph);
    // A reload with the database up, whatever its `source`
    // (protocol::value::*). `command`: refuse what does not pass the check
    // (every PROGRAM too), nothing changed; otherwise what does not parse is
    // unparsable(). config_overlay that cannot be read: readFailed(), and
    // the reload waits.
    Result<ReloadSnapshot, QString> reload(const QString &source, bool command = false);
    // SIGHUP while no reload can run (not serving yet, or the database
    // away): the file must parse with the overlay last read, else
    // unparsable() and false. `accept`: it is the file the pipeline starts from.
    bool checkFile(bool accept);

Q_SIGNALS:
    // A new stage's pool, before it joins the PoolSet: the rounds wire it up.
    void poolCreated(pepsi::WorkerPool *pool);
    void applied(const pepsi::StageGraph &graph);
    void reloaded(const pepsi::ReloadSnapshot &reload);
    // The reload from `source` could not read config_overlay (`error`: the statement's).
    void readFailed(const QString &source, const QString &error);
    // A reloaded file or graph that does not parse: routing by a graph the
    // workers no longer share would be worse than stopping.
    void unparsable(const QString &problems);

private:
    WorkerPool *createPool(const StageConfig &stage);

    PipelineReloader m_reloader;
    PoolSet &m_pools;
    StageGraph m_graph; // applied
};

} // namespace pepsi
