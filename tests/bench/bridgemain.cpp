// SPDX-License-Identifier: AGPL-3.0-or-later
// pepsi-bench-bridge: the status round trip through ssh and `pepsi-ctl bridge`
// beside the local socket's (doc/performance.rst, "Through ssh"). Not a QTest:
// it prints figures and exits 0 when every part ran (target met or not), 1
// when one could not, 64 on a bad command line. Run it with
// `tests/bench/run-bench --bridge`, which prepares the database.
#include "benchcommon.h"
#include "benchoptions.h"
#include "benchsetup.h"
#include "bridgerun.h"

#include <QCommandLineParser>
#include <QCoreApplication>

#include <tuple>

using namespace pepsi::bench;

namespace {

pepsi::Result<BridgeOptions, QString> parse(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("The status round trip through a private loopback sshd and pepsi-ctl bridge, beside the "
                       "local socket's,\nand a fresh pepsi-ctl status of either kind. Usually started by "
                       "tests/bench/run-bench --bridge."));
    parser.addHelpOption();
    parser.addOptions({
        {QStringLiteral("database"), QStringLiteral("libpq URI of a database holding the schema (required)"),
         QStringLiteral("URI")},
        {QStringLiteral("build"), QStringLiteral("build directory (default: this build)"), QStringLiteral("DIR")},
        {QStringLiteral("work-dir"), QStringLiteral("pepsi.conf and the daemon's log (default BUILD/bench-work)"),
         QStringLiteral("DIR")},
        {QStringLiteral("user"), QStringLiteral("USER the daemon drops to as root (default pepsi)"),
         QStringLiteral("NAME")},
        {QStringLiteral("requests"), QStringLiteral("status round trips on each stream (default 2000)"),
         QStringLiteral("N")},
        {QStringLiteral("fresh"), QStringLiteral("pepsi-ctl status processes of each kind (default 40)"),
         QStringLiteral("N")},
        {QStringLiteral("rounds"), QStringLiteral("the kinds alternate in this many rounds (default 4)"),
         QStringLiteral("N")},
    });
    if (auto error = parseCommandLine(parser, arguments))
        return *error;

    BridgeOptions o;
    o.bench.database = parser.value(QStringLiteral("database"));
    if (o.bench.database.isEmpty())
        return QStringLiteral("--database: no database given");
    readBenchDirs(parser, QStringLiteral("/bench-work"), &o.bench);
    for (const auto &[name, max, into] : {std::tuple{QStringLiteral("requests"), 1'000'000, &o.requests},
                                          std::tuple{QStringLiteral("fresh"), 10'000, &o.fresh},
                                          std::tuple{QStringLiteral("rounds"), 100, &o.rounds}}) {
        if (auto error = readCount(parser, name, 1, max, into))
            return *error;
    }
    if (o.requests < o.rounds)
        return QStringLiteral("--requests: at least one a round (--rounds %1)").arg(o.rounds);
    return o;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("pepsi-bench-bridge"));
    const auto parsed = parse(app.arguments());
    if (!parsed)
        return failed(parsed.error(), 64);
    const BridgeOptions &options = parsed.value();
    printHeadline();
    out(QStringLiteral("  %1 status requests on each stream, %2 fresh pepsi-ctl of each kind, %3 rounds; the daemon "
                       "idle with 3 stages; sshd and ssh on 127.0.0.1")
            .arg(options.requests)
            .arg(options.fresh)
            .arg(options.rounds));
    const auto result = runBridge(options);
    if (!result)
        return failed(result.error(), 1);
    return printBridgeReport(options, result.value()) ? 0 : 1;
}
