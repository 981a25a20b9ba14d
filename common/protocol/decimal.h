// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QByteArrayView>
#include <QtGlobal>

#include <limits>
#include <optional>

namespace pepsi {

// ASCII digits as a number no larger than `max`; nothing when the text is
// empty, holds anything but a digit (no sign, no blank) or has more than 18
// digits, so that it never overflows. What the worker protocol's numbers are
// read with on both of its ends: the worker's ids, the status line's figures.
std::optional<qint64> parseDecimal(QByteArrayView digits, qint64 max = std::numeric_limits<qint64>::max());

} // namespace pepsi
