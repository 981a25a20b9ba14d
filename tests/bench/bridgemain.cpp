// SPDX-License-Identifier: AGPL-3.0-or-later
// pepsi-bench-bridge: the status round trip through ssh and `pepsi-ctl bridge`
// beside the local socket's (doc/performance.rst, "Through ssh"). Not a QTest:
// it prints figures and exits 0 when every part ran (target met or not), 1
// when one could not, 64 on a bad command line. Run it with
// `tests/bench/run-bench --bridge`, which prepares the database.
#include "benchsetup.h"
#include "bridgerun.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QSysInfo>
#include <QThread>

#include <cstdio>
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
    if (!parser.parse(arguments))
        return parser.errorText();
    if (parser.isSet(QStringLiteral("help")))
        parser.showHelp(0); // exits
    if (!parser.positionalArguments().isEmpty())
        return QStringLiteral("unexpected argument \"%1\"").arg(parser.positionalArguments().constFirst());

    BridgeOptions o;
    o.bench.database = parser.value(QStringLiteral("database"));
    if (o.bench.database.isEmpty())
        return QStringLiteral("--database: no database given");
    o.bench.buildDir = QFileInfo(parser.isSet(QStringLiteral("build")) ? parser.value(QStringLiteral("build"))
                                                                       : QStringLiteral(PEPSI_BENCH_BUILD_DIR))
                           .absoluteFilePath();
    o.bench.workDir =
        QFileInfo(parser.isSet(QStringLiteral("work-dir")) ? parser.value(QStringLiteral("work-dir"))
                                                           : o.bench.buildDir + QStringLiteral("/bench-work"))
            .absoluteFilePath();
    if (parser.isSet(QStringLiteral("user")))
        o.bench.user = parser.value(QStringLiteral("user"));
    for (const auto &[name, max, into] : {std::tuple{QStringLiteral("requests"), 1'000'000, &o.requests},
                                          std::tuple{QStringLiteral("fresh"), 10'000, &o.fresh},
                                          std::tuple{QStringLiteral("rounds"), 100, &o.rounds}}) {
        if (!parser.isSet(name))
            continue;
        bool ok = false;
        *into = parser.value(name).toInt(&ok);
        if (!ok || *into < 1 || *into > max)
            return QStringLiteral("--%1: \"%2\" is not a whole number in 1..%3").arg(name, parser.value(name)).arg(max);
    }
    if (o.requests < o.rounds)
        return QStringLiteral("--requests: at least one a round (--rounds %1)").arg(o.rounds);
    return o;
}

QString loadAverage()
{
    QFile file(QStringLiteral("/proc/loadavg"));
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("?");
    return QString::fromLatin1(file.readAll()).section(u' ', 0, 2);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("pepsi-bench-bridge"));
    const auto parsed = parse(app.arguments());
    if (!parsed) {
        std::fprintf(stderr, "pepsi-bench-bridge: %s\n", parsed.error().toUtf8().constData());
        return 64;
    }
    const BridgeOptions &options = parsed.value();
    out(QStringLiteral("pepsi-bench-bridge %1 (%2 build), %3, nproc %4, load %5")
            .arg(QDateTime::currentDateTimeUtc().toString(Qt::ISODate), QStringLiteral(PEPSI_BENCH_BUILD_TYPE),
                 QSysInfo::prettyProductName(), QString::number(QThread::idealThreadCount()), loadAverage()));
    out(QStringLiteral("  %1 status requests on each stream, %2 fresh pepsi-ctl of each kind, %3 rounds; the daemon "
                       "idle with 3 stages; sshd and ssh on 127.0.0.1")
            .arg(options.requests)
            .arg(options.fresh)
            .arg(options.rounds));
    const auto result = runBridge(options);
    if (!result) {
        std::fprintf(stderr, "pepsi-bench-bridge: %s\n", result.error().toUtf8().constData());
        return 1;
    }
    return printBridgeReport(options, result.value()) ? 0 : 1;
}
