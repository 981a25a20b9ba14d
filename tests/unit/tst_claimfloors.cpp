// SPDX-License-Identifier: AGPL-3.0-or-later
// ClaimFloors: where each stage's claim starts. A floor rises only past what
// a round saw, never past a row it left, and every announced row lowers it.
#include "model/claimfloors.h"

#include <QTest>

using namespace pepsi;

class tst_ClaimFloors : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void unknownStagesStartAtTheStart();
    void advance_data();
    void advance();
    void loweredDuringARoundIsKept();
    void lowerOnlyLowers();
    void resetStartsEveryStageOver();
    void quietUntilSomethingWakesIt();
};

void tst_ClaimFloors::unknownStagesStartAtTheStart()
{
    ClaimFloors floors;
    QCOMPARE(floors.floor(QStringLiteral("a")), ClaimFloors::Start);
    // Lowering what is already at the start records nothing.
    floors.lower(QStringLiteral("a"), 5);
    QCOMPARE(floors.floor(QStringLiteral("a")), ClaimFloors::Start);
}

void tst_ClaimFloors::advance_data()
{
    QTest::addColumn<qint64>("from");
    QTest::addColumn<qint64>("unclaimed"); // -1: none left
    QTest::addColumn<qint64>("highestClaimed");
    QTest::addColumn<qint64>("expected");
    const qint64 none = ClaimFloors::Start;
    QTest::newRow("cap reached: up to the first row left") << qint64(10) << qint64(27) << qint64(26) << qint64(27);
    QTest::newRow("a locked row below what was claimed") << qint64(10) << qint64(12) << qint64(30) << qint64(12);
    QTest::newRow("everything claimed: past the highest") << qint64(10) << qint64(-1) << qint64(30) << qint64(31);
    QTest::newRow("nothing there: where it was") << qint64(10) << qint64(-1) << none << qint64(10);
    QTest::newRow("from the start, everything claimed") << none << qint64(-1) << qint64(7) << qint64(8);
    QTest::newRow("from the start, nothing there") << none << qint64(-1) << none << none;
}

void tst_ClaimFloors::advance()
{
    QFETCH(qint64, from);
    QFETCH(qint64, unclaimed);
    QFETCH(qint64, highestClaimed);
    QFETCH(qint64, expected);
    ClaimFloors floors;
    if (from != ClaimFloors::Start)
        floors.advance(QStringLiteral("a"), ClaimFloors::Start, from, ClaimFloors::Start);
    QCOMPARE(floors.floor(QStringLiteral("a")), from);
    floors.advance(QStringLiteral("a"), from, unclaimed < 0 ? std::nullopt : std::optional<qint64>(unclaimed),
                   highestClaimed);
    QCOMPARE(floors.floor(QStringLiteral("a")), expected);
}

// A row announced after the round's snapshot may sit below what it claimed.
void tst_ClaimFloors::loweredDuringARoundIsKept()
{
    ClaimFloors floors;
    floors.advance(QStringLiteral("a"), ClaimFloors::Start, 100, ClaimFloors::Start);
    floors.lower(QStringLiteral("a"), 50);
    floors.advance(QStringLiteral("a"), 100, std::nullopt, 200);
    QCOMPARE(floors.floor(QStringLiteral("a")), 50);
}

void tst_ClaimFloors::lowerOnlyLowers()
{
    ClaimFloors floors;
    floors.advance(QStringLiteral("a"), ClaimFloors::Start, 100, ClaimFloors::Start);
    floors.advance(QStringLiteral("b"), ClaimFloors::Start, 200, ClaimFloors::Start);
    floors.advance(QStringLiteral("c"), ClaimFloors::Start, 300, ClaimFloors::Start);
    floors.lower(QStringLiteral("a"), 150);
    QCOMPARE(floors.floor(QStringLiteral("a")), 100);
    floors.lower({QStringLiteral("a"), QStringLiteral("b")}, 90);
    QCOMPARE(floors.floor(QStringLiteral("a")), 90);
    QCOMPARE(floors.floor(QStringLiteral("b")), 90);
    QCOMPARE(floors.floor(QStringLiteral("c")), 300);
    floors.lowerAll(250);
    QCOMPARE(floors.floor(QStringLiteral("a")), 90);
    QCOMPARE(floors.floor(QStringLiteral("c")), 250);
    // An id below zero (inserted by hand) is not clamped.
    floors.lowerAll(-7);
    QCOMPARE(floors.floor(QStringLiteral("b")), -7);
}

void tst_ClaimFloors::resetStartsEveryStageOver()
{
    ClaimFloors floors;
    floors.advance(QStringLiteral("a"), ClaimFloors::Start, 100, ClaimFloors::Start);
    floors.reset();
    QCOMPARE(floors.floor(QStringLiteral("a")), ClaimFloors::Start);
}

// A walk that left nothing makes the stage quiet; whatever may make a row
// pending there wakes it, wherever its id lies.
void tst_ClaimFloors::quietUntilSomethingWakesIt()
{
    const QString a = QStringLiteral("a"), b = QStringLiteral("b");
    ClaimFloors floors;
    QVERIFY(!floors.isQuiet(a)); // never walked
    floors.advance(a, ClaimFloors::Start, 100, ClaimFloors::Start);
    QVERIFY(!floors.isQuiet(a)); // a row was left
    floors.advance(a, 100, std::nullopt, 120);
    QVERIFY(floors.isQuiet(a));
    floors.lower(a, 500); // above the floor: the floor stays, the stage wakes
    QVERIFY(!floors.isQuiet(a));
    QCOMPARE(floors.floor(a), 121);

    floors.advance(a, 121, std::nullopt, ClaimFloors::Start);
    floors.advance(b, ClaimFloors::Start, std::nullopt, 7);
    QVERIFY(floors.isQuiet(a));
    QVERIFY(floors.isQuiet(b));
    floors.lowerAll(1000);
    QVERIFY(!floors.isQuiet(a));
    QVERIFY(!floors.isQuiet(b));

    floors.advance(a, 121, std::nullopt, ClaimFloors::Start);
    floors.lower(QStringList{b, a}, 900);
    QVERIFY(!floors.isQuiet(a));
    floors.advance(a, 121, std::nullopt, ClaimFloors::Start);
    floors.reset();
    QVERIFY(!floors.isQuiet(a));
}

QTEST_GUILESS_MAIN(tst_ClaimFloors)
#include "tst_claimfloors.moc"
