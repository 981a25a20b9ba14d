// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "control/protocol.h"

#include <QByteArray>
#include <QByteArrayView>
#include <functional>

namespace pepsi::protocol {

// Cuts a byte stream into JSON lines under the protocol's one limit (a line
// is at most maxLine bytes with its newline). Both ends of the control socket
// read through it, so that they agree on what is too long whatever way the
// bytes were split into reads. It keeps only the unfinished tail of the last
// feed, and never more than a line may be long: a tail that can no longer end
// within the limit is refused at once, before its newline comes.
class LineFramer
{
public:
    enum class Outcome {
        Ok,      // every complete line was handed out; an unfinished one waits
        Stopped, // the handler asked to stop; the rest of this feed is left unread (consumed() says where)
        TooLong, // a line passes the limit; the framer is reset, the rest dropped
    };
    // Gets each complete line without its newline (blank ones included);
    // returns false to stop.
    using LineHandler = std::function<bool(QByteArrayView line)>;

    explicit LineFramer(qsizetype maxLine = MaxLine)
        : m_maxLine(maxLine)
    { }

    Outcome feed(QByteArrayView bytes, const LineHandler &onLine);
    void reset() { m_partial.clear(); }
    qsizetype maxLine() const { return m_maxLine; }
    qsizetype buffered() const { return m_partial.size(); }
    // How many bytes of the last feed were taken (all of them unless it stopped).
    qsizetype consumed() const { return m_consumed; }

private:
    qsizetype m_maxLine;
    QByteArray m_partial; // the start of a line whose newline has not come yet
    qsizetype m_consumed = 0;
};

} // namespace pepsi::protocol
