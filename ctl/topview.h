// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QString>
#include <chrono>

namespace pepsi::ctl::views {

// One frame of `pepsi-ctl top` from a `status` result: a title line (when,
// how often, how to quit: `q` when keys are read, else Ctrl-C), the status
// table (views::status) and per stage its runs, failures, timeouts and
// crashes since the daemon started, the failures in a row and the share of
// runs that failed over the last 10 s.
QString topFrame(const QJsonObject &status, std::chrono::milliseconds interval, bool keys);

} // namespace pepsi::ctl::views
