// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>
#include <QtGlobal>

namespace pepsi::bench {

// What /proc says about one process, read at one instant.
struct ProcessSample
{
    qint64 cpuUsec = 0;         // utime + stime of the process itself
    qint64 sysUsec = 0;         // the stime part: the kernel on its behalf
    qint64 reapedChildUsec = 0; // cutime + cstime: children it has waited for
    qint64 peakRssKiB = 0;      // VmHWM
    qint64 rssKiB = 0;          // VmRSS: resident now
    // Of its main thread (a Qt daemon's event loop): how often it went to sleep
    // (voluntary: each one a wake-up later) and how often the host took the
    // core from it (involuntary: noise, not design).
    qint64 mainThreadSleeps = 0;
    qint64 mainThreadPreempted = 0;
    bool valid = false;
};

ProcessSample sampleProcess(qint64 pid);

// utime + stime (+ cutime + cstime) of the live children of pid: a daemon's
// workers that have not exited yet.
qint64 liveChildrenCpuUsec(qint64 pid);

// Open file descriptors of pid (entries of /proc/PID/fd); -1 when unreadable.
int openDescriptors(qint64 pid);

// How many live children pid has: a daemon's worker processes.
int liveChildrenCount(qint64 pid);

// utime + stime of pid, of its children it has reaped and of its live
// children (with what they reaped): a postmaster and its backends.
qint64 processTreeCpuUsec(qint64 pid);

// The live children of pid, as every thread of it lists them.
QList<qint64> childPids(qint64 pid);

// utime + stime of pid and of everything under it, live or reaped: an sshd
// with its sessions and what they run.
qint64 subtreeCpuUsec(qint64 pid);

// The parent of pid (PPid in /proc/PID/status), 0 when unknown.
qint64 parentPid(qint64 pid);

// Whole-machine CPU counters from the first line of /proc/stat, in clock ticks.
struct MachineCpu
{
    qint64 busy = 0;
    qint64 total = 0;
};
MachineCpu sampleMachineCpu();
// Share of all cores busy between two samples, 0..1.
double busyShare(const MachineCpu &from, const MachineCpu &to);

// "0.52 0.61 0.70" from /proc/loadavg.
QString loadAverage();

} // namespace pepsi::bench
