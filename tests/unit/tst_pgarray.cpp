// SPDX-License-Identifier: AGPL-3.0-or-later
#include "storage/pgarray.h"

#include <QTest>
#include <limits>

using pepsi::pgIntArray;
using pepsi::pgTextArray;

// Literals as PostgreSQL's array input reads them (see "Array Value Input"):
// every element double-quoted, '"' and '\' backslash-escaped, NULL unquoted.
class TestPgArray : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void text_data();
    void text();
    void integers_data();
    void integers();
};

void TestPgArray::text_data()
{
    QTest::addColumn<QStringList>("values");
    QTest::addColumn<QString>("literal");

    QTest::newRow("empty list") << QStringList() << QStringLiteral("{}");
    QTest::newRow("one") << QStringList{QStringLiteral("enrich")} << QStringLiteral("{\"enrich\"}");
    QTest::newRow("two") << QStringList{QStringLiteral("a"), QStringLiteral("b")} << QStringLiteral("{\"a\",\"b\"}");
    QTest::newRow("null string is NULL") << QStringList{QString()} << QStringLiteral("{NULL}");
    QTest::newRow("empty string is not NULL") << QStringList{QStringLiteral("")} << QStringLiteral("{\"\"}");
    QTest::newRow("the word NULL stays text") << QStringList{QStringLiteral("NULL")} << QStringLiteral("{\"NULL\"}");
    QTest::newRow("nulls between values") << QStringList{QStringLiteral("a"), QString(), QStringLiteral("b"), QString()}
                                          << QStringLiteral("{\"a\",NULL,\"b\",NULL}");
    QTest::newRow("double quote") << QStringList{QStringLiteral("say \"hi\"")}
                                  << QStringLiteral("{\"say \\\"hi\\\"\"}");
    QTest::newRow("backslash") << QStringList{QStringLiteral("a\\b")} << QStringLiteral("{\"a\\\\b\"}");
    QTest::newRow("backslash before quote") << QStringList{QStringLiteral("\\\"")} << QStringLiteral("{\"\\\\\\\"\"}");
    QTest::newRow("trailing backslash") << QStringList{QStringLiteral("x\\")} << QStringLiteral("{\"x\\\\\"}");
    QTest::newRow("array syntax inside") << QStringList{QStringLiteral("{a,b}"), QStringLiteral(" c ")}
                                         << QStringLiteral("{\"{a,b}\",\" c \"}");
    QTest::newRow("single quote untouched") << QStringList{QStringLiteral("it's")} << QStringLiteral("{\"it's\"}");
    QTest::newRow("newline and tab untouched")
        << QStringList{QStringLiteral("a\nb\tc")} << QStringLiteral("{\"a\nb\tc\"}");
    QTest::newRow("unicode") << QStringList{QStringLiteral("Grüße €"), QStringLiteral("😀")}
                             << QStringLiteral("{\"Grüße €\",\"😀\"}");
    QTest::newRow("status line reason") << QStringList{QStringLiteral("status 3: bad \"x\" in C:\\tmp")}
                                        << QStringLiteral("{\"status 3: bad \\\"x\\\" in C:\\\\tmp\"}");
}

void TestPgArray::text()
{
    QFETCH(QStringList, values);
    QFETCH(QString, literal);
    QCOMPARE(pgTextArray(values), literal);
}

void TestPgArray::integers_data()
{
    QTest::addColumn<QList<qint64>>("values");
    QTest::addColumn<QString>("literal");

    QTest::newRow("empty list") << QList<qint64>() << QStringLiteral("{}");
    QTest::newRow("one") << QList<qint64>{42} << QStringLiteral("{42}");
    QTest::newRow("several") << QList<qint64>{1, 2, 3} << QStringLiteral("{1,2,3}");
    QTest::newRow("zero and negative") << QList<qint64>{0, -7} << QStringLiteral("{0,-7}");
    QTest::newRow("64-bit extremes") << QList<qint64>{std::numeric_limits<qint64>::max(),
                                                      std::numeric_limits<qint64>::min()}
                                     << QStringLiteral("{9223372036854775807,-9223372036854775808}");
}

void TestPgArray::integers()
{
    QFETCH(QList<qint64>, values);
    QFETCH(QString, literal);
    QCOMPARE(pgIntArray(values), literal);
}

QTEST_APPLESS_MAIN(TestPgArray)
#include "tst_pgarray.moc"
