// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QString>

class QStatusBar;
class QWidget;

namespace pepsi::console {

// Shows `message` in `bar` for `timeoutMs`, shortened with "…" to the room
// the permanent widget leaves (QStatusBar would cut it mid-word without a
// sign); the whole message is the bar's tooltip until the next one.
void showStatusText(QStatusBar *bar, const QWidget *permanent, const QString &message, int timeoutMs);

} // namespace pepsi::console
