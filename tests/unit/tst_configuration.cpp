// SPDX-License-Identifier: AGPL-3.0-or-later
// The configuration file (common/config/configuration.h): sections and
// options, comments, quoting, parse and load errors, the expansion of
// variables (the overlay and the typed accessors: tst_configaccessors).
#include "config/configuration.h"
#include "configtext.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using pepsi::ConfigOrigin;
using pepsi::Configuration;

namespace {

// Variables for the expansion tests; [PATHS] line numbers matter for errors.
const QByteArray kPathsText = R"([PATHS]
BASE = /srv/pepsi
DATA = $BASE/data
run = ${DATA}/run
EMPTY =
LOOP_A = $LOOP_B
LOOP_B = ${LOOP_A}
SELF = $SELF
BAD = $PEPSI_TST_UNDEFINED/x
PEPSI_TST_SHADOW = from-paths
N = 12
)";

} // namespace

class TestConfiguration : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void parsesSectionsAndOptions();
    void commentsAndBlankLines();
    void quoting_data();
    void quoting();
    void parseErrors_data();
    void parseErrors();
    void loadsFile();
    void loadErrors();
    void expansion_data();
    void expansion();
    void expansionErrors_data();
    void expansionErrors();
    void expansionIsBounded();
};

void TestConfiguration::initTestCase()
{
    qputenv("PEPSI_TST_HOME", "/home/tst");
    qputenv("PEPSI_TST_EMPTY", "");
    qputenv("PEPSI_TST_SHADOW", "from-env");
    qunsetenv("PEPSI_TST_UNDEFINED");
    qunsetenv("PEPSI_TST_ALSO_UNDEFINED");
}

void TestConfiguration::parsesSectionsAndOptions()
{
    const Configuration config = parseOrFail("[PePsi]\nDataBase = postgres:///x\n\n[stage-A]\nprogram=/bin/a\n"
                                             "  Next   =   b c  \n[empty]\n");
    QCOMPARE(config.fileName(), kFile);
    QCOMPARE(config.sections(),
             (QStringList{QStringLiteral("empty"), QStringLiteral("pepsi"), QStringLiteral("stage-a")}));
    QCOMPARE(config.options(QStringLiteral("STAGE-a")),
             (QStringList{QStringLiteral("next"), QStringLiteral("program")}));
    QVERIFY(config.options(QStringLiteral("empty")).isEmpty());
    QVERIFY(config.contains(QStringLiteral("PEPSI"), QStringLiteral("database")));
    QVERIFY(!config.contains(QStringLiteral("pepsi"), QStringLiteral("program")));
    QVERIFY(!config.contains(QStringLiteral("nope"), QStringLiteral("database")));
    QCOMPARE(rawValue(config, QStringLiteral("pepsi"), QStringLiteral("DATABASE")), QStringLiteral("postgres:///x"));
    QCOMPARE(rawValue(config, QStringLiteral("stage-a"), QStringLiteral("next")), QStringLiteral("b c"));
    QCOMPARE(config.entry(QStringLiteral("stage-a"), QStringLiteral("next"))->origin.describe(),
             QStringLiteral("test.conf:6"));
    QCOMPARE(config.sectionOrigin(QStringLiteral("Stage-A")).describe(), QStringLiteral("test.conf:4"));
}

void TestConfiguration::commentsAndBlankLines()
{
    const Configuration config = parseOrFail("# a comment\n% also a comment\n\n[a]\n  # indented comment\r\n"
                                             "url = http://x/#frag # not a comment\r\n\t\n"
                                             "%x = 1\nsecret = pa#ss%\n");
    QCOMPARE(config.options(QStringLiteral("a")), (QStringList{QStringLiteral("secret"), QStringLiteral("url")}));
    QCOMPARE(rawValue(config, QStringLiteral("a"), QStringLiteral("url")),
             QStringLiteral("http://x/#frag # not a comment"));
    QCOMPARE(rawValue(config, QStringLiteral("a"), QStringLiteral("secret")), QStringLiteral("pa#ss%"));
    QCOMPARE(config.entry(QStringLiteral("a"), QStringLiteral("secret"))->origin.line, 9);
}

