// SPDX-License-Identifier: AGPL-3.0-or-later
#include "protocol/statusline.h"

#include <QTest>

using pepsi::parseStatusLine;
using pepsi::quoteForLog;
using pepsi::StatusLine;
using namespace Qt::StringLiterals;

namespace {

// "stage:usec" per fused run: readable rows, and QCOMPARE prints them.
QStringList describeFused(const StatusLine &status)
{
    QStringList runs;
    for (const pepsi::FusedRun &run : status.fused)
        runs << run.stage + u':' + QString::number(run.usec);
    return runs;
}

// 998 ASCII bytes, then a 3-byte euro sign across the 1000-byte limit.
QByteArray reasonCrossingTheLimit() { return QByteArray(998, 'a') + "\xE2\x82\xAC" + " and the rest"; }

} // namespace

class TestStatusLine : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parse_data();
    void parse();
    void refusedLineIsQuoted_data();
    void refusedLineIsQuoted();
    void quote_data();
    void quote();
    void prefix_data();
    void prefix();
};

void TestStatusLine::parse_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("reason");
    QTest::addColumn<QStringList>("fused");

    const QStringList none;
    QTest::newRow("success") << QByteArray("0") << 0 << QString() << none;
    QTest::newRow("fused runs") << QByteArray("0 +enrich:120 +score:80") << 0 << QString()
                                << QStringList{QStringLiteral("enrich:120"), QStringLiteral("score:80")};
    QTest::newRow("fused, extra spaces") << QByteArray("0  +a:1  +b-2_c:0 ") << 0 << QString()
                                         << QStringList{QStringLiteral("a:1"), QStringLiteral("b-2_c:0")};
    QTest::newRow("fused, digit-first stage")
        << QByteArray("0 +0x:7") << 0 << QString() << QStringList{QStringLiteral("0x:7")};
    QTest::newRow("fused, 63-byte stage") << QByteArray("0 +" + QByteArray(63, 'z') + ":5") << 0 << QString()
                                          << QStringList{QString(QString(63, u'z') + QStringLiteral(":5"))};
    QTest::newRow("success, trailing space") << QByteArray("0 ") << 0 << QString() << none;
    QTest::newRow("failure") << QByteArray("3 some reason") << 3 << QStringLiteral("some reason") << none;
    QTest::newRow("failure, no reason") << QByteArray("3") << 3 << QString() << none;
    QTest::newRow("failure, reason trimmed")
        << QByteArray("2   spaced out  ") << 2 << QStringLiteral("spaced out") << none;
    QTest::newRow("failure, reason looks fused") << QByteArray("1 +a:5") << 1 << QStringLiteral("+a:5") << none;
    QTest::newRow("try later") << QByteArray("75 try later") << StatusLine::TryLater << QStringLiteral("try later")
                               << none;
    QTest::newRow("negative code") << QByteArray("-2 x") << -2 << QStringLiteral("x") << none;
    QTest::newRow("largest code") << QByteArray("2147483647 x") << 2147483647 << QStringLiteral("x") << none;
    QTest::newRow("most negative code") << QByteArray("-2147483647 x") << -2147483647 << QStringLiteral("x") << none;
    QTest::newRow("leading zeros") << QByteArray("007 bond") << 7 << QStringLiteral("bond") << none;
    QTest::newRow("utf-8 reason") << QByteArray("4 Grüße €") << 4 << QStringLiteral("Grüße €") << none;
    QTest::newRow("CR ending, success") << QByteArray("0\r") << 0 << QString() << none;
    QTest::newRow("CR ending, fused") << QByteArray("0 +a:9\r") << 0 << QString() << QStringList{QStringLiteral("a:9")};
    QTest::newRow("CR ending, failure") << QByteArray("3 boom\r") << 3 << QStringLiteral("boom") << none;
    QTest::newRow("reason of exactly 1000 bytes")
        << QByteArray("5 " + QByteArray(1000, 'b')) << 5 << QString(1000, u'b') << none;
    QTest::newRow("reason over 1000 bytes is cut")
        << QByteArray("5 " + QByteArray(1200, 'b')) << 5 << QString(1000, u'b') << none;
    QTest::newRow("cut does not split a UTF-8 sequence")
        << QByteArray("6 " + reasonCrossingTheLimit()) << 6 << QString(998, u'a') << none;

    // Cleaning: what PostgreSQL cannot store (NUL, invalid UTF-8) and what a
    // log line must not carry (control characters) never reaches the reason.
    const QString replaced(QChar::ReplacementCharacter);
    QTest::newRow("NUL in the reason") << QByteArray("3 bad\0reason", 12) << 3
                                       << QString(u"bad"_s + replaced + u"reason"_s) << none;
    QTest::newRow("invalid UTF-8") << QByteArray("3 bad \xff\xfe reason") << 3
                                   << QString(u"bad "_s + replaced + replaced + u" reason"_s) << none;
    QTest::newRow("truncated UTF-8 sequence")
        << QByteArray("3 x\xE2\x82") << 3 << QString(u"x"_s + replaced + replaced) << none;
    QTest::newRow("overlong encoding of NUL")
        << QByteArray("3 a\xC0\x80z") << 3 << QString(u"a"_s + replaced + replaced + u"z"_s) << none;
    QTest::newRow("escape sequence") << QByteArray("3 \x1b[31mred") << 3 << QString(replaced + u"[31mred"_s) << none;
    QTest::newRow("tab becomes a space") << QByteArray("3 a\tb") << 3 << u"a b"_s << none;
    QTest::newRow("DEL and a C1 control") << QByteArray("3 a\x7f"
                                                        "b\xC2\x85"
                                                        "c")
                                          << 3 << QString(u"a"_s + replaced + u"b"_s + replaced + u"c"_s) << none;
    QTest::newRow("try later, NUL") << QByteArray("75 wait\0", 8) << StatusLine::TryLater
                                    << QString(u"wait"_s + replaced) << none;
    // A replacement takes three bytes: the limit holds for the cleaned text.
    QTest::newRow("replacement at the limit is cut")
        << QByteArray("3 " + QByteArray(999, 'a') + "\xff") << 3 << QString(999, u'a') << none;
    QTest::newRow("replacements fill the limit")
        << QByteArray("3 " + QByteArray(600, '\x01')) << 3 << QString(333, QChar::ReplacementCharacter) << none;
    QTest::newRow("100 KB reason") << QByteArray("3 " + QByteArray(100 * 1024, 'r')) << 3 << QString(1000, u'r')
                                   << none;
}

