// SPDX-License-Identifier: AGPL-3.0-or-later
#include "app/commandline.h"

#include <QTest>

using pepsi::CommandLine;
using pepsi::LogLevel;

Q_DECLARE_METATYPE(CommandLine::Action)
Q_DECLARE_METATYPE(LogLevel)

class TestCommandLine : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void accepted_data();
    void accepted();
    void rejected_data();
    void rejected();
    void usageNamesEveryOption();
    void resolvedConfigFile_data();
    void resolvedConfigFile();

private:
    QByteArray m_savedConfig;
    bool m_hadConfig = false;
};

void TestCommandLine::init()
{
    m_hadConfig = qEnvironmentVariableIsSet("PEPSI_CONFIG");
    m_savedConfig = qgetenv("PEPSI_CONFIG");
}

void TestCommandLine::cleanup()
{
    if (m_hadConfig)
        qputenv("PEPSI_CONFIG", m_savedConfig);
    else
        qunsetenv("PEPSI_CONFIG");
}

void TestCommandLine::accepted_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<CommandLine::Action>("action");
    QTest::addColumn<QString>("configFile");
    QTest::addColumn<LogLevel>("logLevel");
    QTest::addColumn<bool>("standby");

    const auto serve = CommandLine::Action::Serve;
    const auto args = [](const char *text) { return QString::fromLatin1(text).split(u' ', Qt::SkipEmptyParts); };
    const QString none;
    const QString f = QStringLiteral("f");

    QTest::newRow("serve") << args("serve") << serve << none << LogLevel::Info << false;
    QTest::newRow("-c f serve") << args("-c f serve") << serve << f << LogLevel::Info << false;
    QTest::newRow("--config f serve") << args("--config f serve") << serve << f << LogLevel::Info << false;
    QTest::newRow("--config=f serve") << args("--config=f serve") << serve << f << LogLevel::Info << false;
    QTest::newRow("-cf serve") << args("-cf serve") << serve << f << LogLevel::Info << false;
    QTest::newRow("--config=a=b serve") << args("--config=a=b serve") << serve << QStringLiteral("a=b")
                                        << LogLevel::Info << false;
    QTest::newRow("file with spaces") << QStringList{QStringLiteral("-c"), QStringLiteral("/my dir/p.conf"),
                                                     QStringLiteral("serve")}
                                      << serve << QStringLiteral("/my dir/p.conf") << LogLevel::Info << false;
    QTest::newRow("file named serve") << args("-c serve serve") << serve << QStringLiteral("serve") << LogLevel::Info
                                      << false;
    QTest::newRow("last -c wins") << args("-c a -c b serve") << serve << QStringLiteral("b") << LogLevel::Info << false;
    QTest::newRow("-L debug serve") << args("-L debug serve") << serve << none << LogLevel::Debug << false;
    QTest::newRow("--log ERROR serve") << args("--log ERROR serve") << serve << none << LogLevel::Error << false;
    QTest::newRow("--log=Warning serve") << args("--log=Warning serve") << serve << none << LogLevel::Warning << false;
    QTest::newRow("-Linfo serve") << args("-Linfo serve") << serve << none << LogLevel::Info << false;
    QTest::newRow("-L DEBUG -c f serve") << args("-L DEBUG -c f serve") << serve << f << LogLevel::Debug << false;
    QTest::newRow("serve --standby") << args("serve --standby") << serve << none << LogLevel::Info << true;
    QTest::newRow("-cf -L debug serve --standby")
        << args("-cf -L debug serve --standby") << serve << f << LogLevel::Debug << true;
    const auto check = CommandLine::Action::Check;
    QTest::newRow("check") << args("check") << check << none << LogLevel::Info << false;
    QTest::newRow("-c f check") << args("-c f check") << check << f << LogLevel::Info << false;
    QTest::newRow("-h") << args("-h") << CommandLine::Action::Help << none << LogLevel::Info << false;
    QTest::newRow("--help") << args("--help") << CommandLine::Action::Help << none << LogLevel::Info << false;
    QTest::newRow("-h wins over what follows")
        << args("-h nonsense") << CommandLine::Action::Help << none << LogLevel::Info << false;
    QTest::newRow("-c f -h") << args("-c f -h") << CommandLine::Action::Help << f << LogLevel::Info << false;
    QTest::newRow("-v") << args("-v") << CommandLine::Action::Version << none << LogLevel::Info << false;
    QTest::newRow("--version") << args("--version") << CommandLine::Action::Version << none << LogLevel::Info << false;
}

void TestCommandLine::accepted()
{
    QFETCH(QStringList, arguments);
    QFETCH(CommandLine::Action, action);
    QFETCH(QString, configFile);
    QFETCH(LogLevel, logLevel);
    QFETCH(bool, standby);

    const auto line = CommandLine::parse(arguments);
    QVERIFY2(line.ok(), qPrintable(line.ok() ? QString() : line.error()));
    QCOMPARE(line->action, action);
    QCOMPARE(line->configFile, configFile);
    QCOMPARE(line->logLevel, logLevel);
    QCOMPARE(line->standby, standby);
}

