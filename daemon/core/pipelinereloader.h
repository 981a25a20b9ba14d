// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "config/configuration.h"
#include "config/dispatchsettings.h"
#include "control/snapshots.h"
#include "core/pipelineconfig.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <optional>

namespace pepsi {

class OverlayStore;

// Where the Dispatcher's pipeline comes from: the configuration file (read
// again on every reload, whatever caused it), config_overlay, the
// PipelineConfig in force, and the difference a new one makes. Every reload
// (the `reload` command, SIGHUP, config_changed, the database back) goes
// through prepare() and accept(): prepare() reads and checks and keeps
// nothing, so a candidate that is refused leaves everything as it was. The
// PipelineApplier applies the graph; this class never touches a pool.
//
// config_changed notifications are coalesced: one reload follows (due())
// once CoalesceMs passed without another, or CoalesceMaxMs after the first
// of them, whichever comes first. A burst of overlay writes (a script's loop
// of `pepsi-ctl set`, 100 in 10 s) then costs a handful of reloads, each of
// which retires the workers, and a steady trickle still gets one every
// CoalesceMaxMs rather than waiting for a quiet moment.
class PipelineReloader : public QObject
{
    Q_OBJECT

public:
    static constexpr int CoalesceMs = 300;
    static constexpr int CoalesceMaxMs = 2000;

    PipelineReloader(const Configuration &file, const DispatchSettings &fileSettings, QObject *parent = nullptr);

    // The session's overlay reader (null: none yet, or gone).
    void setOverlayStore(OverlayStore *store) { m_store = store; }
    // config_overlay as it is now; nullopt with overlayError() when it cannot be read.
    std::optional<QList<OverlayRow>> readOverlay();
    QString overlayError() const { return m_overlayError; }
    // Whether `overlay` differs from the one the pipeline in force was built from.
    bool overlayDiffers(const QList<OverlayRow> &overlay) const;

    // Parse: what makes a graph (SIGHUP and config_changed stop the process
    // on anything less). Programs: also every PROGRAM found and executable
    // by this process, the workers' account (the `reload` command refuses).
    enum class Check { Parse, Programs };
    struct Candidate
    {
        Configuration file;
        QList<OverlayRow> overlay;
        PipelineConfig pipeline; // when problems is empty
        ReloadChanges changes;   // from the graph in force
        QStringList problems;    // every one, "FILE:LINE: …"
        bool parses = true;      // false: file, overlay or graph does not parse
    };
    // The file read again with `overlay`, checked. Before the pipeline first
    // started, as at start (the overlay rows for settings the process already
    // acted on are ignored); after, as on reload ([pepsi-dispatch] differences
    // are listed as ignored).
    Candidate prepare(const QList<OverlayRow> &overlay, Check check) const;
    // The same with the overlay last read (the database is away).
    Candidate prepareWithLastOverlay(Check check) const { return prepare(m_overlay, check); }
    // The candidate (without problems) is in force from now on; before the
    // start only its file is kept, for start().
    void accept(const Candidate &candidate);
    // The first pipeline: the file as last read and `overlay`.
    Result<PipelineConfig, ConfigError> start(const QList<OverlayRow> &overlay);
    bool isStarted() const { return m_started; }

    const PipelineConfig &current() const { return m_current; }
    const DispatchSettings &settings() const { return m_current.settings; }
    QString filePath() const { return m_file.fileName(); }

    // A config_changed notification caused by `source`; due() follows once.
    void configChanged(const QString &source);
    // Drops a coalesced reload that has not run (a stop, a reload that ran for another cause).
    void cancelPending() { m_coalesce.stop(); }
    // A coalesced reload waits for its timer.
    bool isPending() const { return m_coalesce.isActive(); }

    static ReloadChanges changesBetween(const StageGraph &before, const StageGraph &after);

Q_SIGNALS:
    // The coalesced reload is due; `source` is the last notification's.
    void due(const QString &source);

private:
    Configuration m_file;
    DispatchSettings m_fileSettings;
    PipelineConfig m_current;    // settings: the file's until start()
    QList<OverlayRow> m_overlay; // what m_current was built from
    bool m_started = false;
    OverlayStore *m_store = nullptr;
    QString m_overlayError;
    QTimer m_coalesce;            // single shot
    QElapsedTimer m_firstPending; // since the first notification the pending reload joins
    QString m_coalescedSource;
};

} // namespace pepsi
