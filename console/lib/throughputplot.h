// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QColor>
#include <QPointer>
#include <QWidget>

namespace pepsi::console {

class ThroughputModel;

// Each stage's 10-second rate over the last few minutes, one line per stage
// (dashed: its failures), with a legend (QPainter; no Qt Charts dependency).
// Samples further apart than GapMs are not joined: the ticks stopped.
class ThroughputPlot : public QWidget
{
    Q_OBJECT

public:
    static constexpr qint64 GapMs = 3000;

    explicit ThroughputPlot(ThroughputModel *model, QWidget *parent = nullptr);

    void setMinutes(int minutes);
    int minutes() const { return m_minutes; }
    // The colour of a stage's line (stable: by the stage's place in the sorted names).
    QColor colorOf(const QString &stage) const;

    QSize sizeHint() const override { return {640, 260}; }
    QSize minimumSizeHint() const override { return {240, 140}; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QPointer<ThroughputModel> m_model;
    int m_minutes = 5;
};

// A round upper bound for an axis (1, 1.5, 2, 2.5, 3, 4, 5, 6, 8 × 10^n) at or above value.
double niceCeiling(double value);

} // namespace pepsi::console
