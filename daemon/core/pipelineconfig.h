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
// reload only [stage-*] sections do, and any [pepsi-dispatch] difference is
// listed as ignored.
struct PipelineConfig
{
    StageGraph graph;
    DispatchSettings settings;
    QStringList ignored; // "MAX_RUNTIME" etc.: overlay values that could not take effect

    static Result<PipelineConfig, ConfigError> atStart(const Configuration &file, const QList<OverlayRow> &overlay,
                                                       const DispatchSettings &fileSettings);
    static Result<PipelineConfig, ConfigError> onReload(const Configuration &file, const QList<OverlayRow> &overlay,
                                                        const DispatchSettings &running);
};

} // namespace pepsi
