// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <chrono>

namespace pepsi {

// How long a stage whose PROGRAM cannot start (or whose workers die before
// answering anything) is held off: doubling from 1 s, capped at 60 s.
constexpr std::chrono::milliseconds cooldownDelay(int consecutiveFailures)
{
    using namespace std::chrono_literals;
    constexpr std::chrono::milliseconds first = 1s;
    constexpr std::chrono::milliseconds cap = 60s;
    if (consecutiveFailures <= 1)
        return first;
    const int doublings = consecutiveFailures - 1 > 16 ? 16 : consecutiveFailures - 1;
    const std::chrono::milliseconds delay = first * (1 << doublings);
    return delay > cap ? cap : delay;
}

} // namespace pepsi
