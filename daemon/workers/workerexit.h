// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QString>
#include <chrono>

namespace pepsi {

// What a worker's exit means for the ids it held: the pool requeues, fails
// the head, or holds the stage off according to its kind.
struct WorkerExit
{
    enum class Kind {
        Clean,         // exited 0 holding nothing
        Stopped,       // ended by us (idle, recycle, shutdown, condemned), holding ids it never ran
        Died,          // crashed, or exited holding ids after answering: the head fails
        FailedToStart, // never ran, or exited with a status before answering anything
    };

    // What is known of a process when it has ended.
    struct Facts
    {
        int exitCode = 0; // the signal's number when it crashed
        bool crashed = false;
        bool heldIds = false;       // ids were outstanding as it ended
        qint64 answered = 0;        // status lines it wrote for its ids
        bool startTimedOut = false; // it never read its input within the start timeout
        bool condemned = false;     // we killed it for a timeout or a protocol violation
        bool signalled = false;     // we sent it SIGTERM or SIGKILL
        bool inputClosed = false;   // we closed its input (it was asked to finish)
        std::chrono::milliseconds startTimeout{0};
        QString lastStderrLine; // quoted for the log
    };

    // The one place an exit is judged; pure, so a table of rows pins it.
    static WorkerExit classify(const Facts &facts);

    Kind kind = Kind::Clean;
    QString cause;          // "crashed: signal 9", "exited with status 2 without answering", "failed to start: ..."
    QString lastStderrLine; // the last line it wrote to stderr, cut for the log; empty: none
};

} // namespace pepsi
