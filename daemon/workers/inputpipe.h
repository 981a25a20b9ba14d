// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "workers/pipeends.h"

#include <QByteArray>
#include <QObject>
#include <QString>

class QSocketNotifier;

namespace pepsi {

// A worker's stdin, written by us rather than through QProcess. QProcess
// defers every write to a later pass of the event loop (its write notifier
// switched on and off for each batch of ids); a batch is a few bytes into a
// pipe that is almost always empty, so it is written at once, and only what
// the pipe does not take waits for the descriptor to become writable.
class InputPipe : public QObject
{
    Q_OBJECT

public:
    explicit InputPipe(QObject *parent = nullptr);
    ~InputPipe() override;
    InputPipe(const InputPipe &) = delete;
    InputPipe &operator=(const InputPipe &) = delete;

    // Makes the pipe; false with `error` set when the system refuses.
    bool open(QString *error);
    // The end the child reads: dup2 it onto STDIN_FILENO between fork and exec
    // (see adoptAsStdin). Never 0, 1 or 2.
    int childEnd() const { return m_ends.child(); }
    // After the fork: the child holds its own copy of the read end.
    void releaseChildEnd();

    // Between fork and exec, async-signal-safe: makes `fd` the child's stdin.
    static void adoptAsStdin(int fd);

    void write(const QByteArray &data);
    // Written by us but not yet taken by the pipe.
    qint64 bytesToWrite() const { return m_pending.size(); }
    // End of input for the reader, once what is pending is written.
    void close();

Q_SIGNALS:
    // Nobody reads the other end any more (the worker closed its stdin or is
    // gone), or another write error: what was not written is dropped.
    void broken(const QString &why);

private:
    void flush();
    void closeWriteEnd();

    PipeEnds m_ends; // ours is the write end
    QByteArray m_pending;
    QSocketNotifier *m_writable = nullptr;
    bool m_closeWhenFlushed = false;
};

} // namespace pepsi
