// SPDX-License-Identifier: AGPL-3.0-or-later
#include "procstats.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QList>

#include <unistd.h>

namespace pepsi::bench {

namespace {

QByteArray readProcFile(const QString &path)
{
    QFile file(path);
    // /proc files report size 0: read until EOF, not size().
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

qint64 ticksToUsec(qint64 ticks)
{
    static const qint64 perSecond = ::sysconf(_SC_CLK_TCK);
    return ticks * 1'000'000 / perSecond;
}

// Fields of /proc/PID/stat after "(comm)", which may itself hold spaces:
// index 0 is field 3 (state), so utime (field 14) is index 11.
QList<QByteArray> statFields(qint64 pid)
{
    const QByteArray stat = readProcFile(QStringLiteral("/proc/%1/stat").arg(pid));
    const qsizetype close = stat.lastIndexOf(')');
    if (close < 0)
        return {};
    return stat.mid(close + 2).trimmed().split(' ');
}

qint64 cpuTicks(const QList<QByteArray> &fields, bool withChildren)
{
    if (fields.size() < 15)
        return 0;
    qint64 ticks = fields[11].toLongLong() + fields[12].toLongLong();
    if (withChildren)
        ticks += fields[13].toLongLong() + fields[14].toLongLong();
    return ticks;
}

} // namespace

ProcessSample sampleProcess(qint64 pid)
{
    ProcessSample sample;
    const QList<QByteArray> fields = statFields(pid);
    if (fields.size() < 15)
        return sample;
    sample.cpuUsec = ticksToUsec(cpuTicks(fields, false));
    sample.sysUsec = ticksToUsec(fields[12].toLongLong());
    sample.reapedChildUsec = ticksToUsec(fields[13].toLongLong() + fields[14].toLongLong());
    const QByteArray status = readProcFile(QStringLiteral("/proc/%1/status").arg(pid));
    for (const QByteArray &line : status.split('\n')) {
        if (line.startsWith("VmHWM:"))
            sample.peakRssKiB = line.mid(6).trimmed().split(' ').value(0).toLongLong();
        else if (line.startsWith("VmRSS:"))
            sample.rssKiB = line.mid(6).trimmed().split(' ').value(0).toLongLong();
        else if (line.startsWith("voluntary_ctxt_switches:"))
            sample.mainThreadSleeps = line.mid(24).trimmed().toLongLong();
        else if (line.startsWith("nonvoluntary_ctxt_switches:"))
            sample.mainThreadPreempted = line.mid(27).trimmed().toLongLong();
    }
    sample.valid = true;
    return sample;
}

qint64 processTreeCpuUsec(qint64 pid)
{
    const QList<QByteArray> fields = statFields(pid);
    if (fields.size() < 15)
        return 0;
    return ticksToUsec(cpuTicks(fields, true)) + liveChildrenCpuUsec(pid);
}

qint64 parentPid(qint64 pid)
{
    const QByteArray status = readProcFile(QStringLiteral("/proc/%1/status").arg(pid));
    for (const QByteArray &line : status.split('\n')) {
        if (line.startsWith("PPid:"))
            return line.mid(5).trimmed().toLongLong();
    }
    return 0;
}

qint64 liveChildrenCpuUsec(qint64 pid)
{
    qint64 ticks = 0;
    // Every thread lists its own children; a Qt daemon forks from its main thread,
    // but ask all of them.
    const QDir tasks(QStringLiteral("/proc/%1/task").arg(pid));
    for (const QString &task : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QByteArray children = readProcFile(tasks.filePath(task) + QStringLiteral("/children"));
        for (const QByteArray &child : children.simplified().split(' ')) {
            if (!child.isEmpty())
                ticks += cpuTicks(statFields(child.toLongLong()), true);
        }
    }
    return ticksToUsec(ticks);
}

QList<qint64> childPids(qint64 pid)
{
    QList<qint64> pids;
    const QDir tasks(QStringLiteral("/proc/%1/task").arg(pid));
    for (const QString &task : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QByteArray children = readProcFile(tasks.filePath(task) + QStringLiteral("/children"));
        for (const QByteArray &child : children.simplified().split(' ')) {
            if (!child.isEmpty())
                pids.append(child.toLongLong());
        }
    }
    return pids;
}

qint64 subtreeCpuUsec(qint64 pid)
{
    qint64 usec = ticksToUsec(cpuTicks(statFields(pid), true));
    for (const qint64 child : childPids(pid))
        usec += subtreeCpuUsec(child);
    return usec;
}

int openDescriptors(qint64 pid)
{
    const QDir fds(QStringLiteral("/proc/%1/fd").arg(pid));
    if (!fds.exists())
        return -1;
    return int(fds.entryList(QDir::AllEntries | QDir::System | QDir::NoDotAndDotDot).size());
}

int liveChildrenCount(qint64 pid)
{
    int count = 0;
    const QDir tasks(QStringLiteral("/proc/%1/task").arg(pid));
    for (const QString &task : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QByteArray children = readProcFile(tasks.filePath(task) + QStringLiteral("/children"));
        for (const QByteArray &child : children.simplified().split(' '))
            count += child.isEmpty() ? 0 : 1;
    }
    return count;
}

MachineCpu sampleMachineCpu()
{
    const QByteArray stat = readProcFile(QStringLiteral("/proc/stat"));
    const QList<QByteArray> fields = stat.left(stat.indexOf('\n')).simplified().split(' ');
    MachineCpu cpu;
    // cpu user nice system idle iowait irq softirq steal ...
    for (qsizetype i = 1; i < fields.size() && i <= 8; ++i) {
        const qint64 value = fields[i].toLongLong();
        cpu.total += value;
        if (i != 4 && i != 5)
            cpu.busy += value;
    }
    return cpu;
}

double busyShare(const MachineCpu &from, const MachineCpu &to)
{
    const qint64 total = to.total - from.total;
    return total > 0 ? double(to.busy - from.busy) / double(total) : 0.0;
}

QString loadAverage()
{
    const QList<QByteArray> fields = readProcFile(QStringLiteral("/proc/loadavg")).split(' ');
    return QString::fromLatin1(fields.mid(0, 3).join(' '));
}

} // namespace pepsi::bench
