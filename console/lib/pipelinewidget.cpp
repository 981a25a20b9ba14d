// SPDX-License-Identifier: AGPL-3.0-or-later
#include "pipelinewidget.h"

#include "control/protocol.h"

#include "poolmodel.h"
#include "queuemodel.h"
#include "throughputmodel.h"

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QtMath>

namespace pepsi::console {

using namespace Qt::StringLiterals;
namespace field = protocol::field;

namespace {
constexpr double BoxWidth = 210;
constexpr double BoxHeight = 160;
constexpr double ColumnGap = 90;
constexpr double RowGap = 36;
constexpr double Margin = 24;
} // namespace

PipelineWidget::PipelineWidget(PoolModel *pools, QueueModel *queues, ThroughputModel *throughput, QWidget *parent)
    : QWidget(parent)
    , m_pools(pools)
    , m_queues(queues)
    , m_throughput(throughput)
{
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base);
    const auto repaint = [this] { update(); };
    connect(pools, &KeyedTableModel::flushed, this, repaint);
    connect(queues, &KeyedTableModel::flushed, this, repaint);
    connect(throughput, &KeyedTableModel::flushed, this, repaint);
}

void PipelineWidget::setGraph(const PipelineGraph &graph)
{
    m_graph = graph;
    updateGeometry();
    update();
}

void PipelineWidget::setTotals(const StatsSnapshot &stats, const PoolTotals &pools)
{
    m_totals = stats;
    m_poolTotals = pools;
    update();
}

QString PipelineWidget::totalsLine() const
{
    if (!m_totals)
        return {};
    // `messages` counts every message that left the pipeline, failed ones too.
    const qint64 failed = m_throughput ? m_throughput->failedTotal() : 0;
    const qint64 done = qMax<qint64>(0, m_totals->messages - failed);
    return tr("%1 stage runs (10 s), %L2 messages in flight, %L3 of %L4 workers busy; since start %L5 messages done, "
              "%L6 failed or timed out")
        .arg(formatRate(m_totals->rate10s))
        .arg(m_poolTotals.inFlight)
        .arg(m_poolTotals.busy)
        .arg(m_poolTotals.workers)
        .arg(done)
        .arg(failed);
}

QStringList PipelineWidget::stageNames() const
{
    QStringList names;
    for (const auto &node : m_graph.nodes)
        names.append(node.name);
    return names;
}

QStringList PipelineWidget::lines(const QString &stage) const
{
    const PoolSnapshot pool = m_pools ? m_pools->record(stage) : PoolSnapshot();
    // No row: the counts are not known (the database was down since the console connected).
    const bool counted = m_queues && m_queues->contains(stage);
    const StageQueue queue = counted ? m_queues->record(stage).queue : StageQueue();
    const StageStatsSnapshot stats = m_throughput ? m_throughput->record(stage).stats : StageStatsSnapshot();
    QStringList out;
    out << tr("workers %1 busy / %2 cap").arg(pool.busy).arg(pool.parallelism);
    out << tr("in flight %1 / %2").arg(pool.inFlight).arg(pool.capacity);
    out << (counted ? tr("pending %L1").arg(queue.pending) : tr("pending ?"));
    const double failing = m_throughput ? m_throughput->failureRate(stage) : 0;
    const double rate = stats.rate10s;
    // One figure a line: a box is narrow, and German words are long.
    if (m_throughput && m_throughput->contains(stage)) {
        out << tr("done %1").arg(formatRate(qMax(0.0, rate - failing)));
        out << tr("failing %1").arg(formatRate(failing));
    } else {
        out << tr("done ?") << tr("failing ?"); // no statistics of the stage yet
    }
    out << (counted ? tr("failed %L1").arg(queue.failed) : tr("failed ?"));
    out << (counted ? tr("timed out %L1").arg(queue.timeout) : tr("timed out ?"));
    return out;
}

QList<bool> PipelineWidget::alarmLines(const QString &stage) const
{
    QList<bool> alarm(lines(stage).size(), false);
    if (isStale() || alarm.size() < 7)
        return alarm;
    const StageQueue queue = m_queues ? m_queues->record(stage).queue : StageQueue();
    alarm[4] = m_throughput && m_throughput->isFailing(stage);
    alarm[5] = queue.failed > 0;
    alarm[6] = queue.timeout > 0;
    return alarm;
}