void TestCommandLine::rejected_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("error");

    const auto args = [](const char *text) { return QString::fromLatin1(text).split(u' ', Qt::SkipEmptyParts); };
    const QString missing = QStringLiteral("missing command: serve or check");

    QTest::newRow("nothing") << QStringList() << missing;
    QTest::newRow("options only") << args("-c f -L debug") << missing;
    QTest::newRow("-c without value") << args("-c") << QStringLiteral("option -c needs a value");
    QTest::newRow("--config without value") << args("--config") << QStringLiteral("option --config needs a value");
    QTest::newRow("-L without value") << args("-L") << QStringLiteral("option -L needs a value");
    QTest::newRow("--log without value") << args("--log") << QStringLiteral("option --log needs a value");
    QTest::newRow("unknown log level") << args(
        "-L loud serve") << QStringLiteral("-L: unknown log level \"loud\" (ERROR, WARNING, INFO or DEBUG)");
    QTest::newRow("empty log level") << args("--log= serve")
                                     << QStringLiteral("-L: unknown log level \"\" (ERROR, WARNING, INFO or DEBUG)");
    QTest::newRow("-Lverbose") << args("-Lverbose serve")
                               << QStringLiteral("-L: unknown log level \"verbose\" (ERROR, WARNING, INFO or DEBUG)");
    QTest::newRow("unknown short option") << args("-x serve") << QStringLiteral("unknown option \"-x\"");
    QTest::newRow("unknown long option") << args("--verbose serve") << QStringLiteral("unknown option \"--verbose\"");
    QTest::newRow("long option prefix") << args("--config-file=f serve")
                                        << QStringLiteral("unknown option \"--config-file=f\"");
    QTest::newRow("single dash") << args("- serve") << QStringLiteral("unknown option \"-\"");
    QTest::newRow("-hx") << args("-hx") << QStringLiteral("unknown option \"-hx\"");
    QTest::newRow("--standby before serve")
        << args("--standby serve") << QStringLiteral("unknown option \"--standby\"");
    QTest::newRow("unknown command") << args("run") << QStringLiteral("unknown command \"run\" (serve or check)");
    QTest::newRow("command is case-sensitive")
        << args("SERVE") << QStringLiteral("unknown command \"SERVE\" (serve or check)");
    QTest::newRow("argument after serve") << args("serve extra") << QStringLiteral("serve: unknown argument \"extra\"");
    QTest::newRow("serve twice") << args("serve serve") << QStringLiteral("serve: unknown argument \"serve\"");
    QTest::newRow("argument after check")
        << args("check --standby") << QStringLiteral("check: unknown argument \"--standby\"");
    QTest::newRow("global option after serve")
        << args("serve -c f") << QStringLiteral("serve: unknown argument \"-c\"");
    QTest::newRow("-h after serve") << args("serve -h") << QStringLiteral("serve: unknown argument \"-h\"");
    QTest::newRow("-v after serve") << args("serve -v") << QStringLiteral("serve: unknown argument \"-v\"");
    QTest::newRow("--standby=yes") << args("serve --standby=yes")
                                   << QStringLiteral("serve: unknown argument \"--standby=yes\"");
    QTest::newRow("bad level before a bad command")
        << args("-L x run") << QStringLiteral("-L: unknown log level \"x\" (ERROR, WARNING, INFO or DEBUG)");
}

void TestCommandLine::rejected()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, error);

    const auto line = CommandLine::parse(arguments);
    QVERIFY2(!line.ok(), "a bad command line parsed");
    QCOMPARE(line.error(), error);
}

void TestCommandLine::usageNamesEveryOption()
{
    const QString usage = CommandLine::usage();
    QVERIFY(
        usage.startsWith(QStringLiteral("Usage: pepsi-dispatch [-c FILE] [-L LEVEL] [-v] [-h] serve [--standby]\n")));
    for (const char *option : {"--config FILE", "--log LEVEL", "--version", "--help", "serve", "--standby",
                               "$PEPSI_CONFIG", "/etc/pepsi/pepsi.conf"})
        QVERIFY2(usage.contains(QLatin1String(option)), option);
    QVERIFY(usage.endsWith(u'\n'));
}

void TestCommandLine::resolvedConfigFile_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<bool>("setEnvironment");
    QTest::addColumn<QByteArray>("environment");
    QTest::addColumn<QString>("resolved");

    const QString fallback = QStringLiteral("/etc/pepsi/pepsi.conf");
    const QStringList serve{QStringLiteral("serve")};
    const QStringList withC{QStringLiteral("-c"), QStringLiteral("/x/own.conf"), QStringLiteral("serve")};

    QTest::newRow("nothing set") << serve << false << QByteArray() << fallback;
    QTest::newRow("environment empty") << serve << true << QByteArray() << fallback;
    QTest::newRow("environment") << serve << true << QByteArray("/srv/p.conf") << QStringLiteral("/srv/p.conf");
    QTest::newRow("-c, no environment") << withC << false << QByteArray() << QStringLiteral("/x/own.conf");
    QTest::newRow("-c beats the environment")
        << withC << true << QByteArray("/srv/p.conf") << QStringLiteral("/x/own.conf");
}

void TestCommandLine::resolvedConfigFile()
{
    QFETCH(QStringList, arguments);
    QFETCH(bool, setEnvironment);
    QFETCH(QByteArray, environment);
    QFETCH(QString, resolved);

    if (setEnvironment)
        qputenv("PEPSI_CONFIG", environment);
    else
        qunsetenv("PEPSI_CONFIG");
    const auto line = CommandLine::parse(arguments);
    QVERIFY(line.ok());
    QCOMPARE(line->resolvedConfigFile(), resolved);
}

QTEST_APPLESS_MAIN(TestCommandLine)
#include "tst_commandline.moc"
