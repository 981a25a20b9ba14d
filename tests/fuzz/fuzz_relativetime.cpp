// SPDX-License-Identifier: AGPL-3.0-or-later
// Relative times ("300 s", "5 min", "1.5 h"): any text parses or is refused;
// what parses is never negative, and its rendering parses back to itself.
#include "config/relativetime.h"

#include <cstdint>
#include <cstdlib>

using namespace pepsi;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString text = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
    const auto parsed = parseRelativeTime(text);
    if (!parsed)
        return 0;
    if (parsed->count() < 0)
        std::abort();
    const auto again = parseRelativeTime(formatRelativeTime(*parsed));
    if (!again || *again != *parsed)
        std::abort();
    return 0;
}