void TestConfiguration::quoting_data()
{
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<QString>("expected");
    QTest::newRow("plain") << QByteArray("abc") << QStringLiteral("abc");
    QTest::newRow("quoted keeps spaces") << QByteArray("\"  a b  \"") << QStringLiteral("  a b  ");
    QTest::newRow("quoted empty") << QByteArray("\"\"") << QString();
    QTest::newRow("quoted hash") << QByteArray("\"# x\"") << QStringLiteral("# x");
    QTest::newRow("lone quote stays") << QByteArray("\"") << QStringLiteral("\"");
    QTest::newRow("unbalanced stays") << QByteArray("\"abc") << QStringLiteral("\"abc");
    QTest::newRow("inner quotes stay") << QByteArray("a \"b\" c") << QStringLiteral("a \"b\" c");
    QTest::newRow("empty") << QByteArray() << QString();
    QTest::newRow("equals in value") << QByteArray("host=/run dbname=x") << QStringLiteral("host=/run dbname=x");
    QTest::newRow("UTF-8") << QByteArray("gr\xc3\xbc\xc3\x9f") << QStringLiteral("gr\u00fc\u00df");
}

void TestConfiguration::quoting()
{
    QFETCH(QByteArray, value);
    QFETCH(QString, expected);
    const Configuration config = parseOrFail("[a]\nopt = " + value + '\n');
    QCOMPARE(rawValue(config, QStringLiteral("a"), QStringLiteral("opt")), expected);
}

void TestConfiguration::parseErrors_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("error");
    QTest::newRow("option before any section")
        << QByteArray("\nFoo = 1\n") << QStringLiteral("test.conf:2: option FOO is outside any section");
    QTest::newRow("missing =") << QByteArray("[a]\nfoo\n") << QStringLiteral("test.conf:2: missing \"=\" in \"foo\"");
    QTest::newRow("missing = outside section")
        << QByteArray("foo bar") << QStringLiteral("test.conf:1: missing \"=\" in \"foo bar\"");
    QTest::newRow("unclosed header") << QByteArray("[a\n") << QStringLiteral("test.conf:1: bad section header \"[a\"");
    QTest::newRow("empty header") << QByteArray("[a]\nx=1\n[ ]")
                                  << QStringLiteral("test.conf:3: bad section header \"[ ]\"");
    QTest::newRow("nested brackets") << QByteArray("[a[b]]")
                                     << QStringLiteral("test.conf:1: bad section header \"[a[b]]\"");
    QTest::newRow("trailing text after header")
        << QByteArray("[a] x") << QStringLiteral("test.conf:1: bad section header \"[a] x\"");
    QTest::newRow("missing option name") << QByteArray("[a]\n = x\n")
                                         << QStringLiteral("test.conf:2: missing option name before \"=\"");
    QTest::newRow("space in option name")
        << QByteArray("[a]\nmax runtime = 5 s\n") << QStringLiteral("test.conf:2: bad option name \"max runtime\"");
    QTest::newRow("duplicate option") << QByteArray(
        "[a]\nfoo = 1\nFOO = 2\n") << QStringLiteral("test.conf:3: duplicate option FOO in [a] (first set on line 2)");
    QTest::newRow("duplicate in a reopened section")
        << QByteArray("[a]\nx = 1\n[b]\nx = 2\n[A]\nX = 3\n")
        << QStringLiteral("test.conf:6: duplicate option X in [a] (first set on line 2)");
    QTest::newRow("invalid UTF-8") << QByteArray("[a]\nx = \xff\xfe\n")
                                   << QStringLiteral("test.conf:2: not valid UTF-8");
}

void TestConfiguration::parseErrors()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, error);
    const auto result = Configuration::parse(text, kFile);
    QVERIFY(!result.ok());
    QCOMPARE(result.error().toString(), error);
}

