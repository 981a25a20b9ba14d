// SPDX-License-Identifier: AGPL-3.0-or-later
// pepsi-bench-console: a pepsi-console watching eight systems beside one
// watching one and none (doc/performance.rst, "A console watching eight
// systems"). Not a QTest: it prints figures and exits 0 when every part ran,
// 1 when one could not, 64 on a bad command line. Run it with
// `tests/bench/run-bench --console-systems`, which prepares the databases.
#include "benchcommon.h"
#include "benchoptions.h"
#include "benchsetup.h"
#include "consolerun.h"

#include <QCommandLineParser>
#include <QCoreApplication>

#include <tuple>

using namespace pepsi::bench;

namespace {

pepsi::Result<ConsoleOptions, QString> parse(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("A pepsi-console watching every system (a daemon on each --database, the last --ssh of them "
                       "through\na private loopback sshd and pepsi-ctl bridge) beside one watching one and none. "
                       "Usually started by\ntests/bench/run-bench --console-systems."));
    parser.addHelpOption();
    parser.addOptions({
        {QStringLiteral("database"),
         QStringLiteral("libpq URI of a database holding the schema, one per system "
                        "(repeat it; at least 2)"),
         QStringLiteral("URI")},
        {QStringLiteral("build"), QStringLiteral("build directory (default: this build)"), QStringLiteral("DIR")},
        {QStringLiteral("work-dir"),
         QStringLiteral("the systems' pepsi.conf and logs (default BUILD/bench-work/console)"), QStringLiteral("DIR")},
        {QStringLiteral("user"), QStringLiteral("USER the daemons drop to as root (default pepsi)"),
         QStringLiteral("NAME")},
        {QStringLiteral("ssh"),
         QStringLiteral("how many of the systems the console reaches through ssh (default: "
                        "half)"),
         QStringLiteral("N")},
        {QStringLiteral("seconds"), QStringLiteral("the measured window of each configuration (default 60)"),
         QStringLiteral("S")},
        {QStringLiteral("warm-up"), QStringLiteral("seconds before each window (default 10)"), QStringLiteral("S")},
        {QStringLiteral("feed"), QStringLiteral("rows a second into each system (default 4)"), QStringLiteral("N")},
    });
    if (auto error = parseCommandLine(parser, arguments))
        return *error;

    ConsoleOptions o;
    o.databases = parser.values(QStringLiteral("database"));
    if (o.databases.size() < 2)
        return QStringLiteral("--database: at least two systems, one --database each");
    o.sshSystems = int(o.databases.size() / 2);
    readBenchDirs(parser, QStringLiteral("/bench-work/console"), &o.bench);
    // A small pipeline a system: one worker a stage is plenty for a few rows a second.
    o.bench.parallelism = 1;
    for (const auto &[name, min, max, into] :
         {std::tuple{QStringLiteral("ssh"), 0, int(o.databases.size()), &o.sshSystems},
          std::tuple{QStringLiteral("seconds"), 5, 3600, &o.seconds},
          std::tuple{QStringLiteral("warm-up"), 1, 600, &o.warmUpSeconds},
          std::tuple{QStringLiteral("feed"), 1, 100, &o.feedPerSecond}}) {
        if (auto error = readCount(parser, name, min, max, into))
            return *error;
    }
    return o;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("pepsi-bench-console"));
    const auto parsed = parse(app.arguments());
    if (!parsed)
        return failed(parsed.error(), 64);
    const ConsoleOptions &options = parsed.value();
    printHeadline();
    out(QStringLiteral("  %1 systems (a daemon each, 3 stages of 1 worker, %2 rows/s fed into each), %3 through "
                       "ssh and pepsi-ctl bridge on 127.0.0.1; %4 s warm-up and %5 s measured a configuration")
            .arg(options.databases.size())
            .arg(options.feedPerSecond)
            .arg(options.sshSystems)
            .arg(options.warmUpSeconds)
            .arg(options.seconds));
    const auto result = runConsoleSystems(options);
    if (!result)
        return failed(result.error(), 1);
    return printConsoleReport(options, result.value()) ? 0 : 1;
}
