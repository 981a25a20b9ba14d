// SPDX-License-Identifier: AGPL-3.0-or-later
#include "workers/workerexit.h"

namespace pepsi {

WorkerExit WorkerExit::classify(const Facts &facts)
{
    WorkerExit exit;
    exit.lastStderrLine = facts.lastStderrLine;
    if (facts.crashed)
        exit.cause = QStringLiteral("crashed: signal %1").arg(facts.exitCode);
    else if (facts.heldIds || facts.exitCode != 0)
        exit.cause = QStringLiteral("exited with status %1 without answering").arg(facts.exitCode);

    if (facts.startTimedOut && facts.answered == 0) {
        // It never got to its input: no message is to blame.
        exit.kind = Kind::FailedToStart;
        exit.cause = QStringLiteral("did not read its input within %1 ms of starting").arg(facts.startTimeout.count());
    } else if (facts.condemned || facts.signalled) {
        // Condemned: its head was settled then, the rest never ran. Signalled
        // by us: however it ended, it was told to; what it held goes back.
        exit.kind = Kind::Stopped;
    } else if (facts.crashed) { // NOLINT(bugprone-branch-clone): the order of the tests decides, not the bodies
        // Stopping (input closed) or not: a crash fails the head.
        exit.kind = Kind::Died;
    } else if (facts.answered == 0 && (facts.exitCode != 0 || facts.heldIds)) {
        // It never got as far as answering: its configuration, a library, the
        // program itself. No message is to blame.
        exit.kind = Kind::FailedToStart;
        exit.cause = QStringLiteral("exited with status %1 before answering anything").arg(facts.exitCode);
    } else if (facts.exitCode != 0) {
        exit.kind = Kind::Died;
    } else if (facts.heldIds) {
        // Exit 0 holding ids: after we closed its input, what it did not run
        // goes back; on its own, the head is its last message.
        exit.kind = facts.inputClosed ? Kind::Stopped : Kind::Died;
    }
    return exit;
}

} // namespace pepsi