QSizeF PipelineWidget::logicalSize() const
{
    const int layers = qMax(1, m_graph.layers);
    const int slots = qMax(1, m_graph.maxSlots);
    return {2 * Margin + layers * BoxWidth + (layers - 1) * ColumnGap,
            2 * Margin + slots * BoxHeight + (slots - 1) * RowGap};
}

QRectF PipelineWidget::logicalBox(const PipelineGraph::Node &node) const
{
    // Columns with fewer stages are centred against the tallest one.
    int inLayer = 0;
    for (const auto &other : m_graph.nodes)
        inLayer += other.layer == node.layer ? 1 : 0;
    const double columnHeight = inLayer * BoxHeight + (inLayer - 1) * RowGap;
    const double top = Margin + (logicalSize().height() - 2 * Margin - columnHeight) / 2;
    return {Margin + node.layer * (BoxWidth + ColumnGap), top + node.slot * (BoxHeight + RowGap), BoxWidth, BoxHeight};
}

double PipelineWidget::scale() const
{
    const QSizeF size = logicalSize();
    // Shrinks to fit; grows a little on a big window, but not into a poster.
    return qMin(1.5, qMin(width() / size.width(), height() / size.height()));
}

QPointF PipelineWidget::offset() const
{
    const QSizeF size = logicalSize() * scale();
    return {qMax(0.0, (width() - size.width()) / 2), qMax(0.0, (height() - size.height()) / 2)};
}

QRectF PipelineWidget::boxOf(const QString &stage) const
{
    const auto *node = m_graph.find(stage);
    if (!node)
        return {};
    const QRectF box = logicalBox(*node);
    const double s = scale();
    return {offset() + box.topLeft() * s, box.size() * s};
}

QSize PipelineWidget::sizeHint() const { return logicalSize().toSize(); }

QSize PipelineWidget::minimumSizeHint() const { return {320, 200}; }

void PipelineWidget::setSelectedStage(const QString &stage)
{
    if (m_selected == stage)
        return;
    m_selected = stage;
    update();
}

void PipelineWidget::setStale(const QDateTime &lastData)
{
    m_staleSince = lastData;
    update();
}

void PipelineWidget::mousePressEvent(QMouseEvent *event)
{
    for (const auto &node : std::as_const(m_graph.nodes)) {
        if (boxOf(node.name).contains(event->position())) {
            setSelectedStage(node.name);
            Q_EMIT stageSelected(node.name);
            return;
        }
    }
    QWidget::mousePressEvent(event);
}

