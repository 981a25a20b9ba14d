// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <chrono>

namespace pepsi {

// The one backoff of the project: a delay that doubles from `first` and never
// exceeds `cap`. Each user keeps its own numbers (a stage's cooldown, a
// reconnect to the database, outcomes waiting for a locked row, the console's
// reconnect to a peer that is not the daemon); the rule is written here once.
// Pure and constexpr, so a table of rows pins it (tests/unit/tst_backoff.cpp).
struct Backoff
{
    std::chrono::milliseconds first;
    std::chrono::milliseconds cap;

    // The delay after `failures` failures in a row: `first` for the first
    // (and for 0 or fewer), doubled for each further one, at most `cap`.
    constexpr std::chrono::milliseconds delay(int failures) const
    {
        std::chrono::milliseconds value = first;
        // Stops doubling at the cap, so no count of failures can overflow.
        for (int n = 1; n < failures && value > std::chrono::milliseconds::zero() && value < cap; ++n)
            value *= 2;
        return value < cap ? value : cap;
    }

    // The delay that follows `previous`: twice it, at most `cap`; with none
    // before (0 or less), `first`, at most `cap`.
    constexpr std::chrono::milliseconds after(std::chrono::milliseconds previous) const
    {
        const std::chrono::milliseconds next = previous > std::chrono::milliseconds::zero() ? previous * 2 : first;
        return next < cap ? next : cap;
    }
};

} // namespace pepsi