void TestStatusLine::parse()
{
    QFETCH(QByteArray, line);
    QFETCH(int, code);
    QFETCH(QString, reason);
    QFETCH(QStringList, fused);

    const auto status = parseStatusLine(line);
    QVERIFY2(status.ok(), qPrintable(status.ok() ? QString() : status.error()));
    QCOMPARE(status->code, code);
    QCOMPARE(status->reason, reason);
    QVERIFY(status->reason.toUtf8().size() <= StatusLine::MaxReasonBytes);
    for (const QChar c : status->reason)
        QVERIFY2(c.unicode() >= 0x20 && (c.unicode() < 0x7f || c.unicode() > 0x9f), "a control character");
    QCOMPARE(describeFused(*status), fused);
    QCOMPARE(status->succeeded(), code == 0);
}

void TestStatusLine::refusedLineIsQuoted_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QString>("error");

    // The error is the offending line, quoted, ready for "protocol error: ".
    QTest::newRow("empty") << QByteArray() << QStringLiteral("\"\"");
    QTest::newRow("CR only") << QByteArray("\r") << QStringLiteral("\"\"");
    QTest::newRow("word") << QByteArray("ok") << QStringLiteral("\"ok\"");
    QTest::newRow("success and garbage") << QByteArray("0 garbage") << QStringLiteral("\"0 garbage\"");
    QTest::newRow("fused, no stage") << QByteArray("0 +:5") << QStringLiteral("\"0 +:5\"");
    QTest::newRow("fused, upper-case stage") << QByteArray("0 +Bad:5") << QStringLiteral("\"0 +Bad:5\"");
    QTest::newRow("fused, stage starts with -") << QByteArray("0 +-a:5") << QStringLiteral("\"0 +-a:5\"");
    QTest::newRow("fused, 64-byte stage")
        << QByteArray("0 +" + QByteArray(64, 'z') + ":5")
        << QString(QStringLiteral("\"0 +") + QString(64, u'z') + QStringLiteral(":5\""));
    QTest::newRow("fused, no time") << QByteArray("0 +x:") << QStringLiteral("\"0 +x:\"");
    QTest::newRow("fused, no colon") << QByteArray("0 +x") << QStringLiteral("\"0 +x\"");
    QTest::newRow("fused, negative time") << QByteArray("0 +x:-1") << QStringLiteral("\"0 +x:-1\"");
    QTest::newRow("fused, time not a number") << QByteArray("0 +x:1e3") << QStringLiteral("\"0 +x:1e3\"");
    QTest::newRow("fused, time too long")
        << QByteArray("0 +x:1234567890123456789") << QStringLiteral("\"0 +x:1234567890123456789\"");
    QTest::newRow("fused, one good one bad") << QByteArray("0 +a:1 b:2") << QStringLiteral("\"0 +a:1 b:2\"");
    QTest::newRow("code out of int range") << QByteArray("99999999999 x") << QStringLiteral("\"99999999999 x\"");
    QTest::newRow("code just over int max") << QByteArray("2147483648 x") << QStringLiteral("\"2147483648 x\"");
    QTest::newRow("leading space") << QByteArray(" 0") << QStringLiteral("\" 0\"");
    QTest::newRow("minus only") << QByteArray("- x") << QStringLiteral("\"- x\"");
    QTest::newRow("plus sign") << QByteArray("+1 x") << QStringLiteral("\"+1 x\"");
    QTest::newRow("tab separator") << QByteArray("3\tx") << QStringLiteral("\"3?x\"");
    QTest::newRow("CR inside") << QByteArray("0\r\r") << QStringLiteral("\"0?\"");
    QTest::newRow("control characters are shown as ?")
        << QByteArray("0 \x01\x1b[31m") << QStringLiteral("\"0 ??[31m\"");
    QTest::newRow("long line is cut for the log")
        << QByteArray("0 " + QByteArray(300, 'x'))
        << QString(QStringLiteral("\"0 ") + QString(198, u'x') + QStringLiteral("…\""));
}