void PipelineWidget::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette pal = palette();
    if (m_graph.nodes.isEmpty()) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No pipeline yet: waiting for the daemon."));
        return;
    }
    const bool stale = isStale();
    QString totals = totalsLine();
    if (stale)
        totals = tr("Not connected: these figures are from %1 and no longer live.")
                     .arg(m_staleSince.toLocalTime().toString(u"HH:mm:ss"_s));
    if (!totals.isEmpty()) {
        p.setPen(stale ? QColor(178, 106, 0) : pal.color(QPalette::Text));
        p.drawText(rect().adjusted(12, 8, -12, -8), Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, totals);
    }
    const QColor greyText = pal.color(QPalette::PlaceholderText);
    p.translate(offset());
    p.scale(scale(), scale());

    // Edges first, under the boxes: as thick as the source's rate (log scale).
    for (const auto &node : std::as_const(m_graph.nodes)) {
        const QRectF from = logicalBox(node);
        const double rate = m_throughput ? m_throughput->record(node.name).stats.rate10s : 0;
        const double thickness = 1.5 + qMin(6.0, std::log10(1.0 + rate) * 2.0);
        for (const QString &nextName : node.next) {
            const auto *next = m_graph.find(nextName);
            if (!next)
                continue;
            const QRectF to = logicalBox(*next);
            const QPointF a(from.right(), from.center().y());
            const QPointF b(to.left() - 2, to.center().y());
            QPainterPath path(a);
            const double dx = (b.x() - a.x()) / 2;
            path.cubicTo(a + QPointF(dx, 0), b - QPointF(dx, 0), b - QPointF(8, 0));
            const QColor edge = rate > 0 && !stale ? QColor(33, 120, 200) : pal.color(QPalette::Mid);
            p.setPen(QPen(edge, thickness, Qt::SolidLine, Qt::RoundCap));
            p.setBrush(Qt::NoBrush);
            p.drawPath(path);
            QPolygonF head;
            head << b << b + QPointF(-12, -6 - thickness / 2) << b + QPointF(-12, 6 + thickness / 2);
            p.setPen(Qt::NoPen);
            p.setBrush(edge);
            p.drawPolygon(head);
        }
    }

    QFont titleFont = font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(font().pointSizeF() * 1.15);
    const QFontMetricsF titleMetrics(titleFont);
    const QFontMetricsF metrics(font());

    for (const auto &node : std::as_const(m_graph.nodes)) {
        const QRectF box = logicalBox(node);
        const PoolSnapshot pool = m_pools ? m_pools->record(node.name) : PoolSnapshot();
        const QString state = PoolModel::stateOf(pool);
        const bool growing = m_queues && m_queues->isGrowing(node.name);
        const bool failing = m_throughput && m_throughput->isFailing(node.name);

        QColor fill = pal.color(QPalette::AlternateBase);
        QColor border = pal.color(QPalette::Dark);
        Qt::PenStyle style = Qt::SolidLine;
        QString badge;
        QColor badgeColor;
        if (state == field::Cooldown) {
            fill = QColor(255, 228, 196);
            border = QColor(214, 120, 0);
            badge = tr("COOLDOWN");
            badgeColor = border;
        } else if (state == field::Drained) {
            fill = QColor(226, 226, 226);
            border = QColor(110, 110, 110);
            style = Qt::DashLine;
            badge = tr("DRAINED");
            badgeColor = border;
        } else if (state == field::Retired) {
            style = Qt::DotLine;
            badge = tr("RETIRED");
            badgeColor = border;
        }
        if (failing) {
            fill = QColor(255, 220, 220);
            border = QColor(176, 0, 32);
            if (badge.isEmpty()) {
                badge = tr("FAILING");
                badgeColor = border;
            }
        }
        if (stale) {
            fill = pal.color(QPalette::Window);
            border = pal.color(QPalette::Mid);
            badgeColor = pal.color(QPalette::Mid);
        }
        const bool selected = node.name == m_selected;
        p.setPen(QPen(selected ? pal.color(QPalette::Highlight) : border, selected ? 3 : 1.5, style));
        p.setBrush(fill);
        p.drawRoundedRect(box, 8, 8);

        const QColor text = stale         ? greyText
            : state.isEmpty() && !failing ? pal.color(QPalette::Text)
                                          : QColor(Qt::black);
        const QRectF inner = box.adjusted(10, 8, -10, -8);
        p.setFont(titleFont);
        p.setPen(text);
        p.drawText(QRectF(inner.topLeft(), QSizeF(inner.width(), titleMetrics.height())), Qt::AlignLeft,
                   titleMetrics.elidedText(node.name, Qt::ElideRight, inner.width() - 80));
        if (!badge.isEmpty()) {
            p.setFont(font());
            const double w = metrics.horizontalAdvance(badge) + 10;
            const QRectF badgeRect(inner.right() - w, inner.top(), w, metrics.height() + 2);
            p.setPen(Qt::NoPen);
            p.setBrush(badgeColor);
            p.drawRoundedRect(badgeRect, 4, 4);
            p.setPen(Qt::white);
            p.drawText(badgeRect, Qt::AlignCenter, badge);
        }

        // The busy bar: busy workers against the cap.
        const int busy = pool.busy;
        const int cap = qMax(1, pool.parallelism);
        const QRectF bar(inner.left(), inner.top() + titleMetrics.height() + 4, inner.width(), 6);
        p.setPen(Qt::NoPen);
        p.setBrush(pal.color(QPalette::Midlight));
        p.drawRect(bar);
        p.setBrush(stale ? pal.color(QPalette::Mid) : failing ? QColor(176, 0, 32) : QColor(46, 160, 67));
        p.drawRect(QRectF(bar.topLeft(), QSizeF(bar.width() * qMin(1.0, double(busy) / cap), bar.height())));

        p.setFont(font());
        double y = bar.bottom() + 4;
        const QStringList texts = lines(node.name);
        const QList<bool> alarms = alarmLines(node.name);
        for (int i = 0; i < texts.size(); ++i) {
            // The backlog line turns orange while it grows; failures are red.
            QColor pen = text;
            if (!stale && i == 2 && growing)
                pen = QColor(200, 90, 0);
            else if (alarms.value(i))
                pen = QColor(176, 0, 32);
            p.setPen(pen);
            p.drawText(QRectF(inner.left(), y, inner.width(), metrics.height()), Qt::AlignLeft,
                       metrics.elidedText(texts.at(i), Qt::ElideRight, inner.width()));
            y += metrics.height();
        }
    }
}

} // namespace pepsi::console
