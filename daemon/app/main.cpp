// SPDX-License-Identifier: AGPL-3.0-or-later
// pepsi-dispatch: see doc/pepsi-dispatch.rst.

#include "app/commandline.h"
#include "app/configcheck.h"
#include "app/logging.h"
#include "app/privileges.h"
#include "app/unixsignals.h"
#include "config/configuration.h"
#include "config/dispatchsettings.h"
#include "config/stagegraph.h"
#include "control/controlserver.h"
#include "control/controlthread.h"
#include "core/dispatcher.h"
#include "core/dispatchstate.h"
#include "loop/epolldispatcher.h"
#include "model/dispatchboard.h"
#include "workers/workerchild.h"

#include <QCoreApplication>
#include <QTimer>
#include <csignal>
#include <cstdio>

namespace {

constexpr int ExitUsage = 64;  // EX_USAGE
constexpr int ExitConfig = 78; // EX_CONFIG

void printErr(const QString &text)
{
    (void)std::fputs(text.toLocal8Bit().constData(), stderr);
    (void)std::fputc('\n', stderr);
}

} // namespace

int main(int argc, char **argv)
{
    // The dispatch loop runs on epoll: Qt's own loops poll every descriptor
    // on every pass, three per worker (loop/epolldispatcher.h).
    auto *loop = new pepsi::EpollDispatcher;
    if (!loop->isValid()) {
        printErr(QStringLiteral("pepsi-dispatch: no event loop: ") + loop->error());
        delete loop;
        return 1;
    }
    QCoreApplication::setEventDispatcher(loop);
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("pepsi-dispatch"));
    QCoreApplication::setApplicationVersion(QStringLiteral(PEPSI_VERSION));

    const auto parsed = pepsi::CommandLine::parse(app.arguments().mid(1));
    if (!parsed) {
        printErr(QStringLiteral("pepsi-dispatch: ") + parsed.error());
        printErr(QStringLiteral("Try 'pepsi-dispatch --help'."));
        return ExitUsage;
    }
    const pepsi::CommandLine &line = parsed.value();
    if (line.action == pepsi::CommandLine::Action::Help) {
        (void)std::fputs(pepsi::CommandLine::usage().toLocal8Bit().constData(), stdout);
        return 0;
    }
    if (line.action == pepsi::CommandLine::Action::Version) {
        std::printf("pepsi-dispatch %s\n", PEPSI_VERSION);
        return 0;
    }
    pepsi::installLogging(line.logLevel);

    if (line.action == pepsi::CommandLine::Action::Check) {
        pepsi::ConfigCheck check(line.resolvedConfigFile());
        check.run();
        for (const QString &found : check.found())
            std::printf("%s\n", found.toLocal8Bit().constData());
        for (const QString &problem : check.problems())
            printErr(problem);
        return check.problems().isEmpty() ? 0 : ExitConfig;
    }

    // Everything that can be wrong with the configuration is found before any
    // database connection: exit 78 leaves the database untouched.
    const QString configPath = line.resolvedConfigFile();
    const auto config = pepsi::Configuration::load(configPath);
    if (!config) {
        qCCritical(lcMain).noquote() << "bad configuration:" << config.error().toString();
        return ExitConfig;
    }
    const auto settings = pepsi::DispatchSettings::fromConfiguration(config.value());
    if (!settings) {
        qCCritical(lcMain).noquote() << "bad configuration:" << settings.error().toString();
        return ExitConfig;
    }
    // The overlay is applied once connected; the file alone must already parse.
    const auto graph = pepsi::StageGraph::fromConfiguration(config.value());
    if (!graph) {
        qCCritical(lcMain).noquote() << "bad configuration:" << graph.error().toString();
        return ExitConfig;
    }
    // The socket's directory may need root to create (/run/pepsi); the socket
    // itself is made after the drop, as the service account.
    const QString controlSocket =
        settings->controlSocket.isEmpty() ? pepsi::protocol::defaultSocketPath() : settings->controlSocket;
    if (const auto error = pepsi::prepareControlDirectory(controlSocket, settings->user)) {
        qCCritical(lcMain).noquote() << "control socket:" << *error;
        return 1;
    }
    if (const QString error = pepsi::dropPrivileges(settings->user); !error.isEmpty()) {
        qCCritical(lcMain).noquote() << error;
        return ExitConfig;
    }

    if (const qint64 was = pepsi::workerchild::raiseOpenFileLimit(); was >= 0)
        qCDebug(lcMain) << "open files: soft limit raised from" << was << "to the hard limit; workers keep" << was;

    // Writing to a worker that just died must not kill the dispatcher.
    (void)std::signal(SIGPIPE, SIG_IGN);
    pepsi::UnixSignals signals;
    if (!signals.install()) {
        qCCritical(lcMain) << "cannot install signal handlers";
        return 1;
    }

    // Made in this order and destroyed in reverse: the control thread, which
    // reads the board and calls the dispatcher's port, goes first.
    pepsi::DispatchBoard board; // outlives the dispatcher, which writes to it to the end
    pepsi::Dispatcher dispatcher(config.value(), settings.value(), line.standby);
    QObject::connect(&signals, &pepsi::UnixSignals::terminateRequested, &dispatcher, [&dispatcher](int sig) {
        qCInfo(lcMain) << "signal" << sig << "received";
        dispatcher.shutdown(0);
    });
    QObject::connect(&signals, &pepsi::UnixSignals::hangup, &dispatcher, &pepsi::Dispatcher::reloadFile);
    // The control socket answers from what the dispatch loop publishes, on a
    // thread of its own: no client waits for a claim, no claim for a client.
    dispatcher.state()->publishTo(&board);
    pepsi::ControlThread control(board, *dispatcher.state(), dispatcher.state()->operatorQueries());
    if (!line.standby) {
        // Before the database: a second daemon on this socket stops here.
        if (const auto error = control.listen(controlSocket)) {
            qCCritical(lcMain).noquote() << *error;
            return 1;
        }
    } else {
        // A waiting standby leaves the socket to the active daemon.
        QObject::connect(dispatcher.state(), &pepsi::DispatchPort::lifecycleChanged, &control,
                         [&control, controlSocket](pepsi::Lifecycle state) {
                             if (state != pepsi::Lifecycle::Running || control.isListening())
                                 return;
                             if (const auto error = control.listen(controlSocket))
                                 qCCritical(lcMain).noquote() << "no control socket:" << *error;
                         });
    }
    QObject::connect(&dispatcher, &pepsi::Dispatcher::finished, &app, [](int code) { QCoreApplication::exit(code); });
    QTimer::singleShot(0, &dispatcher, &pepsi::Dispatcher::start);
    return app.exec();
}
