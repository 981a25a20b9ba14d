// SPDX-License-Identifier: AGPL-3.0-or-later
// protocol::fittedPage(): a `messages` or `reasons` page cut to a number of
// bytes of compact JSON, measured as it is encoded: the rows that fit and not
// one more, the cursor right after the last one kept, every row once when
// paged along it; the most frequent reasons that fit, with "more".
#include "control/messagecodec.h"

#include <QJsonDocument>
#include <QTest>

using namespace pepsi;
using namespace Qt::StringLiterals;

namespace {

qsizetype encodedSize(const MessagePage &page)
{
    return QJsonDocument(protocol::toJson(page)).toJson(QJsonDocument::Compact).size();
}

// Rows of `stage` failed with reasons of a few hundred bytes, of varying length.
QList<MessageRow> longRows(qint64 first, int count)
{
    QList<MessageRow> rows;
    const QDateTime when = QDateTime::fromString(u"2026-12-02T19:51:47.123Z"_s, Qt::ISODateWithMs);
    for (int i = 0; i < count; ++i)
        rows.append(MessageRow{first + i * 7, u"deliver"_s, u"failed"_s, 1, when,
                               u"status 3: upstream said \"%1\" "_s.arg(i) + QString(200 + (i * 37) % 300, u'x')});
    return rows;
}

// What the daemon's query gives: up to `limit` rows after `after`, and a cursor when more follow.
MessagePage pageAfter(const QList<MessageRow> &all, qint64 after, int limit)
{
    MessagePage page;
    for (const MessageRow &row : all) {
        if (row.id <= after)
            continue;
        if (page.rows.size() == limit) {
            page.nextAfterId = page.rows.last().id;
            break;
        }
        page.rows.append(row);
    }
    return page;
}

} // namespace

class tst_MessagePageFit : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aPageThatFitsIsKept();
    void rowsAreCutToTheBudget_data();
    void rowsAreCutToTheBudget();
    void pagingReturnsEveryRowOnce();
    void reasonsAreCutToTheBudget();
};

void tst_MessagePageFit::aPageThatFitsIsKept()
{
    MessagePage page;
    page.rows = longRows(1, 3);
    page.nextAfterId = 15;
    QCOMPARE(protocol::fittedPage(page, 64 * 1024), page);
    MessagePage last;
    last.rows = longRows(1, 3);
    QCOMPARE(protocol::fittedPage(last, 64 * 1024), last);
}

void tst_MessagePageFit::rowsAreCutToTheBudget_data()
{
    QTest::addColumn<qsizetype>("budget");
    QTest::addColumn<bool>("lastPage"); // the daemon's page had no cursor
    QTest::newRow("64 KiB, more follow") << qsizetype(65400) << false;
    QTest::newRow("64 KiB, last page") << qsizetype(65400) << true;
    QTest::newRow("small") << qsizetype(3000) << false;
    QTest::newRow("odd") << qsizetype(12345) << true;
}

// 500 rows of a few hundred bytes do not fit: fewer do, exactly as many as
// the budget holds, and the cursor is the last one kept.
void tst_MessagePageFit::rowsAreCutToTheBudget()
{
    QFETCH(qsizetype, budget);
    QFETCH(bool, lastPage);
    MessagePage page;
    page.rows = longRows(1000, 500);
    if (!lastPage)
        page.nextAfterId = page.rows.last().id;
    QVERIFY(encodedSize(page) > budget);

    const MessagePage fitted = protocol::fittedPage(page, budget);
    QVERIFY(!fitted.rows.isEmpty());
    QVERIFY(fitted.rows.size() < 500);
    QVERIFY2(encodedSize(fitted) <= budget, qPrintable(u"%1 > %2"_s.arg(encodedSize(fitted)).arg(budget)));
    QCOMPARE(fitted.rows, page.rows.first(fitted.rows.size()));
    QCOMPARE(fitted.nextAfterId, std::optional<qint64>(fitted.rows.last().id));
    // One row more would not have fitted.
    MessagePage oneMore = fitted;
    oneMore.rows = page.rows.first(fitted.rows.size() + 1);
    oneMore.nextAfterId = oneMore.rows.last().id;
    QVERIFY(encodedSize(oneMore) > budget);
}

// Following the cursor from 0 returns every row exactly once, in id order.
void tst_MessagePageFit::pagingReturnsEveryRowOnce()
{
    const QList<MessageRow> all = longRows(1, 1234);
    QList<MessageRow> seen;
    qint64 after = 0;
    int pages = 0;
    for (;;) {
        const MessagePage page = protocol::fittedPage(pageAfter(all, after, 500), 65000);
        QVERIFY(encodedSize(page) <= 65000);
        seen += page.rows;
        ++pages;
        if (!page.nextAfterId)
            break;
        QVERIFY(*page.nextAfterId > after);
        after = *page.nextAfterId;
        QVERIFY(pages < 100);
    }
    QCOMPARE(seen, all);
    QVERIFY(pages > 1234 / 500 + 1); // the line, not the limit, cut the pages
}

void tst_MessagePageFit::reasonsAreCutToTheBudget()
{
    MessagePage page;
    page.byReason = true;
    const QDateTime when = QDateTime::currentDateTimeUtc();
    for (int i = 0; i < 100; ++i) {
        page.reasons.append(ReasonCount{u"status %1: "_s.arg(i) + QString(990, u'r'), 100 - i, when, when});
        page.reasonsTotal += 100 - i;
    }
    QVERIFY(encodedSize(page) > 65000);
    const MessagePage fitted = protocol::fittedPage(page, 65000);
    QVERIFY(encodedSize(fitted) <= 65000);
    QVERIFY(fitted.moreReasons);
    QCOMPARE(fitted.reasonsTotal, page.reasonsTotal);
    QCOMPARE(fitted.reasons, page.reasons.first(fitted.reasons.size()));
    MessagePage oneMore = fitted;
    oneMore.reasons = page.reasons.first(fitted.reasons.size() + 1);
    QVERIFY(encodedSize(oneMore) > 65000);
}

QTEST_GUILESS_MAIN(tst_MessagePageFit)
#include "tst_messagepagefit.moc"
