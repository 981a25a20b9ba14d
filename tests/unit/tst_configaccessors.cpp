// SPDX-License-Identifier: AGPL-3.0-or-later
// The configuration (common/config/configuration.h) as the daemon reads it:
// config_overlay rows merged over the file, and the typed accessors with
// their errors and defaults (the file's syntax: tst_configuration).
#include "config/configuration.h"
#include "configtext.h"

#include <QTest>

using pepsi::ConfigOrigin;
using pepsi::Configuration;
using pepsi::OverlayRow;

class TestConfigAccessors : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { qunsetenv("PEPSI_TST_UNDEFINED"); }
    void overlay();
    void overlayOrderDoesNotMatter();
    void accessors_data();
    void accessors();
    void accessorDefaults();
};

void TestConfigAccessors::overlay()
{
    const Configuration file = parseOrFail("[PATHS]\nBIN = /opt/bin\n[stage-a]\nPARALLELISM = 2\nPROGRAM = a\n");
    const Configuration merged = file.withOverlay({
        {QStringLiteral("STAGE-A"), QStringLiteral("parallelism"), QStringLiteral(" 8 ")},
        {QStringLiteral("stage-new"), QStringLiteral("Program"), QStringLiteral("$BIN/new")},
        {QString(), QStringLiteral("x"), QStringLiteral("nameless rows are skipped")},
    });

    // The original is untouched.
    QCOMPARE(rawValue(file, QStringLiteral("stage-a"), QStringLiteral("parallelism")), QStringLiteral("2"));
    QVERIFY(!file.sections().contains(QStringLiteral("stage-new")));

    QCOMPARE(merged.sections(),
             (QStringList{QStringLiteral("paths"), QStringLiteral("stage-a"), QStringLiteral("stage-new")}));
    QCOMPARE(merged.integer(QStringLiteral("stage-a"), QStringLiteral("parallelism"), 4, 1, 1024).value(), 8);
    QCOMPARE(merged.entry(QStringLiteral("stage-a"), QStringLiteral("parallelism"))->origin.describe(),
             QStringLiteral("config_overlay (stage-a, PARALLELISM)"));
    QCOMPARE(rawValue(merged, QStringLiteral("stage-a"), QStringLiteral("program")), QStringLiteral("a"));
    QCOMPARE(merged.sectionOrigin(QStringLiteral("stage-a")).describe(), QStringLiteral("test.conf:3"));
    QCOMPARE(merged.string(QStringLiteral("stage-new"), QStringLiteral("program")).value(),
             QStringLiteral("/opt/bin/new"));
    QCOMPARE(merged.sectionOrigin(QStringLiteral("stage-new")).describe(),
             QStringLiteral("config_overlay (stage-new)"));

    const Configuration bad =
        file.withOverlay({{QStringLiteral("stage-a"), QStringLiteral("PARALLELISM"), QStringLiteral("many")}});
    const auto error = bad.integer(QStringLiteral("stage-a"), QStringLiteral("parallelism"), 4, 1, 1024);
    QVERIFY(!error.ok());
    QCOMPARE(error.error().toString(),
             QStringLiteral("config_overlay (stage-a, PARALLELISM): PARALLELISM: \"many\" is not a whole number"));
}

// Two rows naming one option (PRIMARY KEY (section, option) lets them differ
// in case or blanks): whichever order a reader got them in, the same one
// wins, so the dispatcher and a worker build the same graph.
void TestConfigAccessors::overlayOrderDoesNotMatter()
{
    const Configuration file = parseOrFail("[stage-a]\nPROGRAM = a\n");
    const OverlayRow upper{QStringLiteral("stage-a"), QStringLiteral("NEXT"), QStringLiteral("b")};
    const OverlayRow lower{QStringLiteral("stage-a"), QStringLiteral("next"), QStringLiteral("c")};
    const OverlayRow spaced{QStringLiteral(" stage-a"), QStringLiteral("next"), QStringLiteral("d")};
    const QList<QList<OverlayRow>> orders = {
        {upper, lower, spaced}, {lower, upper, spaced}, {spaced, lower, upper}, {spaced, upper, lower}};
    for (const QList<OverlayRow> &rows : orders) {
        // (section, option) order: " stage-a" < "stage-a", "NEXT" < "next": "c" comes last.
        QCOMPARE(rawValue(file.withOverlay(rows), QStringLiteral("stage-a"), QStringLiteral("next")),
                 QStringLiteral("c"));
    }
}

