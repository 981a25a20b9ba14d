// SPDX-License-Identifier: AGPL-3.0-or-later
#include "control/lineframer.h"

namespace pepsi::protocol {

LineFramer::Outcome LineFramer::feed(QByteArrayView bytes, const LineHandler &onLine)
{
    const qsizetype total = bytes.size();
    m_consumed = total;
    while (!bytes.isEmpty()) {
        const qsizetype newline = bytes.indexOf('\n');
        const qsizetype taken = newline < 0 ? bytes.size() : newline;
        if (!fitsInLine(m_partial.size() + taken, m_maxLine)) {
            reset();
            return Outcome::TooLong;
        }
        if (newline < 0) {
            m_partial.append(bytes);
            return Outcome::Ok;
        }
        bool goOn = false;
        if (m_partial.isEmpty()) {
            goOn = onLine(bytes.first(newline));
        } else {
            m_partial.append(bytes.first(newline));
            const QByteArray line = std::exchange(m_partial, {});
            goOn = onLine(line);
        }
        bytes = bytes.sliced(newline + 1);
        if (!goOn) {
            reset();
            m_consumed = total - bytes.size();
            return Outcome::Stopped;
        }
    }
    return Outcome::Ok;
}

} // namespace pepsi::protocol
