// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "config/configuration.h"
#include "config/dispatchsettings.h"
#include "config/stagegraph.h"
#include "result.h"

#include <QStringList>

namespace pepsi {

// pepsi.conf with the database overlay applied: the stage graph, and the
// [pepsi-dispatch] settings. At start every overlay row applies (but those the
// process already acted on: DATABASE, USER, CONTROL_SOCKET, DB_POOL_SIZE and
// the DB_*_TIMEOUTs of the sessions that read the overlay); on
// reload (config_changed, the control socket's reload, SIGHUP with the file
// read again) only [stage-*] sections do, and any [pepsi-dispatch] difference
// from the running settings, in the file or the overlay, is listed as ignored.
struct PipelineConfig
{
    StageGraph graph;
    DispatchSettings settings;
    // Values that could not take effect, each with its origin:
    // "config_overlay (pepsi-dispatch, MAX_RUNTIME): [pepsi-dispatch] MAX_RUNTIME",
    // "pepsi.conf:7: [pepsi-dispatch] MAX_RUNTIME".
    QStringList ignored;

    static Result<PipelineConfig, ConfigError> atStart(const Configuration &file, const QList<OverlayRow> &overlay,
                                                       const DispatchSettings &fileSettings);
    static Result<PipelineConfig, ConfigError> onReload(const Configuration &file, const QList<OverlayRow> &overlay,
                                                        const DispatchSettings &running);
};

} // namespace pepsi
