// SPDX-License-Identifier: AGPL-3.0-or-later
#include "workers/processgroup.h"

#include <csignal>
#include <unistd.h>

namespace pepsi::processgroup {

// Why kill(-leader) never reaches a group that is not the worker's:
//
// A group's id is its leader's pid, and the kernel does not hand a pid out
// again while any process still uses it, as its pid or as its group id. So
// while the leader is unreaped (alive, or a zombie), the group `leader` can
// only be the worker's. Every SIGTERM and SIGKILL of the stop escalation
// (WorkerEnding) is sent while QProcess still runs the process. Qt's forkfd
// reaps from the event loop (a pidfd, on Linux 5.4 and later), so the leader
// is unreaped then; where it reaps from its SIGCHLD handler instead, the
// reaped-leader case below applies, with finished() as close behind.
//
// After the leader is reaped, the group lives on exactly as long as a member
// of it does, and then the id still cannot be reused. It could only be reused
// once the group is empty, by a process that got that very pid and then made
// itself a group leader. WorkerProcess sends its last SIGKILL to the group in
// the same call chain as QProcess's reap (finished() is emitted right after
// it, before control returns to the event loop), and Linux allocates pids
// cyclically: a freed pid comes back only after the counter has gone round
// the whole pid space (pid_max), which no system does within one call chain.
// Waiting instead (a timer, a poll of /proc) would widen exactly that window;
// making the daemon a subreaper would close it, but would make it reap every
// orphan of every stage program itself, beside QProcess.
//
// A helper that leaves the group (setsid, setpgid) is on its own: the daemon
// neither knows nor signals it.

void adopt(qint64 leader)
{
    if (leader > 0)
        (void)::setpgid(pid_t(leader), pid_t(leader)); // EACCES: it has exec'd, and made it itself
}

bool signal(qint64 leader, int signal)
{
    if (leader <= 0)
        return false;
    // No fallback to kill(leader) on ESRCH: the group exists from adopt() on
    // while the leader is unreaped, so ESRCH means the leader is reaped too,
    // and its pid is then exactly what must not be signalled.
    return ::kill(-pid_t(leader), signal) == 0;
}

} // namespace pepsi::processgroup
