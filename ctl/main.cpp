// SPDX-License-Identifier: AGPL-3.0-or-later
// pepsi-ctl: see doc/man/pepsi-ctl.rst.

#include "bridge.h"
#include "client.h"
#include "commandline.h"
#include "output.h"
#include "requeuefeed.h"
#include "runner.h"
#include "socketlocation.h"

#include <QCoreApplication>
#include <QFile>
#include <QTimer>
#include <unistd.h>

using namespace pepsi::ctl;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("pepsi-ctl"));
    QCoreApplication::setApplicationVersion(QStringLiteral(PEPSI_VERSION));

    const auto parsed = CommandLine::parse(app.arguments().mid(1));
    if (!parsed) {
        printError(parsed.error());
        printError(QStringLiteral("try 'pepsi-ctl --help'"));
        return ExitUsage;
    }
    const CommandLine &line = parsed.value();
    if (line.action == CommandLine::Action::Help) {
        printOut(CommandLine::usage());
        return ExitOk;
    }
    if (line.action == CommandLine::Action::Version) {
        printOut(QStringLiteral("pepsi-ctl %1\n").arg(QStringLiteral(PEPSI_VERSION)));
        return ExitOk;
    }
    const auto where = locateSocket(line);
    if (!where) {
        printError(where.error());
        return ExitUsage;
    }

    if (line.command == u"bridge") {
        Bridge bridge(where.value());
        QObject::connect(&bridge, &Bridge::finished, &app, [](int status) { QCoreApplication::exit(status); });
        QTimer::singleShot(0, &bridge, &Bridge::start);
        return app.exec();
    }

    // Every id is read and checked before the daemon hears of any.
    std::optional<RequeueFeed> ids;
    if (line.idsFromStdin) {
        QFile in;
        if (!in.open(stdin, QIODevice::ReadOnly)) {
            printError(QStringLiteral("cannot read stdin: %1").arg(in.errorString()));
            return ExitUsage;
        }
        if (::isatty(STDIN_FILENO))
            printError(QStringLiteral("reading ids from the terminal, one per line; end with Ctrl-D"));
        auto feed = RequeueFeed::read(in);
        if (!feed) {
            printError(QStringLiteral("requeue: %1; nothing was requeued").arg(feed.error()));
            return ExitUsage;
        }
        if (feed->size() == 0) {
            printError(QStringLiteral("requeue: no ids on stdin; nothing was requeued"));
            return ExitUsage;
        }
        ids = std::move(feed.value());
    }

    Client client(where.value(), line.timeout);
    Runner runner(line, client, std::move(ids));
    QObject::connect(&runner, &Runner::finished, &app, [](int status) { QCoreApplication::exit(status); });
    QTimer::singleShot(0, &runner, &Runner::start);
    return app.exec();
}
