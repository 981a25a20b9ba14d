// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QString>

namespace pepsi {

// The pipe behind one of a worker's standard streams, for InputPipe and
// OutputPipe: both ends close-on-exec and above descriptors 0-2 (an end that
// were 0 or 1 would be replaced by QProcess's own redirection in the child
// before we adopt it), ours non-blocking for the event loop, the child's as a
// program expects its stdin or stdout. Each end is closed once: by its
// close*() or, at the latest, with the object.
class PipeEnds
{
public:
    enum class Ours { ReadEnd, WriteEnd };

    PipeEnds() = default;
    ~PipeEnds();
    PipeEnds(const PipeEnds &) = delete;
    PipeEnds &operator=(const PipeEnds &) = delete;

    // Makes the pipe, keeping the `ours` end; false with `error` saying which
    // step failed and why (errno) when the system refuses, and then no end is
    // open.
    bool open(Ours ours, QString *error);
    int ours() const { return m_ours; }
    int child() const { return m_child; }
    // After the fork: the child holds its own copy.
    void closeChild();
    void closeOurs();

private:
    int m_ours = -1;
    int m_child = -1;
};

} // namespace pepsi