void TestConfiguration::loadsFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("pepsi.conf"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("[pepsi]\n\nDATABASE = postgres:///t\n");
    file.close();

    const auto result = Configuration::load(path);
    QVERIFY2(result.ok(), qPrintable(result.ok() ? QString() : result.error().toString()));
    QCOMPARE(result->fileName(), path);
    QCOMPARE(result->entry(QStringLiteral("pepsi"), QStringLiteral("database"))->origin.describe(),
             path + QStringLiteral(":3"));
}

void TestConfiguration::loadErrors()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString missing = dir.filePath(QStringLiteral("missing.conf"));
    const auto result = Configuration::load(missing);
    QVERIFY(!result.ok());
    QCOMPARE(result.error().toString(), missing + QStringLiteral(": cannot read: No such file or directory"));

    const auto directory = Configuration::load(dir.path());
    QVERIFY(!directory.ok());
    QVERIFY2(directory.error().toString().startsWith(dir.path() + QStringLiteral(": cannot read: ")),
             qPrintable(directory.error().toString()));
}

void TestConfiguration::expansion_data()
{
    QTest::addColumn<QString>("raw");
    QTest::addColumn<QString>("expected");
    QTest::newRow("no variables") << QStringLiteral("plain") << QStringLiteral("plain");
    QTest::newRow("$VAR") << QStringLiteral("$BASE/x") << QStringLiteral("/srv/pepsi/x");
    QTest::newRow("${VAR}") << QStringLiteral("${BASE}x") << QStringLiteral("/srv/pepsix");
    QTest::newRow("name is case-insensitive in PATHS") << QStringLiteral("$base") << QStringLiteral("/srv/pepsi");
    QTest::newRow("PATHS values expand recursively") << QStringLiteral("$RUN") << QStringLiteral("/srv/pepsi/data/run");
    QTest::newRow("twice") << QStringLiteral("$BASE:$BASE") << QStringLiteral("/srv/pepsi:/srv/pepsi");
    QTest::newRow("environment") << QStringLiteral("$PEPSI_TST_HOME/.pepsi") << QStringLiteral("/home/tst/.pepsi");
    QTest::newRow("PATHS before environment") << QStringLiteral("$PEPSI_TST_SHADOW") << QStringLiteral("from-paths");
    QTest::newRow("set but empty") << QStringLiteral("[$PEPSI_TST_EMPTY]") << QStringLiteral("[]");
    QTest::newRow("default when unset") << QStringLiteral("${PEPSI_TST_UNDEFINED:-fallback}")
                                        << QStringLiteral("fallback");
    QTest::newRow("empty default") << QStringLiteral("${PEPSI_TST_UNDEFINED:-}") << QString();
    QTest::newRow("default when empty (env)") << QStringLiteral("${PEPSI_TST_EMPTY:-fb}") << QStringLiteral("fb");
    QTest::newRow("default when empty (PATHS)") << QStringLiteral("${EMPTY:-fb}") << QStringLiteral("fb");
    QTest::newRow("default unused") << QStringLiteral("${PEPSI_TST_HOME:-fb}") << QStringLiteral("/home/tst");
    QTest::newRow("default unused (PATHS)") << QStringLiteral("${BASE:-fb}") << QStringLiteral("/srv/pepsi");
    QTest::newRow("default expands") << QStringLiteral("${PEPSI_TST_UNDEFINED:-$BASE/d}")
                                     << QStringLiteral("/srv/pepsi/d");
    QTest::newRow("nested default") << QStringLiteral("${PEPSI_TST_UNDEFINED:-${PEPSI_TST_ALSO_UNDEFINED:-deep}}/x")
                                    << QStringLiteral("deep/x");
    QTest::newRow("undefined in unused default")
        << QStringLiteral("${BASE:-$PEPSI_TST_UNDEFINED}") << QStringLiteral("/srv/pepsi");
    QTest::newRow("lone $ at end") << QStringLiteral("costs 5$") << QStringLiteral("costs 5$");
    QTest::newRow("$ before space") << QStringLiteral("a $ b") << QStringLiteral("a $ b");
    QTest::newRow("$ before punctuation") << QStringLiteral("$-x $/") << QStringLiteral("$-x $/");
}

