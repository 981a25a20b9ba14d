// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "workers/pipeends.h"

#include <QByteArrayView>
#include <QObject>
#include <QString>

class QSocketNotifier;

namespace pepsi {

// A worker's stdout, read by us rather than through QProcess. QProcess asks
// the kernel how much is there (FIONREAD), reads it into its ring buffer and
// signals; readAllStandardOutput() then copies it into a new QByteArray: per
// answer two more system calls' worth of work and two allocations, in the
// daemon's busiest path. Here one read() into a buffer all pipes share (they
// are read on the dispatch thread only), handed out as a view.
class OutputPipe : public QObject
{
    Q_OBJECT

public:
    // The most one read() takes: a pipe's default capacity.
    static constexpr qsizetype ChunkBytes = 65536;

    explicit OutputPipe(QObject *parent = nullptr);
    ~OutputPipe() override;
    OutputPipe(const OutputPipe &) = delete;
    OutputPipe &operator=(const OutputPipe &) = delete;

    // Makes the pipe; false with `error` set when the system refuses. It is
    // not watched yet: see watch().
    bool open(QString *error);
    // From now on readyRead() says when there is something to read.
    void watch();
    // The end the child writes: dup2 it onto STDOUT_FILENO between fork and
    // exec (see adoptAsStdout). Never 0, 1 or 2.
    int childEnd() const { return m_ends.child(); }
    // After the fork: the child holds its own copy of the write end.
    void releaseChildEnd();
    // Between fork and exec, async-signal-safe: makes `fd` the child's stdout.
    static void adoptAsStdout(int fd);

    // One read of what the pipe holds, at most ChunkBytes; empty when nothing
    // is there, at its end (every writer gone) or after close(). The view is
    // valid until the next read of any OutputPipe: use it before anything else.
    QByteArrayView read();
    // Stops watching and closes our end; later reads return nothing.
    void close();

Q_SIGNALS:
    // Something to read (or the end of it).
    void readyRead();

private:
    PipeEnds m_ends; // ours is the read end
    QSocketNotifier *m_readable = nullptr;
};

} // namespace pepsi
