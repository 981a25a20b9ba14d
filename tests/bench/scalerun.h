// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "benchoptions.h"

namespace pepsi::bench {

// pepsi-bench --scale: the parts of --scale-parts in turn, their tables, then
// the plots (--plot-dir). Returns the exit status: 0 when every part ran to
// its end, 1 when one failed (the parts after it do not run).
int runScale(const BenchOptions &options);

} // namespace pepsi::bench