void TestConfigAccessors::accessors_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<QString>("expected"); // rendered value, or the whole error

    QTest::newRow("integer") << "integer" << QByteArray("4") << "4";
    QTest::newRow("integer, plus") << "integer" << QByteArray("+7") << "7";
    QTest::newRow("integer, bounds") << "integer" << QByteArray("1024") << "1024";
    QTest::newRow("integer, expanded") << "integer" << QByteArray("${N}") << "12";
    QTest::newRow("integer, word") << "integer" << QByteArray("abc")
                                   << "test.conf:3: PARALLELISM: \"abc\" is not a whole number";
    QTest::newRow("integer, fraction") << "integer" << QByteArray("4.5")
                                       << "test.conf:3: PARALLELISM: \"4.5\" is not a whole number";
    QTest::newRow("integer, empty") << "integer" << QByteArray("")
                                    << "test.conf:3: PARALLELISM: \"\" is not a whole number";
    QTest::newRow("integer, zero") << "integer" << QByteArray("0")
                                   << "test.conf:3: PARALLELISM: 0 is out of range (1..1024)";
    QTest::newRow("integer, too big") << "integer" << QByteArray("1025")
                                      << "test.conf:3: PARALLELISM: 1025 is out of range (1..1024)";
    QTest::newRow("integer, negative") << "integer" << QByteArray("-1")
                                       << "test.conf:3: PARALLELISM: -1 is out of range (1..1024)";
    QTest::newRow("integer, overflow") << "integer" << QByteArray("99999999999999999999")
                                       << "test.conf:3: PARALLELISM: 99999999999999999999 is out of range (1..1024)";
    QTest::newRow("integer, undefined variable") << "integer" << QByteArray("$PEPSI_TST_UNDEFINED")
                                                 << "test.conf:3: PARALLELISM: undefined variable $PEPSI_TST_UNDEFINED";
    for (const char *yes : {"YES", "yes", "True", "on", "1"})
        QTest::addRow("boolean %s", yes) << "boolean" << QByteArray(yes) << "true";
    for (const char *no : {"NO", "no", "FALSE", "Off", "0"})
        QTest::addRow("boolean %s", no) << "boolean" << QByteArray(no) << "false";
    QTest::newRow("boolean, maybe") << "boolean" << QByteArray("maybe")
                                    << "test.conf:3: FUSE: \"maybe\" is not YES or NO";
    QTest::newRow("boolean, empty") << "boolean" << QByteArray("") << "test.conf:3: FUSE: \"\" is not YES or NO";
    QTest::newRow("duration") << "duration" << QByteArray("300 s") << "300000";
    QTest::newRow("duration, bare") << "duration" << QByteArray("2") << "2000";
    QTest::newRow("duration, unknown unit") << "duration" << QByteArray("5 parsecs")
                                            << "test.conf:3: MAX_RUNTIME: \"5 parsecs\": unknown time unit \"parsecs\"";
    QTest::newRow("duration, negative") << "duration" << QByteArray("-5 s")
                                        << "test.conf:3: MAX_RUNTIME: \"-5 s\": negative times are not allowed";
    QTest::newRow("string") << "string" << QByteArray("postgres:///x?host=$BASE") << "postgres:///x?host=/srv/pepsi";
    QTest::newRow("string, undefined variable") << "string" << QByteArray("${PEPSI_TST_UNDEFINED}")
                                                << "test.conf:3: DATABASE: undefined variable $PEPSI_TST_UNDEFINED";
}

void TestConfigAccessors::accessors()
{
    QFETCH(QString, kind);
    QFETCH(QByteArray, value);
    QFETCH(QString, expected);

    const QHash<QString, QString> optionFor{{QStringLiteral("integer"), QStringLiteral("Parallelism")},
                                            {QStringLiteral("boolean"), QStringLiteral("fuse")},
                                            {QStringLiteral("duration"), QStringLiteral("max_runtime")},
                                            {QStringLiteral("string"), QStringLiteral("DATABASE")}};
    const QString option = optionFor.value(kind);
    const Configuration config =
        parseOrFail("[PATHS]\nBASE=/srv/pepsi\n" + option.toUtf8() + " = " + value + "\nN = 12\n");
    const QString section = QStringLiteral("paths");

    auto render = [](const auto &result, auto show) {
        return result.ok() ? show(result.value()) : result.error().toString();
    };
    QString actual;
    if (kind == u"integer")
        actual = render(config.integer(section, option, 4, 1, 1024), [](qint64 v) { return QString::number(v); });
    else if (kind == u"boolean")
        actual = render(config.boolean(section, option, false),
                        [](bool v) { return v ? QStringLiteral("true") : QStringLiteral("false"); });
    else if (kind == u"duration")
        actual = render(config.duration(section, option, std::chrono::seconds(1)),
                        [](std::chrono::milliseconds v) { return QString::number(v.count()); });
    else
        actual = render(config.string(section, option), [](const QString &v) { return v; });
    QCOMPARE(actual, expected);
}

void TestConfigAccessors::accessorDefaults()
{
    const Configuration config = parseOrFail("[a]\nx = 1\n");
    const QString a = QStringLiteral("a");
    const QString missing = QStringLiteral("missing");
    QCOMPARE(config.string(a, missing, QStringLiteral("dflt")).value(), QStringLiteral("dflt"));
    QCOMPARE(config.string(missing, missing).value(), QString());
    QCOMPARE(config.integer(a, missing, 42, 1, 10).value(), 42); // the default is not range-checked
    QCOMPARE(config.boolean(a, missing, true).value(), true);
    QCOMPARE(config.duration(a, missing, std::chrono::milliseconds(250)).value(), std::chrono::milliseconds(250));
}

QTEST_APPLESS_MAIN(TestConfigAccessors)
#include "tst_configaccessors.moc"
