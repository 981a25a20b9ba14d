// SPDX-License-Identifier: AGPL-3.0-or-later
// The report of pepsi-bench-console (consolerun.h).
#include "benchsetup.h"
#include "consolerun.h"
#include "controlpoller.h"

#include <algorithm>

namespace pepsi::bench {

namespace {

// CPU milliseconds per minute of a window.
double perMinute(qint64 usec, double seconds) { return seconds > 0 ? double(usec) / 1000.0 * 60.0 / seconds : 0; }

struct Split
{
    QList<double> cpuMsPerMin; // one per daemon
    QList<double> probeMs;     // every round trip of those daemons
    int skipped = 0;
};

// The daemons of a window that the console watched (or not), with their
// own CPU less what the same daemon used in the window without a console.
Split split(const ConsoleWindow &w, const ConsoleWindow &bare, bool watched, QList<double> *extra)
{
    Split s;
    for (qsizetype i = 0; i < w.daemonCpuUsec.size(); ++i) {
        if ((i < w.watched) != watched)
            continue;
        const double cpu = perMinute(w.daemonCpuUsec[i], w.seconds);
        s.cpuMsPerMin.append(cpu);
        if (extra)
            extra->append(cpu - perMinute(bare.daemonCpuUsec.value(i), bare.seconds));
        s.probeMs += w.probeMs.value(i);
        s.skipped += w.probeSkipped.value(i);
    }
    std::sort(s.probeMs.begin(), s.probeMs.end());
    return s;
}

// A difference, with its sign either way.
QString signedNum(double value) { return (value >= 0 ? QStringLiteral("+") : QString()) + num(value, 0); }

double mean(const QList<double> &values)
{
    if (values.isEmpty())
        return 0;
    double sum = 0;
    for (const double v : values)
        sum += v;
    return sum / double(values.size());
}

QString daemonsText(const Split &s)
{
    if (s.cpuMsPerMin.isEmpty())
        return QStringLiteral("%1").arg(QStringLiteral("-"), -44);
    return QStringLiteral("%1 ms/min  p50 %2 ms  p99 %3 ms")
        .arg(num(mean(s.cpuMsPerMin), 0), 6)
        .arg(num(percentile(s.probeMs, 0.50), 2), 6)
        .arg(num(percentile(s.probeMs, 0.99), 2), 6);
}

} // namespace

bool printConsoleReport(const ConsoleOptions &options, const ConsoleResult &r)
{
    if (r.windows.size() != 3)
        return false;
    const ConsoleWindow &bare = r.windows[0];
    out(QString());
    out(QStringLiteral("targets: %1").arg(r.targets.join(QStringLiteral("\n         "))));
    out(QString());
    out(QStringLiteral("per configuration, over its window (CPU as ms of CPU per minute; probe: each daemon's status "
                       "round trip, one every %1 ms):")
            .arg(options.probeEveryMs));
    out(QStringLiteral("  %1 %2 %3 %4 %5  %6  %7")
            .arg(QStringLiteral("configuration"), -22)
            .arg(QStringLiteral("console"), 8)
            .arg(QStringLiteral("its ssh"), 8)
            .arg(QStringLiteral("far side"), 8)
            .arg(QStringLiteral("ssh"), 3)
            .arg(QStringLiteral("watched daemons: CPU, probe"), -44)
            .arg(QStringLiteral("unwatched daemons: CPU, probe")));
    QList<double> extraOne;
    QList<double> extraAll;
    for (const ConsoleWindow &w : r.windows) {
        QList<double> *extra = w.watched == options.watchedInOne ? &extraOne : &extraAll;
        const Split watched = split(w, bare, true, w.watched == 0 ? nullptr : extra);
        const Split unwatched = split(w, bare, false, nullptr);
        out(QStringLiteral("  %1 %2 %3 %4 %5  %6  %7")
                .arg(w.name, -22)
                .arg(w.watched > 0 ? num(perMinute(w.consoleCpuUsec, w.seconds), 0) : QStringLiteral("-"), 8)
                .arg(w.watched > 0 ? num(perMinute(w.sshCpuUsec, w.seconds), 0) : QStringLiteral("-"), 8)
                .arg(num(perMinute(w.farSideCpuUsec, w.seconds), 0), 8)
                .arg(w.sshChildren, 3)
                .arg(daemonsText(watched), -44)
                .arg(daemonsText(unwatched)));
        if (watched.skipped + unwatched.skipped > 0)
            out(QStringLiteral("    (%1 probe ticks found the request before still unanswered)")
                    .arg(watched.skipped + unwatched.skipped));
    }
    const ConsoleWindow &one = r.windows[1];
    const ConsoleWindow &all = r.windows[2];
    const double consoleOne = perMinute(one.consoleCpuUsec, one.seconds);
    const double consoleAll = perMinute(all.consoleCpuUsec, all.seconds);
    const QList<double> bareProbe = split(bare, bare, false, nullptr).probeMs;
    const QList<double> allProbe = split(all, bare, true, nullptr).probeMs;
    out(QString());
    out(QStringLiteral("the console: %1 ms/min watching %2, %3 ms/min watching %4 (%5 ms/min a system; ssh clients "
                       "%6 ms/min more, the far side's sshd and bridges %7 ms/min)")
            .arg(num(consoleOne, 0))
            .arg(one.watched)
            .arg(num(consoleAll, 0))
            .arg(all.watched)
            .arg(num(consoleAll / std::max(1, all.watched), 0))
            .arg(num(perMinute(all.sshCpuUsec, all.seconds), 0))
            .arg(num(perMinute(all.farSideCpuUsec, all.seconds) - perMinute(bare.farSideCpuUsec, bare.seconds), 0)));
    out(QStringLiteral("a daemon, watched: %1 ms/min of its own CPU with the console of %2, %3 ms/min with the "
                       "console of %4 (against the same daemon unwatched)")
            .arg(signedNum(mean(extraOne)))
            .arg(one.watched)
            .arg(signedNum(mean(extraAll)))
            .arg(all.watched));
    out(QStringLiteral("a probe's status, every daemon watched by the console of %1: p50 %2 ms, p99 %3 ms; no "
                       "console: p50 %4 ms, p99 %5 ms")
            .arg(all.watched)
            .arg(num(percentile(allProbe, 0.50), 2), num(percentile(allProbe, 0.99), 2),
                 num(percentile(bareProbe, 0.50), 2), num(percentile(bareProbe, 0.99), 2)));
    out(QStringLiteral("rows fed: %1 in the last window (%2 a second into each system)")
            .arg(all.fed)
            .arg(options.feedPerSecond));
    out(QString());
    QStringList exits;
    for (const int code : r.daemonExitCodes)
        exits.append(QString::number(code));
    out(QStringLiteral("RESULT console_systems console1_ms_per_min=%1 console%2_ms_per_min=%3 ssh%2_ms_per_min=%4 "
                       "daemon_extra1_ms_per_min=%5 daemon_extra%2_ms_per_min=%6 probe_p50_ms=%7 probe_p99_ms=%8 "
                       "bare_probe_p50_ms=%9 bare_probe_p99_ms=%10 daemon_exits=%11")
            .arg(num(consoleOne, 0))
            .arg(all.watched)
            .arg(num(consoleAll, 0), num(perMinute(all.sshCpuUsec, all.seconds), 0), num(mean(extraOne), 0),
                 num(mean(extraAll), 0), num(percentile(allProbe, 0.50), 3), num(percentile(allProbe, 0.99), 3),
                 num(percentile(bareProbe, 0.50), 3))
            .arg(num(percentile(bareProbe, 0.99), 3), exits.join(u',')));
    return std::all_of(r.daemonExitCodes.cbegin(), r.daemonExitCodes.cend(), [](int code) { return code == 0; });
}

} // namespace pepsi::bench
