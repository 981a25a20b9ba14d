// SPDX-License-Identifier: AGPL-3.0-or-later
#include "consolerun.h"

#include "benchsetup.h"
#include "consolefeeder.h"
#include "consoleprobe.h"
#include "controlpoller.h"
#include "procstats.h"
#include "sshserver.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QLocalSocket>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTimer>

#include <memory>
#include <pwd.h>
#include <unistd.h>
#include <vector>

namespace pepsi::bench {

namespace {

QString ctlBinary(const BenchOptions &o) { return o.buildDir + QStringLiteral("/ctl/pepsi-ctl"); }
QString consoleBinary(const BenchOptions &o) { return o.buildDir + QStringLiteral("/console/pepsi-console"); }

QString currentUser()
{
    const passwd *entry = ::getpwuid(::getuid());
    return entry ? QString::fromLocal8Bit(entry->pw_name) : QStringLiteral("root");
}

// Lets the event loop run (probes, the console's sessions) for `ms`.
void runFor(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

// The private sshd's listener: our child named sshd.
qint64 sshdPid()
{
    for (const qint64 child : childPids(::getpid())) {
        QFile comm(QStringLiteral("/proc/%1/comm").arg(child));
        if (comm.open(QIODevice::ReadOnly) && comm.readAll().trimmed() == "sshd")
            return child;
    }
    return 0;
}

struct System
{
    BenchOptions options;
    std::unique_ptr<QProcess> daemon;
    QString logFile;
};

// A daemon of the three stages on each database, each in a work directory
// of its own, listening.
std::optional<QString> startSystems(const ConsoleOptions &options, std::vector<System> *systems)
{
    for (qsizetype i = 0; i < options.databases.size(); ++i) {
        System system;
        system.options = options.bench;
        system.options.database = options.databases[i];
        system.options.workDir = QStringLiteral("%1/system%2").arg(options.bench.workDir).arg(i + 1);
        system.logFile = system.options.workDir + QStringLiteral("/daemon.log");
        QString config;
        {
            BenchDatabase db(QStringLiteral("pepsi-bench-console-setup"));
            const auto prepared = prepareRun(system.options, db);
            if (!prepared)
                return prepared.error();
            if (!db.exec(QStringLiteral("TRUNCATE workqueue RESTART IDENTITY")))
                return db.lastError();
            config = prepared.value();
        }
        system.daemon = std::make_unique<QProcess>();
        if (auto error = startDaemon(system.options, config, system.logFile, system.daemon.get()))
            return error;
        systems->push_back(std::move(system));
    }
    for (const System &system : *systems) {
        QLocalSocket socket;
        if (!connectWhenListening(socket, controlSocketPath(system.options), 30'000))
            return QStringLiteral("a daemon did not listen within 30 s; see %1").arg(system.logFile);
        socket.abort();
    }
    return std::nullopt;
}

// The console on the first `watched` targets, offscreen, its settings apart from the user's.
std::optional<QString> startConsole(const ConsoleOptions &options, const QStringList &targets, int watched,
                                    QProcess *console)
{
    const QString dir = options.bench.workDir;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir + QStringLiteral("/console-config"));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    console->setProcessEnvironment(env);
    console->setProcessChannelMode(QProcess::MergedChannels);
    console->setStandardOutputFile(dir + QStringLiteral("/console-%1.log").arg(watched), QIODevice::Truncate);
    console->start(consoleBinary(options.bench),
                   QStringList{QStringLiteral("-platform"), QStringLiteral("offscreen")} + targets.mid(0, watched));
    if (!console->waitForStarted(10'000))
        return QStringLiteral("cannot start %1: %2").arg(consoleBinary(options.bench), console->errorString());
    return std::nullopt;
}

void stopConsole(QProcess *console)
{
    if (console->state() == QProcess::NotRunning)
        return;
    console->terminate();
    if (!console->waitForFinished(10'000)) {
        console->kill();
        console->waitForFinished(10'000);
    }
}

struct Sample
{
    qint64 console = 0;
    qint64 ssh = 0;
    qint64 farSide = 0;
    QList<qint64> daemons;
    qint64 fed = 0;
};

Sample sample(const std::vector<System> &systems, qint64 consolePid, qint64 sshd, const ConsoleFeeder &feeder)
{
    Sample s;
    if (consolePid > 0) {
        s.console = sampleProcess(consolePid).cpuUsec;
        s.ssh = liveChildrenCpuUsec(consolePid);
    }
    s.farSide = sshd > 0 ? subtreeCpuUsec(sshd) : 0;
    for (const System &system : systems)
        s.daemons.append(sampleProcess(system.daemon->processId()).cpuUsec);
    s.fed = feeder.inserted();
    return s;
}

// One configuration: the console (if any) started, warmed up, a window measured.
Result<ConsoleWindow, QString> measure(const ConsoleOptions &options, const QStringList &targets, int watched,
                                       const std::vector<System> &systems,
                                       std::vector<std::unique_ptr<ConsoleProbe>> &probes, const ConsoleFeeder &feeder)
{
    ConsoleWindow window;
    window.watched = watched;
    window.name = watched == 0 ? QStringLiteral("no console") : QStringLiteral("console watching %1").arg(watched);
    progress(QStringLiteral("%1: %2 s warm-up, %3 s measured")
                 .arg(window.name)
                 .arg(options.warmUpSeconds)
                 .arg(options.seconds));
    QProcess console;
    if (watched > 0) {
        if (auto error = startConsole(options, targets, watched, &console))
            return failure(*error);
    }
    runFor(options.warmUpSeconds * 1000);
    const qint64 pid = watched > 0 ? console.processId() : 0;
    const qint64 sshd = sshdPid();
    for (auto &probe : probes)
        probe->take();
    QElapsedTimer clock;
    clock.start();
    const Sample from = sample(systems, pid, sshd, feeder);
    runFor(options.seconds * 1000);
    const Sample to = sample(systems, pid, sshd, feeder);
    window.seconds = double(clock.nsecsElapsed()) / 1e9;
    if (watched > 0) {
        window.sshChildren = liveChildrenCount(pid);
        const bool alive = console.state() == QProcess::Running;
        stopConsole(&console);
        if (!alive)
            return failure(QStringLiteral("pepsi-console ended during the window; see %1/console-%2.log")
                               .arg(options.bench.workDir)
                               .arg(watched));
        window.consoleCpuUsec = to.console - from.console;
        window.sshCpuUsec = to.ssh - from.ssh;
    }
    window.farSideCpuUsec = to.farSide - from.farSide;
    window.fed = to.fed - from.fed;
    for (size_t i = 0; i < systems.size(); ++i) {
        window.daemonCpuUsec.append(to.daemons[qsizetype(i)] - from.daemons[qsizetype(i)]);
        window.probeSkipped.append(probes[i]->skipped());
        window.probeMs.append(probes[i]->take());
        if (!probes[i]->error().isEmpty())
            return failure(QStringLiteral("the probe of %1: %2").arg(targets[qsizetype(i)], probes[i]->error()));
    }
    return window;
}

} // namespace

Result<ConsoleResult, QString> runConsoleSystems(const ConsoleOptions &options)
{
    const BenchOptions &o = options.bench;
    if (const QString missing = SshServer::missingBinary(); !missing.isEmpty())
        return failure(QStringLiteral("needs %1 (apt-get install openssh-server openssh-client)").arg(missing));
    for (const QString &binary : {ctlBinary(o), consoleBinary(o)}) {
        if (!QFile::exists(binary))
            return failure(QStringLiteral("%1 is missing: build pepsi-ctl and pepsi-console").arg(binary));
    }
    SshServer sshd;
    if (!sshd.start())
        return failure(QStringLiteral("the private sshd did not start"));
    // The console's ssh is the first on PATH: the wrapper with the private
    // known hosts and key; the far side's pepsi-ctl is this build's.
    qputenv("PATH", QFile::encodeName(sshd.acceptingBin()) + ':' + qgetenv("PATH"));
    qputenv("PEPSI_REMOTE_CTL", QFile::encodeName(ctlBinary(o)));

    ConsoleResult result;
    result.workDir = o.workDir;
    std::vector<System> systems;
    std::optional<QString> failed = startSystems(options, &systems);
    const qsizetype firstSsh = options.databases.size() - options.sshSystems;
    for (qsizetype i = 0; i < qsizetype(systems.size()); ++i) {
        const QString socket = controlSocketPath(systems[size_t(i)].options);
        result.targets.append(
            i < firstSsh ? socket
                         : QStringLiteral("ssh://%1@127.0.0.1:%2%3").arg(currentUser()).arg(sshd.port()).arg(socket));
    }
    ConsoleFeeder feeder(options.databases, stageNames().constFirst(), options.feedPerSecond);
    std::vector<std::unique_ptr<ConsoleProbe>> probes;
    if (!failed) {
        feeder.start();
        // The probes measure the daemons, not the transport: always the socket.
        for (const System &system : systems) {
            probes.push_back(std::make_unique<ConsoleProbe>(
                transport::Target::localSocket(controlSocketPath(system.options)), options.probeEveryMs));
            probes.back()->start(int(probes.size() - 1) * options.probeEveryMs / int(systems.size()));
        }
    }
    for (const int watched : {0, options.watchedInOne, int(systems.size())}) {
        if (failed)
            break;
        auto window = measure(options, result.targets, watched, systems, probes, feeder);
        if (!window)
            failed = window.error();
        else
            result.windows.append(window.value());
        if (auto error = feeder.error())
            failed = QStringLiteral("the feeder: %1").arg(*error);
    }
    feeder.stop();
    probes.clear();
    for (System &system : systems) {
        const auto stopped = stopDaemon(system.daemon.get(), system.logFile);
        if (!stopped && !failed)
            failed = stopped.error();
        result.daemonExitCodes.append(stopped ? stopped.value() : -1);
    }
    if (failed)
        return failure(*failed);
    return result;
}

} // namespace pepsi::bench
