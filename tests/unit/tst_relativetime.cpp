// SPDX-License-Identifier: AGPL-3.0-or-later
#include "config/relativetime.h"

#include <QTest>

using namespace std::chrono_literals;
using pepsi::formatRelativeTime;
using pepsi::parseRelativeTime;

class TestRelativeTime : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parse_data();
    void parse();
    void errors_data();
    void errors();
    void format_data();
    void format();
    void roundTrip_data();
    void roundTrip();
};

void TestRelativeTime::parse_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("ms");

    QTest::newRow("seconds") << QStringLiteral("300 s") << qint64(300'000);
    QTest::newRow("min") << QStringLiteral("5 min") << qint64(300'000);
    QTest::newRow("m") << QStringLiteral("5m") << qint64(300'000);
    QTest::newRow("ms") << QStringLiteral("250 ms") << qint64(250);
    QTest::newRow("ms, no space") << QStringLiteral("250ms") << qint64(250);
    QTest::newRow("h") << QStringLiteral("2h") << qint64(7'200'000);
    QTest::newRow("d") << QStringLiteral("1 d") << qint64(86'400'000);
    QTest::newRow("upper-case unit") << QStringLiteral("1 D") << qint64(86'400'000);
    QTest::newRow("mixed-case unit") << QStringLiteral("5 MiN") << qint64(300'000);
    QTest::newRow("MS") << QStringLiteral("7 MS") << qint64(7);
    QTest::newRow("bare number is seconds") << QStringLiteral("30") << qint64(30'000);
    QTest::newRow("zero") << QStringLiteral("0") << qint64(0);
    QTest::newRow("surrounding whitespace") << QStringLiteral("  7 s\t") << qint64(7'000);
    QTest::newRow("tab between") << QStringLiteral("7\ts") << qint64(7'000);
    QTest::newRow("fraction") << QStringLiteral("1.5 s") << qint64(1'500);
    QTest::newRow("fraction is exact") << QStringLiteral("0.3 s") << qint64(300);
    QTest::newRow("fraction of a minute") << QStringLiteral("0.25 min") << qint64(15'000);
    QTest::newRow("fraction, bare") << QStringLiteral("2.5") << qint64(2'500);
    QTest::newRow("half a ms rounds up") << QStringLiteral("1.0005 s") << qint64(1'001);
    QTest::newRow("less than half rounds down") << QStringLiteral("0.0004 s") << qint64(0);
    QTest::newRow("leading zeros") << QStringLiteral("007 s") << qint64(7'000);
    QTest::newRow("largest days") << QStringLiteral("106751991167 d") << qint64(9'223'372'036'828'800'000);
}

void TestRelativeTime::parse()
{
    QFETCH(QString, text);
    QFETCH(qint64, ms);
    const auto result = parseRelativeTime(text);
    QVERIFY2(result.ok(), qPrintable(result.ok() ? QString() : result.error()));
    QCOMPARE(result.value().count(), ms);
}

void TestRelativeTime::errors_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("reason");

    const QString empty = QStringLiteral("no time given (expected a number and a unit: ms, s, m, min, h, d)");
    const QString garbage = QStringLiteral("not a time (expected a number and a unit: ms, s, m, min, h, d)");
    QTest::newRow("empty") << QString() << empty;
    QTest::newRow("blank") << QStringLiteral("  \t ") << empty;
    QTest::newRow("negative") << QStringLiteral("-5 s") << QStringLiteral("negative times are not allowed");
    QTest::newRow("negative bare") << QStringLiteral("-1") << QStringLiteral("negative times are not allowed");
    QTest::newRow("unknown unit") << QStringLiteral("5 parsecs") << QStringLiteral("unknown time unit \"parsecs\"");
    QTest::newRow("long unit name") << QStringLiteral("5 sec") << QStringLiteral("unknown time unit \"sec\"");
    QTest::newRow("letters only") << QStringLiteral("abc") << garbage;
    QTest::newRow("unit only") << QStringLiteral("s") << garbage;
    QTest::newRow("two units") << QStringLiteral("5 s s") << garbage;
    QTest::newRow("two terms") << QStringLiteral("1 h 30 min") << garbage;
    QTest::newRow("digits after unit") << QStringLiteral("5s3") << garbage;
    QTest::newRow("trailing dot") << QStringLiteral("1. s") << garbage;
    QTest::newRow("leading dot") << QStringLiteral(".5 s") << garbage;
    QTest::newRow("comma") << QStringLiteral("1,5 s") << garbage;
    QTest::newRow("plus sign") << QStringLiteral("+5 s") << garbage;
    QTest::newRow("minus garbage") << QStringLiteral("-x") << garbage;
    QTest::newRow("non-ASCII unit") << QStringLiteral("5 \u00b5s") << garbage;
    QTest::newRow("overflow in the unit") << QStringLiteral("9999999999999999 s") << QStringLiteral("too large");
    QTest::newRow("overflow in the number") << QStringLiteral("99999999999999999999") << QStringLiteral("too large");
    QTest::newRow("overflow just past") << QStringLiteral("106751991168 d") << QStringLiteral("too large");
}

void TestRelativeTime::errors()
{
    QFETCH(QString, text);
    QFETCH(QString, reason);
    const auto result = parseRelativeTime(text);
    QVERIFY2(!result.ok(), qPrintable(QStringLiteral("parsed as %1 ms").arg(result.ok() ? result->count() : 0)));
    QCOMPARE(result.error(), reason);
}

void TestRelativeTime::format_data()
{
    QTest::addColumn<qint64>("ms");
    QTest::addColumn<QString>("text");

    QTest::newRow("zero") << qint64(0) << QStringLiteral("0 s");
    QTest::newRow("ms") << qint64(250) << QStringLiteral("250 ms");
    QTest::newRow("one second") << qint64(1'000) << QStringLiteral("1 s");
    QTest::newRow("not whole seconds") << qint64(1'500) << QStringLiteral("1500 ms");
    QTest::newRow("a minute is shorter in seconds") << qint64(60'000) << QStringLiteral("60 s");
    QTest::newRow("tie goes to seconds") << qint64(300'000) << QStringLiteral("300 s");
    QTest::newRow("hour") << qint64(3'600'000) << QStringLiteral("1 h");
    QTest::newRow("90 min") << qint64(5'400'000) << QStringLiteral("5400 s");
    QTest::newRow("day") << qint64(86'400'000) << QStringLiteral("1 d");
    QTest::newRow("24 days") << qint64(2'073'600'000) << QStringLiteral("24 d");
    QTest::newRow("36 hours") << qint64(129'600'000) << QStringLiteral("36 h");
}

void TestRelativeTime::format()
{
    QFETCH(qint64, ms);
    QFETCH(QString, text);
    QCOMPARE(formatRelativeTime(std::chrono::milliseconds(ms)), text);
}

void TestRelativeTime::roundTrip_data()
{
    QTest::addColumn<qint64>("ms");
    for (const qint64 ms :
         {qint64(0), qint64(1), qint64(999), qint64(1'001), qint64(59'000), qint64(61'000), qint64(300'000),
          qint64(3'599'999), qint64(7'200'000), qint64(86'400'001), qint64(9'223'372'036'828'800'000)})
        QTest::addRow("%lld", static_cast<long long>(ms)) << ms;
}

void TestRelativeTime::roundTrip()
{
    QFETCH(qint64, ms);
    const QString text = formatRelativeTime(std::chrono::milliseconds(ms));
    const auto parsed = parseRelativeTime(text);
    QVERIFY2(parsed.ok(), qPrintable(text));
    QCOMPARE(parsed->count(), ms);
}

QTEST_APPLESS_MAIN(TestRelativeTime)
#include "tst_relativetime.moc"
