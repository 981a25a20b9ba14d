// SPDX-License-Identifier: AGPL-3.0-or-later
#include "protocol/decimal.h"

namespace pepsi {

std::optional<qint64> parseDecimal(QByteArrayView digits, qint64 max)
{
    if (digits.isEmpty() || digits.size() > 18)
        return std::nullopt;
    qint64 value = 0;
    for (char c : digits) {
        if (c < '0' || c > '9')
            return std::nullopt;
        value = value * 10 + (c - '0');
    }
    if (value > max)
        return std::nullopt;
    return value;
}

} // namespace pepsi
