// SPDX-License-Identifier: AGPL-3.0-or-later
// pepsi-schema: installs, upgrades or reports the pepsi-dispatch database schema.
//
//   pepsi-schema [-c FILE] [--database URI] install|status
//
// DATABASE comes from [pepsi] of the configuration (-c, else $PEPSI_CONFIG,
// else /etc/pepsi/pepsi.conf), as for pepsi-dispatch; --database overrides it
// and then no configuration file is read.
// Exit status: 0 done, 1 failure, 64 bad command line, 78 bad configuration.

#include "config/configuration.h"
#include "config/dispatchsettings.h"
#include "db/database.h"
#include "db/schemainstaller.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QSqlDatabase>
#include <cstdio>

namespace {

constexpr int ExitFailure = 1;
constexpr int ExitUsage = 64;  // EX_USAGE
constexpr int ExitConfig = 78; // EX_CONFIG

const QString ConnectionName = QStringLiteral("pepsi-schema");

void printOut(const QString &text) { (void)std::fputs(qPrintable(text + u'\n'), stdout); }

void printErr(const QString &text)
{
    (void)std::fputs(qPrintable(QStringLiteral("pepsi-schema: ") + text + u'\n'), stderr);
}

QString resolvedConfigFile(const QString &fromCommandLine) { return pepsi::Configuration::fileToRead(fromCommandLine); }

int runInstall(pepsi::SchemaInstaller &installer)
{
    const auto outcome = installer.install();
    if (!outcome) {
        printErr(outcome.error());
        return ExitFailure;
    }
    if (outcome->applied.isEmpty())
        printOut(QStringLiteral("schema version %1 is current; nothing to do").arg(outcome->toVersion));
    else
        printOut(QStringLiteral("schema upgraded from version %1 to %2 (%3)")
                     .arg(outcome->fromVersion)
                     .arg(outcome->toVersion)
                     .arg(outcome->applied.join(QStringLiteral(", "))));
    return 0;
}

int runStatus(const pepsi::SchemaInstaller &installer)
{
    const auto current = installer.currentVersion();
    if (!current) {
        printErr(current.error());
        return ExitFailure;
    }
    const int latest = installer.latestVersion();
    QString verdict;
    if (*current == latest)
        verdict = QStringLiteral("up to date");
    else if (*current == 0)
        verdict = QStringLiteral("not installed: run pepsi-schema install");
    else if (*current < latest)
        verdict = QStringLiteral("upgrade pending: run pepsi-schema install");
    else
        verdict = QStringLiteral("the database is newer than this build");
    printOut(
        QStringLiteral("database schema version %1, this build knows %2: %3").arg(*current).arg(latest).arg(verdict));
    return 0;
}

int run(const QCoreApplication &app)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Installs or upgrades the pepsi-dispatch database schema."));
    const QCommandLineOption configOption({QStringLiteral("c"), QStringLiteral("config")},
                                          QStringLiteral("configuration file (default: $PEPSI_CONFIG, then "
                                                         "/etc/pepsi/pepsi.conf)"),
                                          QStringLiteral("FILE"));
    const QCommandLineOption databaseOption(QStringLiteral("database"),
                                            QStringLiteral("libpq URI or key=value string; overrides [pepsi] "
                                                           "DATABASE"),
                                            QStringLiteral("URI"));
    parser.addOption(configOption);
    parser.addOption(databaseOption);
    const QCommandLineOption helpOption = parser.addHelpOption();
    const QCommandLineOption versionOption = parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("command"),
                                 QStringLiteral("install: apply what is missing; status: print the versions"),
                                 QStringLiteral("install|status"));

    if (!parser.parse(app.arguments())) {
        printErr(parser.errorText());
        return ExitUsage;
    }
    if (parser.isSet(helpOption)) {
        printOut(parser.helpText());
        return 0;
    }
    if (parser.isSet(versionOption)) {
        printOut(QStringLiteral("pepsi-schema " PEPSI_VERSION));
        return 0;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1 || (positional.first() != u"install" && positional.first() != u"status")) {
        printErr(QStringLiteral("expected one command, install or status (see --help)"));
        return ExitUsage;
    }

    QString database = parser.value(databaseOption);
    if (!parser.isSet(databaseOption)) {
        const QString configFile = resolvedConfigFile(parser.value(configOption));
        const auto config = pepsi::Configuration::load(configFile);
        if (!config) {
            printErr(config.error().toString());
            return ExitConfig;
        }
        const auto settings = pepsi::DispatchSettings::fromConfiguration(*config);
        if (!settings) {
            printErr(settings.error().toString());
            return ExitConfig;
        }
        database = settings->database;
    }

    const auto db = pepsi::openDatabase(ConnectionName, database, QStringLiteral("pepsi-schema"));
    if (!db) {
        printErr(db.error());
        return ExitFailure;
    }
    pepsi::SchemaInstaller installer(*db);
    return positional.first() == u"install" ? runInstall(installer) : runStatus(installer);
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("pepsi-schema"));
    QCoreApplication::setApplicationVersion(QStringLiteral(PEPSI_VERSION));
    const int status = run(app);
    // Every QSqlDatabase handle is gone by now; the connection can go too.
    QSqlDatabase::removeDatabase(ConnectionName);
    return status;
}
