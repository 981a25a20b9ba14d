// SPDX-License-Identifier: AGPL-3.0-or-later
#include "app/commandline.h"

#include "config/configuration.h"
#include "standardoptions.h"

namespace pepsi {

QString CommandLine::usage()
{
    return QStringLiteral(
        "Usage: pepsi-dispatch [-c FILE] [-L LEVEL] [-v] [-h] serve [--standby]\n"
        "       pepsi-dispatch [-c FILE] check\n"
        "\n"
        "The PEPSI dispatcher: claims queued messages and feeds them to stage workers.\n"
        "\n"
        "Options:\n"
        "  -c, --config FILE  configuration file (default: $PEPSI_CONFIG, then /etc/pepsi/pepsi.conf)\n"
        "  -L, --log LEVEL    ERROR, WARNING, INFO (default) or DEBUG\n"
        "  -v, --version      print the version and exit\n"
        "  -h, --help         print this help and exit\n"
        "\n"
        "Commands:\n"
        "  serve              run the dispatcher in the foreground\n"
        "    --standby        wait for the active dispatcher's lock instead of refusing to start\n"
        "  check              check the configuration (and the database's overlay) as serve and a\n"
        "                     reload would read it; print it and exit 0, or every problem and exit 78\n");
}

Result<CommandLine, QString> CommandLine::parse(const QStringList &arguments)
{
    CommandLine line;
    bool haveCommand = false;
    for (qsizetype i = 0; i < arguments.size(); ++i) {
        const QString &arg = arguments[i];
        const auto valueOf = [&](const QString &shortName, const QString &longName,
                                 QString *value) -> std::optional<QString> {
            if (arg == shortName || arg == longName) {
                if (i + 1 >= arguments.size())
                    return QStringLiteral("option %1 needs a value").arg(arg);
                *value = arguments[++i];
                return QString();
            }
            if (arg.startsWith(longName + u'=')) {
                *value = arg.mid(longName.size() + 1);
                return QString();
            }
            if (arg.startsWith(shortName) && arg.size() > 2 && !arg.startsWith(u"--")) {
                *value = arg.mid(2);
                return QString();
            }
            return std::nullopt;
        };

        if (haveCommand) {
            if (line.action == Action::Check)
                return QStringLiteral("check: unknown argument \"%1\"").arg(arg);
            if (arg == u"--standby") {
                line.standby = true;
                continue;
            }
            return QStringLiteral("serve: unknown argument \"%1\"").arg(arg);
        }
        QString value;
        if (auto error = valueOf(QStringLiteral("-c"), QStringLiteral("--config"), &value)) {
            if (!error->isEmpty())
                return *error;
            line.configFile = value;
            continue;
        }
        if (auto error = valueOf(QStringLiteral("-L"), QStringLiteral("--log"), &value)) {
            if (!error->isEmpty())
                return *error;
            const auto level = parseLogLevel(value);
            if (!level)
                return QStringLiteral("-L: unknown log level \"%1\" (ERROR, WARNING, INFO or DEBUG)").arg(value);
            line.logLevel = *level;
            continue;
        }
        if (takeStandardOption(arg, line))
            return line;
        if (arg.startsWith(u'-'))
            return QStringLiteral("unknown option \"%1\"").arg(arg);
        if (arg == u"check")
            line.action = Action::Check;
        else if (arg != u"serve")
            return QStringLiteral("unknown command \"%1\" (serve or check)").arg(arg);
        haveCommand = true;
    }
    if (!haveCommand)
        return QStringLiteral("missing command: serve or check");
    return line;
}

QString CommandLine::resolvedConfigFile() const { return Configuration::fileToRead(configFile); }

} // namespace pepsi
