// SPDX-License-Identifier: AGPL-3.0-or-later
#include "throughputplot.h"

#include "keyedtablemodel.h"
#include "throughputmodel.h"

#include <QLocale>
#include <QPainter>
#include <QPainterPath>
#include <cmath>

namespace pepsi::console {

using namespace Qt::StringLiterals;

double niceCeiling(double value)
{
    if (!(value > 0))
        return 1;
    const double magnitude = std::pow(10.0, std::floor(std::log10(value)));
    for (const double step : {1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0}) {
        if (value <= step * magnitude * (1 + 1e-9))
            return step * magnitude;
    }
    return 10 * magnitude;
}

ThroughputPlot::ThroughputPlot(ThroughputModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
{
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base);
    connect(model, &ThroughputModel::historyChanged, this, [this] { update(); });
}

void ThroughputPlot::setMinutes(int minutes)
{
    m_minutes = qBound(1, minutes, ThroughputModel::HistorySeconds / 60);
    update();
}

QColor ThroughputPlot::colorOf(const QString &stage) const
{
    static const QColor palette[] = {
        QColor(31, 119, 180), QColor(255, 127, 14),  QColor(44, 160, 44),   QColor(214, 39, 40),  QColor(148, 103, 189),
        QColor(140, 86, 75),  QColor(227, 119, 194), QColor(127, 127, 127), QColor(188, 189, 34), QColor(23, 190, 207)};
    const QStringList stages = m_model ? m_model->historyStages() : QStringList();
    const qsizetype i = stages.indexOf(stage);
    return palette[(i < 0 ? 0 : i) % std::size(palette)];
}

void ThroughputPlot::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette pal = palette();
    const QFontMetrics fm(font());
    if (!m_model || m_model->historyStages().isEmpty()) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No samples yet: the daemon sends one a second."));
        return;
    }
    // The axis spans the samples there are, from one minute up to m_minutes,
    // so that a console just opened does not squeeze its first seconds into a corner.
    const QDateTime end = m_model->lastSampleTime();
    QDateTime oldest = end;
    for (const QString &stage : m_model->historyStages()) {
        const auto samples = m_model->history(stage);
        if (!samples.isEmpty() && samples.first().time < oldest)
            oldest = samples.first().time;
    }
    const int minutes = qBound(1, int((oldest.secsTo(end) + 59) / 60), m_minutes);
    const QDateTime start = end.addSecs(qint64(-60) * minutes);
    double top = 0;
    for (const QString &stage : m_model->historyStages()) {
        for (const auto &sample : m_model->history(stage)) {
            if (sample.time >= start)
                top = qMax(top, qMax(sample.rate, sample.failed));
        }
    }
    top = niceCeiling(top * 1.05);

    const int left = fm.horizontalAdvance(QLocale().toString(top, 'f', 0) + QStringLiteral("/s")) + 14;
    const QRectF plot(left, fm.height() + 8, width() - left - 16, height() - 2.5 * fm.height() - 16);
    if (plot.width() < 40 || plot.height() < 40)
        return;

    // Grid and axes.
    p.setPen(QPen(pal.color(QPalette::Midlight), 1));
    for (int i = 0; i <= 4; ++i) {
        const double y = plot.bottom() - plot.height() * i / 4;
        p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        p.save();
        p.setPen(pal.color(QPalette::Text));
        p.drawText(QRectF(0, y - fm.height() / 2.0, left - 6, fm.height()), Qt::AlignRight | Qt::AlignVCenter,
                   formatRate(top * i / 4));
        p.restore();
    }
    p.setPen(pal.color(QPalette::Text));
    // A tick every minute, or every 10 s on a one-minute axis.
    const int step = minutes == 1 ? 10 : 60;
    for (int t = 0; t <= minutes * 60; t += step) {
        const double x = plot.left() + plot.width() * (minutes * 60 - t) / (minutes * 60);
        // Not connected: the axis ends at the last sample, which is not "now".
        const QString endLabel = isEnabled() ? tr("now") : end.toLocalTime().toString(u"HH:mm:ss"_s);
        const QString label = t == 0 ? endLabel : step == 60 ? tr("−%1 min").arg(t / 60) : tr("−%1 s").arg(t);
        const double w = fm.horizontalAdvance(label);
        p.drawText(QPointF(qBound(0.0, x - w / 2, width() - w), plot.bottom() + fm.height() + 2), label);
    }
    p.setPen(QPen(pal.color(QPalette::Dark), 1));
    p.drawRect(plot);

    // Per stage a solid line of the runs that did not fail and, where some
    // failed, a dashed one of the failures; no line across a stretch without
    // samples (the console was not connected, or the daemon was away).
    const double span = double(start.msecsTo(end));
    p.save();
    p.setClipRect(plot.adjusted(-1, -1, 1, 1));
    for (const QString &stage : m_model->historyStages()) {
        const auto samples = m_model->history(stage);
        bool anyFailed = false;
        for (const auto &sample : samples)
            anyFailed |= sample.failed > 0;
        for (const bool failures : {false, true}) {
            if (failures && !anyFailed)
                continue;
            QPainterPath path;
            QDateTime previous;
            for (const auto &sample : samples) {
                if (sample.time < start)
                    continue;
                const double value = failures ? sample.failed : sample.rate;
                const QPointF point(plot.left() + plot.width() * double(start.msecsTo(sample.time)) / span,
                                    plot.bottom() - plot.height() * value / top);
                if (!previous.isValid() || previous.msecsTo(sample.time) > GapMs)
                    path.moveTo(point);
                else
                    path.lineTo(point);
                previous = sample.time;
            }
            QColor color = colorOf(stage);
            if (!isEnabled())
                color.setAlpha(90); // greyed with the rest of the window while not connected
            p.setPen(QPen(color, failures ? 2.5 : 2, failures ? Qt::DashLine : Qt::SolidLine));
            p.drawPath(path);
        }
    }
    p.restore();

    // The legend, top left inside the plot, with the current rate.
    double x = plot.left() + 8;
    const double y = plot.top() + 6;
    QStringList entries;
    for (const QString &stage : m_model->historyStages()) {
        const auto samples = m_model->history(stage);
        const double failed = samples.isEmpty() ? 0 : samples.last().failed;
        const QString rate = formatRate(samples.isEmpty() ? 0 : samples.last().rate);
        entries.append(failed > 0 ? tr("%1 %2, failing %3 (dashed)").arg(stage, rate, formatRate(failed))
                                  : tr("%1 %2").arg(stage, rate));
    }
    double legendWidth = 16;
    for (const QString &entry : entries)
        legendWidth += fm.horizontalAdvance(entry) + 34;
    p.setPen(QPen(pal.color(QPalette::Mid), 1));
    QColor back = pal.color(QPalette::Base);
    back.setAlpha(220);
    p.setBrush(back);
    p.drawRoundedRect(QRectF(x - 4, y - 3, legendWidth - 8, fm.height() + 6), 4, 4);
    const QStringList stages = m_model->historyStages();
    for (int i = 0; i < stages.size(); ++i) {
        p.setPen(QPen(colorOf(stages.at(i)), 3));
        p.drawLine(QPointF(x, y + fm.height() / 2.0), QPointF(x + 18, y + fm.height() / 2.0));
        x += 24;
        p.setPen(pal.color(QPalette::Text));
        p.drawText(QPointF(x, y + fm.ascent()), entries.at(i));
        x += fm.horizontalAdvance(entries.at(i)) + 10;
    }
    p.drawText(QRectF(0, 2, width() - 8, fm.height()), Qt::AlignRight,
               tr("runs per second per stage that did not fail (dashed: that failed), 10-second average, "
                  "last %n minute(s)",
                  nullptr, minutes));
}

} // namespace pepsi::console
