// SPDX-License-Identifier: AGPL-3.0-or-later
#include "grapherror.h"

#include "config/stagegraph.h"

QString graphError(const QByteArray &text, const QList<pepsi::OverlayRow> &overlay, const QString &fileName)
{
    const auto config = pepsi::Configuration::parse(text, fileName);
    if (!config)
        return config.error().toString();
    const auto graph = pepsi::StageGraph::fromConfiguration(config->withOverlay(overlay));
    return graph ? QString() : graph.error().toString();
}
