// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "backlogrun.h"
#include "scalechains.h"
#include "scalehistory.h"
#include "scalesoak.h"

#include <QString>

#include <optional>

namespace pepsi::bench {

// The parts that ran, as gnuplot data files, scripts and PNGs in `dir`:
// scale-chains.png (hops/s and daemon µs per hop against stages),
// scale-backlog.png (the claim round against the backlog), scale-history.png
// (hops/s against the finished rows, with the 0.9 x line) and scale-soak.png
// (the rate and dead tuples over the soak). Without gnuplot on PATH the data
// and scripts are still written. Returns the PNGs made, or the error.
Result<QStringList, QString> writeScalePlots(const QString &dir, const std::optional<ChainsResult> &chains,
                                             const std::optional<BacklogResult> &backlog,
                                             const std::optional<HistoryResult> &history,
                                             const std::optional<SoakResult> &soak);

} // namespace pepsi::bench
