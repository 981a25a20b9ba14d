// SPDX-License-Identifier: AGPL-3.0-or-later
// The control protocol's line framer (common/control/lineframer.h): one
// limit, counted with the newline, whatever way the bytes arrive.
#include "control/lineframer.h"

#include <QTest>

using namespace pepsi::protocol;
using namespace Qt::StringLiterals;

class TestProtocolFramer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void theLimitCountsTheNewline();
    void feeds_data();
    void feeds();
    void aTailThatCannotEndInTimeIsRefusedAtOnce();
    void aHandlerStopsTheFeed();
    void defaultLimitIsTheContracts();
};

namespace {

struct Fed
{
    QList<QByteArray> lines;
    QList<LineFramer::Outcome> outcomes;
};

Fed feedAll(LineFramer &framer, const QList<QByteArray> &chunks)
{
    Fed fed;
    for (const QByteArray &chunk : chunks)
        fed.outcomes << framer.feed(chunk, [&](QByteArrayView line) {
            fed.lines << line.toByteArray();
            return true;
        });
    return fed;
}

} // namespace

void TestProtocolFramer::theLimitCountsTheNewline()
{
    QVERIFY(fitsInLine(0));
    QVERIFY(fitsInLine(MaxLine - 1));
    QVERIFY(!fitsInLine(MaxLine));
    QVERIFY(fitsInLine(9, 10));
    QVERIFY(!fitsInLine(10, 10));
}

void TestProtocolFramer::feeds_data()
{
    QTest::addColumn<QList<QByteArray>>("chunks");
    QTest::addColumn<QList<QByteArray>>("lines");
    QTest::addColumn<int>("lastOutcome");
    QTest::addColumn<int>("buffered"); // after the last feed

    const int ok = int(LineFramer::Outcome::Ok);
    const int tooLong = int(LineFramer::Outcome::TooLong);
    // limit 10: a line of 9 bytes and its newline fits
    const QByteArray nine = "123456789"_ba;
    QTest::newRow("a line of exactly the limit")
        << QList<QByteArray>{nine + '\n'} << QList<QByteArray>{nine} << ok << 0;
    QTest::newRow("one byte over, newline in the same feed")
        << QList<QByteArray>{nine + "0\n"} << QList<QByteArray>{} << tooLong << 0;
    QTest::newRow("exactly the limit, split across feeds")
        << QList<QByteArray>{"1234"_ba, "5678"_ba, "9\n"_ba} << QList<QByteArray>{nine} << ok << 0;
    QTest::newRow("one over, split across feeds: refused before its newline")
        << QList<QByteArray>{"12345"_ba, "67890"_ba} << QList<QByteArray>{} << tooLong << 0;
    QTest::newRow("several in one feed") << QList<QByteArray>{"a\nbb\n\nccc\nd"_ba}
                                         << QList<QByteArray>{"a"_ba, "bb"_ba, ""_ba, "ccc"_ba} << ok << 1;
    QTest::newRow("the newline alone in the next feed")
        << QList<QByteArray>{"{\"x\":1}"_ba, "\n"_ba} << QList<QByteArray>{"{\"x\":1}"_ba} << ok << 0;
    QTest::newRow("good lines before the long one are handed out")
        << QList<QByteArray>{"a\nb\n" + nine + "0\nc\n"} << QList<QByteArray>{"a"_ba, "b"_ba} << tooLong << 0;
    QTest::newRow("nothing") << QList<QByteArray>{QByteArray()} << QList<QByteArray>{} << ok << 0;
}

void TestProtocolFramer::feeds()
{
    QFETCH(QList<QByteArray>, chunks);
    QFETCH(QList<QByteArray>, lines);
    QFETCH(int, lastOutcome);
    QFETCH(int, buffered);

    LineFramer framer(10);
    const Fed fed = feedAll(framer, chunks);
    QCOMPARE(fed.lines, lines);
    QCOMPARE(int(fed.outcomes.last()), lastOutcome);
    QCOMPARE(framer.buffered(), qsizetype(buffered));
}

void TestProtocolFramer::aTailThatCannotEndInTimeIsRefusedAtOnce()
{
    LineFramer framer(10);
    // 9 bytes without a newline may still end in time; the 10th cannot.
    QCOMPARE(feedAll(framer, {"123456789"_ba}).outcomes.last(), LineFramer::Outcome::Ok);
    QCOMPARE(framer.buffered(), qsizetype(9));
    QCOMPARE(feedAll(framer, {"0"_ba}).outcomes.last(), LineFramer::Outcome::TooLong);
    // It never keeps more than a line may be long, and starts clean afterwards.
    QCOMPARE(framer.buffered(), qsizetype(0));
    QCOMPARE(feedAll(framer, {"ok\n"_ba}).lines, QList<QByteArray>{"ok"_ba});
}

void TestProtocolFramer::aHandlerStopsTheFeed()
{
    LineFramer framer(10);
    QList<QByteArray> seen;
    const auto outcome = framer.feed("a\nb\nc", [&](QByteArrayView line) {
        seen << line.toByteArray();
        return false;
    });
    QCOMPARE(outcome, LineFramer::Outcome::Stopped);
    QCOMPARE(seen, QList<QByteArray>{"a"_ba});
    QCOMPARE(framer.buffered(), qsizetype(0)); // the rest went with the stop
}

void TestProtocolFramer::defaultLimitIsTheContracts()
{
    LineFramer framer;
    QCOMPARE(framer.maxLine(), qsizetype(65536));
    const QByteArray longest(65535, 'x');
    QCOMPARE(feedAll(framer, {longest + '\n'}).lines.size(), 1);
    QCOMPARE(feedAll(framer, {longest + "x\n"}).outcomes.last(), LineFramer::Outcome::TooLong);
}

QTEST_GUILESS_MAIN(TestProtocolFramer)
#include "tst_protocolframer.moc"
