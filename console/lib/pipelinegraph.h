// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "control/snapshots.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace pepsi::console {

// The stage graph of a `stages` reply, laid out in layers: a stage sits one
// layer right of its furthest predecessor, so every edge points right.
struct PipelineGraph
{
    struct Node
    {
        QString name;
        QStringList next;
        int layer = 0; // column, from 0
        int slot = 0;  // row within the column, from 0
    };

    QList<Node> nodes; // by layer, then slot
    int layers = 0;
    int maxSlots = 0;

    static PipelineGraph fromStages(const StagesSnapshot &stages);
    const Node *find(const QString &name) const;
    int edgeCount() const;
};

} // namespace pepsi::console
