// SPDX-License-Identifier: AGPL-3.0-or-later
#include "statusbartext.h"

#include <QFontMetrics>
#include <QStatusBar>

namespace pepsi::console {

void showStatusText(QStatusBar *bar, const QWidget *permanent, const QString &message, int timeoutMs)
{
    // The bar's own margins and the size grip, roughly: what QStatusBar keeps
    // around the message besides the permanent widget.
    constexpr int Margins = 40;
    const int room = bar->width() - (permanent && permanent->isVisible() ? permanent->sizeHint().width() : 0) - Margins;
    const QString shown = QFontMetrics(bar->font()).elidedText(message, Qt::ElideRight, std::max(room, 80));
    bar->setToolTip(shown == message ? QString() : message);
    bar->showMessage(shown, timeoutMs);
}

} // namespace pepsi::console
