// SPDX-License-Identifier: AGPL-3.0-or-later
// The report of pepsi-bench-bridge (bridgerun.h).
#include "benchsetup.h"
#include "bridgerun.h"
#include "controlpoller.h"

#include <algorithm>

namespace pepsi::bench {

namespace {

// doc/performance.rst: a status through the bridge at most this much slower at p99.
constexpr double TargetExtraP99Ms = 2.0;

struct Figures
{
    double p50 = 0;
    double p90 = 0;
    double p99 = 0;
    double max = 0;
};

Figures figures(QList<double> values)
{
    std::sort(values.begin(), values.end());
    return {percentile(values, 0.50), percentile(values, 0.90), percentile(values, 0.99),
            values.isEmpty() ? 0 : values.constLast()};
}

QString row(const QString &name, qsizetype count, const Figures &f)
{
    return QStringLiteral("  %1 %2  p50 %3 ms  p90 %4 ms  p99 %5 ms  max %6 ms")
        .arg(name, -34)
        .arg(count, 6)
        .arg(num(f.p50, 3), 8)
        .arg(num(f.p90, 3), 8)
        .arg(num(f.p99, 3), 8)
        .arg(num(f.max, 3), 8);
}

} // namespace

bool printBridgeReport(const BridgeOptions &options, const BridgeResult &r)
{
    const Figures local = figures(r.local);
    const Figures ssh = figures(r.ssh);
    const Figures freshLocal = figures(r.freshLocal);
    const Figures freshSsh = figures(r.freshSsh);
    out(QString());
    out(QStringLiteral("status round trip on one persistent stream (%1 rounds, %2 warm-up requests not counted):")
            .arg(options.rounds)
            .arg(options.warmUp));
    out(row(QStringLiteral("local socket"), r.local.size(), local));
    out(row(QStringLiteral("ssh session + pepsi-ctl bridge"), r.ssh.size(), ssh));
    const double extraP50 = ssh.p50 - local.p50;
    const double extraP99 = ssh.p99 - local.p99;
    out(QStringLiteral("  through the bridge: +%1 ms at p50, +%2 ms at p99 (target: at most +%3 ms at p99: %4)")
            .arg(num(extraP50, 3), num(extraP99, 3), num(TargetExtraP99Ms, 0),
                 extraP99 <= TargetExtraP99Ms ? QStringLiteral("met") : QStringLiteral("MISSED")));
    out(QStringLiteral("  opening the stream, to the first reply: local %1 ms, ssh %2 ms")
            .arg(num(r.localSetupMs, 1), num(r.sshSetupMs, 1)));
    out(QString());
    out(QStringLiteral("a fresh pepsi-ctl status process, start to exit (connect included):"));
    out(row(QStringLiteral("pepsi-ctl --socket PATH"), r.freshLocal.size(), freshLocal));
    out(row(QStringLiteral("pepsi-ctl --target ssh://…"), r.freshSsh.size(), freshSsh));
    out(QString());
    out(QStringLiteral("RESULT bridge local_p50_ms=%1 local_p99_ms=%2 ssh_p50_ms=%3 ssh_p99_ms=%4 extra_p99_ms=%5 "
                       "ssh_setup_ms=%6 fresh_local_p50_ms=%7 fresh_ssh_p50_ms=%8 daemon_exit=%9")
            .arg(num(local.p50, 3), num(local.p99, 3), num(ssh.p50, 3), num(ssh.p99, 3), num(extraP99, 3),
                 num(r.sshSetupMs, 1), num(freshLocal.p50, 1), num(freshSsh.p50, 1))
            .arg(r.daemonExitCode));
    return r.daemonExitCode == 0 && !r.local.isEmpty() && !r.ssh.isEmpty();
}

} // namespace pepsi::bench
