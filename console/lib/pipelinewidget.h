// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "pipelinegraph.h"

#include <QDateTime>
#include <QPointer>
#include <QRectF>
#include <QWidget>
#include <optional>

namespace pepsi::console {

class PoolModel;
class QueueModel;
class ThroughputModel;

// The pipeline drawn as boxes and arrows (QPainter): per stage the busy
// workers against the cap, messages in flight, the pending backlog, the runs
// that ended well and the failures per second, and the failed and timed-out
// rows; arrows as thick as the flow along them. Cooldown and drained stages
// are marked, a stage whose runs mostly fail is red. While the console is not
// connected everything is grey and says how old it is. A click selects a stage.
class PipelineWidget : public QWidget
{
    Q_OBJECT

public:
    PipelineWidget(PoolModel *pools, QueueModel *queues, ThroughputModel *throughput, QWidget *parent = nullptr);

    void setGraph(const PipelineGraph &graph);
    // The daemon's totals, for the line above the graph: its statistics (of
    // the last `status`) and its pools' sums (of the last `status` or `tick`).
    void setTotals(const StatsSnapshot &stats, const PoolTotals &pools);
    QString totalsLine() const;
    const PipelineGraph &graph() const { return m_graph; }
    QStringList stageNames() const;
    // The text lines drawn in a stage's box (also its accessible description).
    QStringList lines(const QString &stage) const;
    // Which of lines() are drawn as an alarm (red): failing now, and the
    // failed and the timed-out backlog each only above zero.
    QList<bool> alarmLines(const QString &stage) const;
    // Where the stage's box is, in widget coordinates; empty when not shown.
    QRectF boxOf(const QString &stage) const;
    QString selectedStage() const { return m_selected; }
    void setSelectedStage(const QString &stage);
    // The figures are from `lastData` and no longer live (invalid: they are live).
    void setStale(const QDateTime &lastData);
    bool isStale() const { return m_staleSince.isValid(); }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    void stageSelected(const QString &stage);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;

private:
    // The layout in unscaled coordinates, and the transform onto the widget.
    QRectF logicalBox(const PipelineGraph::Node &node) const;
    QSizeF logicalSize() const;
    double scale() const;
    QPointF offset() const;

    QPointer<PoolModel> m_pools;
    QPointer<QueueModel> m_queues;
    QPointer<ThroughputModel> m_throughput;
    PipelineGraph m_graph;
    std::optional<StatsSnapshot> m_totals;
    PoolTotals m_poolTotals;
    QString m_selected;
    QDateTime m_staleSince;
};

} // namespace pepsi::console
