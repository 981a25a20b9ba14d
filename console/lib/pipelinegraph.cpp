// SPDX-License-Identifier: AGPL-3.0-or-later
#include "pipelinegraph.h"

#include <QHash>
#include <algorithm>

namespace pepsi::console {

PipelineGraph PipelineGraph::fromStages(const StagesSnapshot &stages)
{
    PipelineGraph graph;
    QHash<QString, int> at;
    for (const StageInfo &stage : stages.stages) {
        Node node;
        node.name = stage.name;
        if (node.name.isEmpty() || at.contains(node.name))
            continue;
        node.next = stage.next;
        at.insert(node.name, int(graph.nodes.size()));
        graph.nodes.append(node);
    }
    // Longest path from a source. The daemon only loads acyclic graphs; the
    // bound on rounds keeps a broken reply from looping forever.
    bool moved = true;
    for (int round = 0; moved && round <= graph.nodes.size(); ++round) {
        moved = false;
        for (const Node &node : std::as_const(graph.nodes)) {
            for (const QString &next : node.next) {
                const int i = at.value(next, -1);
                if (i >= 0 && graph.nodes[i].layer < node.layer + 1) {
                    graph.nodes[i].layer = node.layer + 1;
                    moved = true;
                }
            }
        }
    }
    std::sort(graph.nodes.begin(), graph.nodes.end(),
              [](const Node &a, const Node &b) { return a.layer != b.layer ? a.layer < b.layer : a.name < b.name; });
    QHash<int, int> slots;
    for (Node &node : graph.nodes) {
        node.slot = slots[node.layer]++;
        graph.layers = std::max(graph.layers, node.layer + 1);
        graph.maxSlots = std::max(graph.maxSlots, node.slot + 1);
    }
    return graph;
}

const PipelineGraph::Node *PipelineGraph::find(const QString &name) const
{
    for (const Node &node : nodes) {
        if (node.name == name)
            return &node;
    }
    return nullptr;
}

int PipelineGraph::edgeCount() const
{
    int n = 0;
    for (const Node &node : nodes) {
        for (const QString &next : node.next)
            n += find(next) ? 1 : 0;
    }
    return n;
}

} // namespace pepsi::console
