// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "policy/backoff.h"

#include <chrono>

namespace pepsi {

// How long a stage whose PROGRAM cannot start (or whose workers die before
// answering anything) is held off: doubling from 1 s, capped at 60 s.
constexpr std::chrono::milliseconds cooldownDelay(int consecutiveFailures)
{
    using namespace std::chrono_literals;
    return Backoff{1s, 60s}.delay(consecutiveFailures);
}

} // namespace pepsi