void TestStatusLine::refusedLineIsQuoted()
{
    QFETCH(QByteArray, line);
    QFETCH(QString, error);

    const auto status = parseStatusLine(line);
    QVERIFY2(!status.ok(), "a bad line parsed");
    QCOMPARE(status.error(), error);
}

void TestStatusLine::quote_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<int>("maxBytes");
    QTest::addColumn<QString>("quoted");

    QTest::newRow("plain") << QByteArray("hello world") << 200 << QStringLiteral("hello world");
    QTest::newRow("empty") << QByteArray() << 200 << QString();
    QTest::newRow("tab, newline, escape, DEL") << QByteArray("a\tb\nc\x1b"
                                                             "d\x7f"
                                                             "e")
                                               << 200 << QStringLiteral("a?b?c?d?e");
    QTest::newRow("NUL byte") << QByteArray("a\0b", 3) << 200 << QStringLiteral("a?b");
    QTest::newRow("utf-8 kept") << QByteArray("Grüße €") << 200 << QStringLiteral("Grüße €");
    QTest::newRow("invalid utf-8 replaced") << QByteArray("a\xff"
                                                          "b")
                                            << 200 << QStringLiteral("a\uFFFDb");
    QTest::newRow("exactly the limit") << QByteArray("abcde") << 5 << QStringLiteral("abcde");
    QTest::newRow("over the limit") << QByteArray("abcdef") << 5 << QStringLiteral("abcde…");
    QTest::newRow("cut before a 2-byte sequence") << QByteArray("aé") << 2 << QStringLiteral("a…");
    QTest::newRow("cut inside a 3-byte sequence") << QByteArray("ab€") << 4 << QStringLiteral("ab…");
    QTest::newRow("cut after a 3-byte sequence") << QByteArray("ab€c") << 5 << QStringLiteral("ab€…");
    QTest::newRow("cut inside a 4-byte sequence") << QByteArray("a\xF0\x9F\x98\x80") << 3 << QStringLiteral("a…");
    QTest::newRow("limit 0") << QByteArray("abc") << 0 << QStringLiteral("…");
    QTest::newRow("control characters after the cut do not count")
        << QByteArray("ab\x01\x02") << 2 << QStringLiteral("ab…");
    QTest::newRow("default limit is 200")
        << QByteArray(201, 'q') << -1 << QString(QString(200, u'q') + QStringLiteral("…"));
    QTest::newRow("default limit, 200 bytes") << QByteArray(200, 'q') << -1 << QString(200, u'q');
}

void TestStatusLine::quote()
{
    QFETCH(QByteArray, line);
    QFETCH(int, maxBytes);
    QFETCH(QString, quoted);

    QCOMPARE(maxBytes < 0 ? quoteForLog(line) : quoteForLog(line, maxBytes), quoted);
}

// couldBeStatusLine(): the start of a line still being written.
void TestStatusLine::prefix_data()
{
    QTest::addColumn<QByteArray>("head");
    QTest::addColumn<bool>("possible");
    QTest::newRow("empty") << QByteArray() << true;
    QTest::newRow("digit") << QByteArray("7") << true;
    QTest::newRow("minus") << QByteArray("-") << true;
    QTest::newRow("code and space") << QByteArray("3 ") << true;
    QTest::newRow("reason under way") << QByteArray("3 rrrr") << true;
    QTest::newRow("success, CR") << QByteArray("0\r") << true;
    QTest::newRow("18 digits") << QByteArray(18, '9') << true;
    QTest::newRow("19 digits") << QByteArray(19, '9') << false;
    QTest::newRow("letter first") << QByteArray("x") << false;
    QTest::newRow("space first") << QByteArray(" 0") << false;
    QTest::newRow("minus, letter") << QByteArray("-x") << false;
    QTest::newRow("digit, letter") << QByteArray("3x") << false;
    QTest::newRow("NUL first") << QByteArray(1, '\0') << false;
}

void TestStatusLine::prefix()
{
    QFETCH(QByteArray, head);
    QFETCH(bool, possible);
    QCOMPARE(pepsi::couldBeStatusLine(head), possible);
}

QTEST_APPLESS_MAIN(TestStatusLine)
#include "tst_statusline.moc"
