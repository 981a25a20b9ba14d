// SPDX-License-Identifier: AGPL-3.0-or-later
#include "runworker.h"

#include "config/dispatchsettings.h"

#include <QByteArray>
#include <QString>
#include <csignal>
#include <cstdlib>
#include <libpq-fe.h>
#include <sys/prctl.h>
#include <unistd.h>

namespace pepsi::stagekit {

namespace {

constexpr int ExitUsage = 64;  // EX_USAGE
constexpr int ExitConfig = 78; // EX_CONFIG

struct CommandLine
{
    QString configFile;
    bool help = false;
};

QByteArray usage(const QByteArray &program)
{
    return "usage: " + program
        + " [-c FILE] worker\n"
          "A pepsi-dispatch stage program: reads message ids on stdin, one per line,\n"
          "and answers one status line per id on stdout.\n"
          "  -c, --config FILE  configuration file (default: $PEPSI_CONFIG, then /etc/pepsi/pepsi.conf)\n"
          "  -h, --help         show this help\n"
          "Environment: PEPSI_STAGE names the stage (set by pepsi-dispatch).\n";
}

// [-c FILE | --config FILE | --config=FILE] worker, or -h
std::optional<CommandLine> parseCommandLine(int argc, char **argv, QByteArray *error)
{
    CommandLine line;
    bool sawCommand = false;
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg(argv[i]);
        if (arg == "-h" || arg == "--help") {
            line.help = true;
        } else if (arg == "-c" || arg == "--config") {
            if (++i >= argc) {
                *error = arg + " needs a file name";
                return std::nullopt;
            }
            line.configFile = QString::fromLocal8Bit(argv[i]);
        } else if (arg.startsWith("--config=")) {
            line.configFile = QString::fromLocal8Bit(arg.mid(9));
        } else if (arg == "worker" && !sawCommand) {
            sawCommand = true;
        } else {
            *error = "unexpected argument \"" + arg + '"';
            return std::nullopt;
        }
    }
    if (!sawCommand && !line.help) {
        *error = QByteArrayLiteral("missing command: worker");
        return std::nullopt;
    }
    return line;
}

// A URI or key=value string that libpq cannot parse is a configuration
// error, not a database outage; a bare name is a database name.
std::optional<QByteArray> checkDatabase(const Configuration &configuration, const QByteArray &database)
{
    const bool conninfo =
        database.contains('=') || database.startsWith("postgres://") || database.startsWith("postgresql://");
    if (!conninfo)
        return std::nullopt;
    char *message = nullptr;
    PQconninfoOption *options = PQconninfoParse(database.constData(), &message);
    if (options) {
        PQconninfoFree(options);
        return std::nullopt;
    }
    QByteArray reason = "[pepsi] DATABASE: " + QByteArray(message ? message : "cannot be parsed").trimmed();
    PQfreemem(message);
    if (const Configuration::Entry *entry = configuration.entry(QStringLiteral("pepsi"), QStringLiteral("database")))
        reason = entry->origin.describe().toUtf8() + ": " + reason;
    return reason;
}

QString configPath(const CommandLine &line)
{
    if (!line.configFile.isEmpty())
        return line.configFile;
    const QString fromEnv = qEnvironmentVariable("PEPSI_CONFIG");
    return fromEnv.isEmpty() ? QStringLiteral("/etc/pepsi/pepsi.conf") : fromEnv;
}

} // namespace

int runWorker(int argc, char **argv, Handler handler) { return runWorker(argc, argv, Setup(), std::move(handler)); }

int runWorker(int argc, char **argv, Setup setup, Handler handler)
{
    return runWorker(argc, argv, std::move(setup), std::move(handler), WorkerOptions());
}

int runWorker(int argc, char **argv, Setup setup, Handler handler, WorkerOptions options)
{
    // A worker must not outlive its dispatcher; if it already died between
    // fork and here, getppid() has changed and stdin will be at EOF anyway.
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);

    const QByteArray program = argc > 0 ? QByteArray(argv[0]).split('/').last() : QByteArray("stage");
    QByteArray error;
    const std::optional<CommandLine> line = parseCommandLine(argc, argv, &error);
    if (!line) {
        logLine(program + ": " + error);
        const QByteArray text = usage(program);
        (void)!::write(STDERR_FILENO, text.constData(), size_t(text.size()));
        return ExitUsage;
    }
    if (line->help) {
        const QByteArray text = usage(program);
        (void)!::write(STDOUT_FILENO, text.constData(), size_t(text.size()));
        return 0;
    }

    auto configuration = Configuration::load(configPath(*line));
    if (!configuration) {
        logLine(program + ": " + configuration.error().toString().toUtf8());
        return ExitConfig;
    }
    const auto settings = DispatchSettings::fromConfiguration(*configuration);
    if (!settings) {
        logLine(program + ": " + settings.error().toString().toUtf8());
        return ExitConfig;
    }
    const QByteArray database = settings->database.toUtf8();
    if (const std::optional<QByteArray> bad = checkDatabase(*configuration, database)) {
        logLine(program + ": " + *bad);
        return ExitConfig;
    }
    const QString stage = qEnvironmentVariable("PEPSI_STAGE");
    if (stage.isEmpty()) {
        logLine(program + ": PEPSI_STAGE is not set: stage programs are started by pepsi-dispatch");
        return ExitConfig;
    }

    WorkerSession session(std::move(configuration).value(), database, stage, std::move(setup));
    // Connect now, so a bad stage or configuration shows at once; a database
    // that is down is no reason to fail: messages get 75 until it is back.
    QByteArray reason;
    if (session.prepare(&reason) == WorkerSession::State::Fatal) {
        logLine(program + ": " + reason);
        return ExitConfig;
    }
    return WorkerLoop(session, std::move(handler), options).run();
}

} // namespace pepsi::stagekit
