// SPDX-License-Identifier: AGPL-3.0-or-later
#include "control/protocol.h"
#include "controlclient.h"
#include "mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>
#include <memory>

using namespace pepsi::console;

namespace {

// --help and --version must work without a display: they get a core
// application, everything else the GUI one.
bool onlyPrints(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg(argv[i]);
        if (arg == "-h" || arg == "--help" || arg == "--help-all" || arg == "-v" || arg == "--version" || arg == "-?")
            return true;
    }
    return false;
}

} // namespace

int main(int argc, char **argv)
{
    std::unique_ptr<QCoreApplication> app(onlyPrints(argc, argv) ? new QCoreApplication(argc, argv)
                                                                 : new QApplication(argc, argv));
    QApplication::setOrganizationName(QStringLiteral("pepsi"));
    QApplication::setApplicationName(QStringLiteral("pepsi-console"));
    QApplication::setApplicationVersion(QStringLiteral(PEPSI_VERSION));

    // Ours from the resources, Qt's own (dialog buttons) from the system.
    QTranslator translator;
    // English is the fallback: its file holds the plural forms of "%n message(s)".
    if (translator.load(QLocale(), QStringLiteral("pepsi-console"), QStringLiteral("_"), QStringLiteral(":/i18n"))
        || translator.load(QStringLiteral(":/i18n/pepsi-console_en.qm")))
        QApplication::installTranslator(&translator);
    QTranslator qtTranslator;
    if (qtTranslator.load(QLocale(), QStringLiteral("qtbase"), QStringLiteral("_"),
                          QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QApplication::installTranslator(&qtTranslator);

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QApplication::translate("main",
                                "The admin console of pepsi-dispatch: watches and steers a running "
                                "dispatcher through its control socket."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption socket(QStringLiteral("socket"),
                                    QApplication::translate("main", "The daemon's control socket (default: %1).")
                                        .arg(pepsi::protocol::defaultSocketPath()),
                                    QApplication::translate("main", "PATH"), pepsi::protocol::defaultSocketPath());
    parser.addOption(socket);
    parser.process(*app);
    if (!parser.positionalArguments().isEmpty()) {
        // QCommandLineParser's own errors exit 1; a stray argument is a usage error too.
        (void)fputs(qPrintable(QApplication::translate("main", "pepsi-console: unexpected argument '%1'; see --help\n")
                                   .arg(parser.positionalArguments().first())),
                    stderr);
        return 64;
    }

    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/pepsi-console.png")));
    QGuiApplication::setDesktopFileName(QStringLiteral("pepsi-console"));
    ControlClient client;
    client.setSocketPath(parser.value(socket));
    MainWindow window(&client);
    window.show();
    client.start();
    return app->exec();
}
