// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <algorithm>

namespace pepsi {

// Splits what a worker writes into lines and keeps at most maxLineBytes of
// each (its head); the rest of a longer line is counted and dropped up to its
// newline. However much a worker writes, with or without newlines, this holds
// at most maxLineBytes.
class LineSplitter
{
public:
    explicit LineSplitter(qsizetype maxLineBytes)
        : m_max(maxLineBytes)
    { }

    // Calls onLine(QByteArrayView head, bool cut) for every line `data`
    // completes, in order; stops at once when onLine returns false (the rest
    // of `data` is dropped).
    template<typename OnLine>
    void feed(QByteArrayView data, OnLine &&onLine)
    {
        while (!data.isEmpty()) {
            const qsizetype newline = data.indexOf('\n');
            const QByteArrayView part = newline < 0 ? data : data.first(newline);
            const qsizetype room = m_max - m_line.size();
            m_line.append(part.first(std::min(room, part.size())));
            if (part.size() > room)
                m_dropped += part.size() - room;
            if (newline < 0)
                return;
            const bool more = onLine(QByteArrayView(m_line), m_dropped > 0);
            clear();
            if (!more)
                return;
            data = data.sliced(newline + 1);
        }
    }

    // The head of the line not finished yet.
    QByteArrayView pending() const { return m_line; }
    bool pendingCut() const { return m_dropped > 0; }
    void clear()
    {
        m_line.resize(0); // keeps the buffer: no allocation per line
        m_dropped = 0;
    }

private:
    qsizetype m_max;
    QByteArray m_line;
    qsizetype m_dropped = 0;
};

} // namespace pepsi