void TestConfiguration::expansion()
{
    QFETCH(QString, raw);
    QFETCH(QString, expected);
    const Configuration config = parseOrFail(kPathsText);
    const auto result = config.expand(raw, ConfigOrigin::fromFile(kFile, 99));
    QVERIFY2(result.ok(), qPrintable(result.ok() ? QString() : result.error().toString()));
    QCOMPARE(result.value(), expected);
}

void TestConfiguration::expansionErrors_data()
{
    QTest::addColumn<QString>("raw");
    QTest::addColumn<QString>("error");
    QTest::newRow("undefined") << QStringLiteral("$PEPSI_TST_UNDEFINED/x")
                               << QStringLiteral("test.conf:99: undefined variable $PEPSI_TST_UNDEFINED");
    QTest::newRow("undefined, braced") << QStringLiteral("a${PEPSI_TST_UNDEFINED}")
                                       << QStringLiteral("test.conf:99: undefined variable $PEPSI_TST_UNDEFINED");
    QTest::newRow("undefined inside PATHS")
        << QStringLiteral("$BAD")
        << QStringLiteral("test.conf:99: undefined variable $PEPSI_TST_UNDEFINED in [PATHS] BAD (test.conf:9)");
    QTest::newRow("loop") << QStringLiteral("${LOOP_A}")
                          << QStringLiteral("test.conf:99: variable loop in [PATHS]: $LOOP_A -> $LOOP_B -> $LOOP_A");
    QTest::newRow("loop entered in the middle")
        << QStringLiteral("$loop_b")
        << QStringLiteral("test.conf:99: variable loop in [PATHS]: $LOOP_B -> $LOOP_A -> $LOOP_B");
    QTest::newRow("self reference") << QStringLiteral("$SELF")
                                    << QStringLiteral("test.conf:99: variable loop in [PATHS]: $SELF -> $SELF");
    QTest::newRow("unterminated") << QStringLiteral("${BASE")
                                  << QStringLiteral("test.conf:99: unterminated \"${BASE\"");
    QTest::newRow("unterminated default")
        << QStringLiteral("${X:-abc") << QStringLiteral("test.conf:99: unterminated \"${X:-\"");
    QTest::newRow("empty name") << QStringLiteral("${}")
                                << QStringLiteral("test.conf:99: missing variable name after \"${\"");
    QTest::newRow("bad character") << QStringLiteral(
        "${BASE x}") << QStringLiteral("test.conf:99: bad variable reference \"${BASE \" (expected \"}\" or \":-\")");
    QTest::newRow("shell-only syntax") << QStringLiteral(
        "${BASE:=x}") << QStringLiteral("test.conf:99: bad variable reference \"${BASE:\" (expected \"}\" or \":-\")");
}

void TestConfiguration::expansionErrors()
{
    QFETCH(QString, raw);
    QFETCH(QString, error);
    const Configuration config = parseOrFail(kPathsText);
    const auto result = config.expand(raw, ConfigOrigin::fromFile(kFile, 99));
    QVERIFY2(!result.ok(), qPrintable(result.ok() ? result.value() : QString()));
    QCOMPARE(result.error().toString(), error);
}

void TestConfiguration::expansionIsBounded()
{
    QByteArray text = "[PATHS]\nB0 = 0123456789abcdef\n";
    for (int i = 1; i <= 24; ++i)
        text +=
            'B' + QByteArray::number(i) + " = $B" + QByteArray::number(i - 1) + "$B" + QByteArray::number(i - 1) + '\n';
    const Configuration config = parseOrFail(text);
    const auto small = config.expand(QStringLiteral("$B3"), {});
    QVERIFY(small.ok());
    QCOMPARE(small->size(), 16 * 8);
    const auto huge = config.expand(QStringLiteral("$B24"), {});
    QVERIFY(!huge.ok());
    QVERIFY2(huge.error().reason.startsWith(QStringLiteral("value longer than 1048576 characters after expansion")),
             qPrintable(huge.error().reason));
}

QTEST_APPLESS_MAIN(TestConfiguration)
#include "tst_configuration.moc"
