// SPDX-License-Identifier: AGPL-3.0-or-later
// OverlayStore against a real config_overlay: what it reads is bounded (one
// row past Configuration::MaxOverlayRows, one character past MaxValueChars),
// and the configuration built from an oversized overlay is refused with an
// error that names the table or the row (doc/quality.rst, "Limits").
#include "config/stagegraph.h"
#include "grapherror.h"
#include "storage/overlaystore.h"
#include "storage/queueconnection.h"
#include "testdatabase.h"

#include <QTest>

using namespace pepsi;
using namespace Qt::StringLiterals;

namespace {

// The error of the graph the daemon would build from one stage and `rows`, "" when it loads.
QString overlayError(const QList<OverlayRow> &rows) { return graphError("[stage-a]\nPROGRAM = /bin/cat\n", rows); }

} // namespace

class TestOverlayLimits : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rowsAreBounded();
    void valuesAreBounded();
};

void TestOverlayLimits::rowsAreBounded()
{
    PEPSI_REQUIRE_DATABASE(tdb);
    QueueConnection queue(u"tst-overlay"_s);
    QVERIFY2(queue.open(tdb.uri(), u"tst"_s), qPrintable(queue.lastError()));
    OverlayStore store(queue);
    const QString insert = u"INSERT INTO config_overlay (section, option, value) "
                           "SELECT 'stage-a', 'OPTION_' || i, '1' FROM generate_series(1, %1) i"_s;

    QVERIFY(tdb.exec(insert.arg(Configuration::MaxOverlayRows)));
    auto rows = store.read();
    QVERIFY2(rows, qPrintable(store.lastError()));
    QCOMPARE(rows->size(), Configuration::MaxOverlayRows);
    QCOMPARE(overlayError(*rows), QString());

    // Ten thousand more: one row past the bound is read, and refused.
    QVERIFY(tdb.exec(u"DELETE FROM config_overlay"_s));
    QVERIFY(tdb.exec(insert.arg(Configuration::MaxOverlayRows + 10000)));
    rows = store.read();
    QVERIFY2(rows, qPrintable(store.lastError()));
    QCOMPARE(rows->size(), Configuration::MaxOverlayRows + 1);
    QCOMPARE(overlayError(*rows), u"config_overlay has more than 4096 rows (4097 read); none applied"_s);
}

void TestOverlayLimits::valuesAreBounded()
{
    PEPSI_REQUIRE_DATABASE(tdb);
    QueueConnection queue(u"tst-overlay"_s);
    QVERIFY2(queue.open(tdb.uri(), u"tst"_s), qPrintable(queue.lastError()));
    OverlayStore store(queue);
    QVERIFY(tdb.exec(u"INSERT INTO config_overlay (section, option, value) VALUES "
                     "('stage-a', 'WORK_TIME', repeat('v', %1)), ('stage-a', 'PARALLELISM', '2')"_s.arg(
                         Configuration::MaxValueChars)));
    auto rows = store.read();
    QVERIFY2(rows, qPrintable(store.lastError()));
    QCOMPARE(rows->size(), 2);
    QCOMPARE(rows->at(1).option, u"WORK_TIME"_s);
    QCOMPARE(rows->at(1).value.size(), Configuration::MaxValueChars);
    QCOMPARE(overlayError(*rows), QString());

    // A megabyte: the store reads one character past the bound, the graph refuses it.
    QVERIFY(tdb.exec(u"UPDATE config_overlay SET value = repeat('v', 1048576) WHERE option = 'WORK_TIME'"_s));
    rows = store.read();
    QVERIFY2(rows, qPrintable(store.lastError()));
    QCOMPARE(rows->at(1).value.size(), Configuration::MaxValueChars + 1);
    QCOMPARE(overlayError(*rows),
             u"config_overlay (stage-a, WORK_TIME): longer than 8192 characters; overlay not applied"_s);
}

QTEST_GUILESS_MAIN(TestOverlayLimits)
#include "tst_overlaylimits.moc"
