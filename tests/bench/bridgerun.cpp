// SPDX-License-Identifier: AGPL-3.0-or-later
#include "bridgerun.h"

#include "benchsetup.h"
#include "bridgeprobe.h"
#include "controlpoller.h"
#include "sshserver.h"

#include <QElapsedTimer>
#include <QFile>
#include <QLocalSocket>
#include <QProcess>

#include <algorithm>
#include <memory>
#include <pwd.h>
#include <unistd.h>

namespace pepsi::bench {

namespace {

constexpr int ReplyTimeoutMs = 30'000;

QString ctlBinary(const BenchOptions &o) { return o.buildDir + QStringLiteral("/ctl/pepsi-ctl"); }

// One `pepsi-ctl ARGS status` from start to exit, in milliseconds.
Result<double, QString> freshStatus(const BenchOptions &o, const QStringList &where)
{
    QProcess ctl;
    ctl.setStandardOutputFile(QProcess::nullDevice());
    QElapsedTimer clock;
    clock.start();
    ctl.start(ctlBinary(o), where + QStringList{QStringLiteral("status")});
    if (!ctl.waitForFinished(ReplyTimeoutMs) || ctl.exitStatus() != QProcess::NormalExit || ctl.exitCode() != 0)
        return QStringLiteral("pepsi-ctl %1 status: exit %2: %3")
            .arg(where.join(u' '))
            .arg(ctl.exitCode())
            .arg(QString::fromUtf8(ctl.readAllStandardError()).trimmed());
    return double(clock.nsecsElapsed()) / 1e6;
}

QString currentUser()
{
    const passwd *entry = ::getpwuid(::getuid());
    return entry ? QString::fromLocal8Bit(entry->pw_name) : QStringLiteral("root");
}

struct Streams
{
    std::unique_ptr<BridgeProbe> local;
    std::unique_ptr<BridgeProbe> ssh;
};

// Both persistent streams open, warmed up; their set-up times in `result`.
std::optional<QString> openStreams(const BridgeOptions &options, const transport::Target &sshTarget, Streams *streams,
                                   BridgeResult *result)
{
    const QString socket = controlSocketPath(options.bench);
    streams->local = std::make_unique<BridgeProbe>(transport::Target::localSocket(socket));
    streams->ssh = std::make_unique<BridgeProbe>(sshTarget);
    const auto localSetup = streams->local->open(ReplyTimeoutMs);
    if (!localSetup)
        return QStringLiteral("%1: %2").arg(socket, localSetup.error());
    const auto sshSetup = streams->ssh->open(ReplyTimeoutMs);
    if (!sshSetup)
        return QStringLiteral("%1: %2").arg(sshTarget.text, sshSetup.error());
    result->localSetupMs = localSetup.value();
    result->sshSetupMs = sshSetup.value();
    QList<double> discarded;
    if (auto error = streams->local->measure(options.warmUp, &discarded, ReplyTimeoutMs))
        return *error;
    if (auto error = streams->ssh->measure(options.warmUp, &discarded, ReplyTimeoutMs))
        return *error;
    return std::nullopt;
}

// The rounds: in each, a share of the round trips on either stream, then a
// share of the fresh processes of either kind.
std::optional<QString> runRounds(const BridgeOptions &options, const transport::Target &sshTarget, Streams &streams,
                                 BridgeResult *result)
{
    const QStringList local{QStringLiteral("--socket"), controlSocketPath(options.bench)};
    const QStringList ssh{QStringLiteral("--target"), sshTarget.text};
    for (int round = 0; round < options.rounds; ++round) {
        const int requests = options.requests / options.rounds;
        const int fresh = std::max(1, options.fresh / options.rounds);
        progress(QStringLiteral("round %1 of %2: %3 status round trips on each stream, %4 pepsi-ctl of each kind")
                     .arg(round + 1)
                     .arg(options.rounds)
                     .arg(requests)
                     .arg(fresh));
        if (auto error = streams.local->measure(requests, &result->local, ReplyTimeoutMs))
            return QStringLiteral("the socket: %1").arg(*error);
        if (auto error = streams.ssh->measure(requests, &result->ssh, ReplyTimeoutMs))
            return QStringLiteral("ssh: %1").arg(*error);
        for (int i = 0; i < fresh; ++i) {
            const auto plain = freshStatus(options.bench, local);
            if (!plain)
                return plain.error();
            result->freshLocal << plain.value();
            const auto remote = freshStatus(options.bench, ssh);
            if (!remote)
                return remote.error();
            result->freshSsh << remote.value();
        }
    }
    return std::nullopt;
}

} // namespace

Result<BridgeResult, QString> runBridge(const BridgeOptions &options)
{
    const BenchOptions &o = options.bench;
    if (const QString missing = SshServer::missingBinary(); !missing.isEmpty())
        return QStringLiteral("needs %1 (apt-get install openssh-server openssh-client)").arg(missing);
    if (!QFile::exists(ctlBinary(o)))
        return QStringLiteral("%1 is missing: build the target pepsi-ctl").arg(ctlBinary(o));
    BenchDatabase db;
    const auto config = prepareRun(o, db);
    if (!config)
        return config.error();

    SshServer sshd;
    if (!sshd.start())
        return QStringLiteral("the private sshd did not start");
    // ControlChannel and pepsi-ctl run the `ssh` first on PATH: the wrapper
    // with the private known hosts and key.
    qputenv("PATH", QFile::encodeName(sshd.acceptingBin()) + ':' + qgetenv("PATH"));
    qputenv("PEPSI_REMOTE_CTL", QFile::encodeName(ctlBinary(o)));

    BridgeResult result;
    result.logFile = o.workDir + QStringLiteral("/bridge-daemon.log");
    QProcess daemon;
    if (auto error = startDaemon(o, *config, result.logFile, &daemon))
        return *error;
    QLocalSocket probe;
    if (!connectWhenListening(probe, controlSocketPath(o), 30'000)) {
        (void)stopDaemon(&daemon, result.logFile);
        return QStringLiteral("the daemon did not listen within 30 s; see %1").arg(result.logFile);
    }
    probe.abort();

    const auto sshTarget = transport::Target::parse(
        QStringLiteral("ssh://%1@127.0.0.1:%2%3").arg(currentUser()).arg(sshd.port()).arg(controlSocketPath(o)));
    std::optional<QString> failure;
    if (!sshTarget) {
        failure = sshTarget.error();
    } else {
        Streams streams;
        failure = openStreams(options, sshTarget.value(), &streams, &result);
        if (!failure)
            failure = runRounds(options, sshTarget.value(), streams, &result);
    }
    const auto stopped = stopDaemon(&daemon, result.logFile);
    if (failure)
        return *failure;
    if (!stopped)
        return stopped.error();
    result.daemonExitCode = stopped.value();
    return result;
}

} // namespace pepsi::bench
