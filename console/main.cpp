// SPDX-License-Identifier: AGPL-3.0-or-later
#include "control/protocol.h"
#include "systemswindow.h"
#include "transport/target.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QLibraryInfo>
#include <QLocale>
#include <QSet>
#include <QTranslator>
#include <cstdio>
#include <variant>

using namespace pepsi::console;

namespace {

// Ours from the resources, Qt's own (dialog buttons, the command line
// parser's errors) from the system's Qt translations (qt6-translations-l10n).
struct Translations
{
    QTranslator ours;
    QTranslator qt;
    bool oursLoaded = false;
    bool qtLoaded = false;

    Translations()
    {
        // English is the fallback: its file holds the plural forms of "%n message(s)".
        oursLoaded =
            ours.load(QLocale(), QStringLiteral("pepsi-console"), QStringLiteral("_"), QStringLiteral(":/i18n"))
            || ours.load(QStringLiteral(":/i18n/pepsi-console_en.qm"));
        qtLoaded = qt.load(QLocale(), QStringLiteral("qtbase"), QStringLiteral("_"),
                           QLibraryInfo::path(QLibraryInfo::TranslationsPath));
    }
    // Into the application there is now (there are two, one after the other).
    void install()
    {
        if (oursLoaded)
            QCoreApplication::installTranslator(&ours);
        if (qtLoaded)
            QCoreApplication::installTranslator(&qt);
    }
};

void setNames()
{
    QCoreApplication::setOrganizationName(QStringLiteral("pepsi"));
    QCoreApplication::setApplicationName(QStringLiteral("pepsi-console"));
    QCoreApplication::setApplicationVersion(QStringLiteral(PEPSI_VERSION));
}

// The arguments without Qt's own GUI options, which QApplication takes out of
// argv itself: the first parse, made before there is a display, must not call
// them unknown.
QStringList withoutQtOptions(int argc, char **argv)
{
    static const QSet<QByteArray> withValue{"-platform",        "-platformpluginpath",
                                            "-platformtheme",   "-plugin",
                                            "-qwindowgeometry", "-qwindowicon",
                                            "-qwindowtitle",    "-display",
                                            "-geometry",        "-style",
                                            "-stylesheet",      "-session",
                                            "-title",           "-qmljsdebugger"};
    static const QSet<QByteArray> flags{"-reverse", "-nograb", "-dograb", "-sync", "-widgetcount", "-testability"};
    QStringList out;
    for (int i = 0; i < argc; ++i) {
        QByteArray arg(argv[i]);
        if (i > 0 && arg.startsWith("--"))
            arg.remove(0, 1);
        const QByteArray name = arg.left(arg.indexOf('=') < 0 ? arg.size() : arg.indexOf('='));
        if (i > 0 && withValue.contains(name)) {
            if (!arg.contains('='))
                ++i; // its value
            continue;
        }
        if (i > 0 && flags.contains(arg))
            continue;
        out.append(QString::fromLocal8Bit(argv[i]));
    }
    return out;
}

// The command line, read before any window can be opened: --help, --version
// and usage errors need no display. Returns the targets, or the exit status.
std::variant<QList<pepsi::transport::Target>, int> parseCommandLine(int argc, char **argv, Translations &translations)
{
    QCoreApplication core(argc, argv);
    setNames();
    translations.install();
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QCoreApplication::translate("main",
                                    "The admin console of pepsi-dispatch: watches and steers a running "
                                    "dispatcher through its control socket."));
    parser.addPositionalArgument(
        QStringLiteral("target"),
        QCoreApplication::translate("main",
                                    "A daemon to watch: a control socket's path or ssh://[USER@]HOST[:PORT][/SOCKET] "
                                    "(default: the --socket path)."),
        QCoreApplication::translate("main", "[TARGET...]"));
    const QCommandLineOption help = parser.addHelpOption();
    const QCommandLineOption version = parser.addVersionOption();
    const QCommandLineOption socket(QStringLiteral("socket"),
                                    QCoreApplication::translate("main", "The daemon's control socket (default: %1).")
                                        .arg(pepsi::protocol::defaultSocketPath()),
                                    QCoreApplication::translate("main", "PATH"), pepsi::protocol::defaultSocketPath());
    parser.addOption(socket);
    if (!parser.parse(withoutQtOptions(argc, argv))) {
        QString error = parser.errorText(); // Qt's words, with a full stop we follow with our own
        if (error.endsWith(u'.'))
            error.chop(1);
        (void)fputs(qPrintable(QCoreApplication::translate("main", "pepsi-console: %1; see --help\n").arg(error)),
                    stderr);
        return 64;
    }
    if (parser.isSet(help))
        parser.showHelp(0); // exits
    if (parser.isSet(version))
        parser.showVersion(); // exits
    QList<pepsi::transport::Target> targets;
    for (const QString &text : parser.positionalArguments()) {
        auto target = pepsi::transport::Target::parse(text);
        if (!target) {
            (void)fputs(
                qPrintable(QCoreApplication::translate("main", "pepsi-console: %1; see --help\n").arg(target.error())),
                stderr);
            return 64;
        }
        targets.append(*target);
    }
    if (targets.isEmpty() || parser.isSet(socket))
        targets.prepend(pepsi::transport::Target::localSocket(parser.value(socket)));
    return targets;
}

} // namespace

int main(int argc, char **argv)
{
    Translations translations;
    const auto parsed = parseCommandLine(argc, argv, translations);
    if (const int *status = std::get_if<int>(&parsed))
        return *status;

    QApplication app(argc, argv);
    setNames();
    translations.install();
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/pepsi-console.png")));
    QGuiApplication::setDesktopFileName(QStringLiteral("pepsi-console"));
    SystemsWindow window;
    for (const pepsi::transport::Target &target : std::get<QList<pepsi::transport::Target>>(parsed))
        window.addSystem(target);
    window.show();
    return QApplication::exec();
}
