// SPDX-License-Identifier: AGPL-3.0-or-later
#include "workers/linesplitter.h"

#include <QTest>

using pepsi::LineSplitter;
using namespace Qt::StringLiterals;

class TestLineSplitter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void split_data();
    void split();
    void stopsWhenTold();
    void memoryIsBounded();
};

// Chunks in, "head|cut" per line out (cut: 1 when bytes were dropped).
void TestLineSplitter::split_data()
{
    QTest::addColumn<QByteArrayList>("chunks");
    QTest::addColumn<int>("maxLineBytes");
    QTest::addColumn<QStringList>("lines");
    QTest::addColumn<QByteArray>("pending");

    QTest::newRow("one line") << QByteArrayList{"0\n"} << 8 << QStringList{u"0|0"_s} << QByteArray();
    QTest::newRow("two in one chunk") << QByteArrayList{"0\n3 x\n"} << 8 << QStringList{u"0|0"_s, u"3 x|0"_s}
                                      << QByteArray();
    QTest::newRow("split across chunks") << QByteArrayList{"3 ab", "cd\n0"} << 8 << QStringList{u"3 abcd|0"_s}
                                         << QByteArray("0");
    QTest::newRow("exactly the limit") << QByteArrayList{"12345678\n"} << 8 << QStringList{u"12345678|0"_s}
                                       << QByteArray();
    QTest::newRow("over the limit: head kept")
        << QByteArrayList{"123456789\n0\n"} << 8 << QStringList{u"12345678|1"_s, u"0|0"_s} << QByteArray();
    QTest::newRow("long line over many chunks") << QByteArrayList{"3 rrr", "rrrrrr", "rrrrrrrr", "rr\n0\n"} << 4
                                                << QStringList{u"3 rr|1"_s, u"0|0"_s} << QByteArray();
    QTest::newRow("empty line") << QByteArrayList{"\n"} << 8 << QStringList{u"|0"_s} << QByteArray();
    QTest::newRow("no newline yet") << QByteArrayList{"3 a", "bc"} << 8 << QStringList{} << QByteArray("3 abc");
    QTest::newRow("no newline, over the limit")
        << QByteArrayList{"xxxxxx", "xxxxxx"} << 8 << QStringList{} << QByteArray("xxxxxxxx");
}

void TestLineSplitter::split()
{
    QFETCH(QByteArrayList, chunks);
    QFETCH(int, maxLineBytes);
    QFETCH(QStringList, lines);
    QFETCH(QByteArray, pending);

    LineSplitter splitter(maxLineBytes);
    QStringList got;
    for (const QByteArray &chunk : chunks) {
        splitter.feed(chunk, [&](QByteArrayView line, bool cut) {
            got << QString::fromLatin1(line.toByteArray()) + (cut ? QStringLiteral("|1") : QStringLiteral("|0"));
            return true;
        });
    }
    QCOMPARE(got, lines);
    QCOMPARE(splitter.pending().toByteArray(), pending);
}

void TestLineSplitter::stopsWhenTold()
{
    LineSplitter splitter(16);
    QStringList got;
    splitter.feed("a\nb\nc\n", [&](QByteArrayView line, bool) {
        got << QString::fromLatin1(line.toByteArray());
        return got.size() < 2;
    });
    QCOMPARE(got, (QStringList{u"a"_s, u"b"_s}));
    QVERIFY(splitter.pending().isEmpty());
}

void TestLineSplitter::memoryIsBounded()
{
    LineSplitter splitter(1000);
    const QByteArray chunk(64 * 1024, 'x');
    for (int i = 0; i < 800; ++i) // 50 MB without a newline
        splitter.feed(chunk, [](QByteArrayView, bool) { return true; });
    QCOMPARE(splitter.pending().size(), 1000);
    QVERIFY(splitter.pendingCut());
    int lines = 0;
    splitter.feed("\n", [&](QByteArrayView line, bool cut) {
        ++lines;
        return line.size() == 1000 && cut;
    });
    QCOMPARE(lines, 1);
}

QTEST_APPLESS_MAIN(TestLineSplitter)
#include "tst_linesplitter.moc"
