// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "result.h"

#include <QString>
#include <chrono>

namespace pepsi {

// "300 s", "5 min", "250 ms", "2h", "1 d"; a bare number is seconds.
// Units: ms, s, m, min, h, d (case-insensitive). Fractions ("1.5 s") are accepted.
// Negative or overflowing values are errors. The error is a reason without an origin.
Result<std::chrono::milliseconds, QString> parseRelativeTime(const QString &text);

// "300 s", "250 ms", "5 min": the shortest exact rendering, for logs and docs.
QString formatRelativeTime(std::chrono::milliseconds value);

} // namespace pepsi
