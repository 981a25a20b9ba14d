// SPDX-License-Identifier: AGPL-3.0-or-later
// pepsi-soak: messages with random faults through three stages of the fake
// worker under a real daemon, with a daemon SIGKILL and a PostgreSQL restart
// on the way; then every message is checked against its plan. Needs
// PEPSI_TEST_DATABASE (scripts/pg-sandbox start) and the build's pepsi-dispatch
// and pepsi-fakeworker (PEPSI_BUILD_DIR, else the build it comes from).
//
//   pepsi-soak [--messages N] [--seed S] [--stall-timeout SECONDS]
//              [--no-daemon-kill] [--no-database-restart]
#include "soakrun.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QRandomGenerator>
#include <cstdio>

using namespace Qt::StringLiterals;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(u"pepsi-soak"_s);
    QCommandLineParser parser;
    parser.setApplicationDescription(u"Soak test of pepsi-dispatch: nothing lost under faults."_s);
    parser.addHelpOption();
    const QCommandLineOption messages(u"messages"_s, u"How many messages (default 100000)."_s, u"N"_s, u"100000"_s);
    const QCommandLineOption seed(u"seed"_s, u"Seed of the fault plan (default: random, printed)."_s, u"S"_s);
    const QCommandLineOption stall(u"stall-timeout"_s, u"Give up when nothing settles this long (default 120)."_s,
                                   u"SECONDS"_s, u"120"_s);
    const QCommandLineOption noKill(u"no-daemon-kill"_s, u"Do not SIGKILL the daemon on the way."_s);
    const QCommandLineOption noRestart(u"no-database-restart"_s, u"Do not restart PostgreSQL on the way."_s);
    const QCommandLineOption noLocks(u"no-row-locks"_s, u"Do not hold row locks in a transaction on the way."_s);
    const QCommandLineOption noTerminate(u"no-terminate"_s,
                                         u"Do not end the dispatcher's sessions (pg_terminate_backend) on the way."_s);
    parser.addOptions({messages, seed, stall, noKill, noRestart, noLocks, noTerminate});
    parser.process(app);

    SoakOptions options;
    bool ok = false;
    options.messages = parser.value(messages).toInt(&ok);
    if (!ok || options.messages < 1) {
        std::fprintf(stderr, "pepsi-soak: --messages wants a positive number, not \"%s\"\n",
                     qPrintable(parser.value(messages)));
        return 64;
    }
    options.seed = parser.isSet(seed) ? parser.value(seed).toUInt(&ok) : QRandomGenerator::global()->generate();
    options.stallSeconds = parser.value(stall).toInt(&ok);
    if (!ok || options.stallSeconds < 1) {
        std::fprintf(stderr, "pepsi-soak: --stall-timeout wants a positive number of seconds\n");
        return 64;
    }
    options.killDaemon = !parser.isSet(noKill);
    options.restartDatabase = !parser.isSet(noRestart);
    options.rowLocks = !parser.isSet(noLocks);
    options.terminateSessions = !parser.isSet(noTerminate);
    return SoakRun(options).run();
}
