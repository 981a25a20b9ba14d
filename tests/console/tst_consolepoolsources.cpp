// SPDX-License-Identifier: AGPL-3.0-or-later
// The Pools view says where PARALLELISM and QUEUE_LIMIT come from, as the
// `stages` reply (through the daemon's own encoder) tells it: a value set
// live in config_overlay is marked, and its tooltip says what the file has
// under it, or that the default applies without it.
#include "consolefeed.h"
#include "controlclient.h"
#include "modeltestdata.h"
#include "poolmodel.h"

#include <QSignalSpy>
#include <QTest>
#include <QTranslator>

using namespace pepsi;
using namespace pepsi::console;
using namespace Qt::StringLiterals;

namespace {

StatusSnapshot deliverAndIngest()
{
    StatusSnapshot status;
    status.pools = {pool(u"deliver"_s, 2, 1, 2, 3, 8), pool(u"ingest"_s, 4, 4, 4, 16, 16)};
    status.pools[0].queueLimit = 8;
    status.pools[1].queueLimit = 4;
    return viaWire(status);
}

StagesSnapshot deliverAndIngestSources()
{
    StageInfo deliver;
    deliver.name = u"deliver"_s;
    deliver.sources = {{u"PARALLELISM"_s, {OptionSource::Overlay, u"3"_s}},
                       {u"QUEUE_LIMIT"_s, {OptionSource::Overlay, std::nullopt}}};
    StageInfo ingest;
    ingest.name = u"ingest"_s;
    ingest.sources = {{u"PARALLELISM"_s, {OptionSource::File, std::nullopt}},
                      {u"QUEUE_LIMIT"_s, {OptionSource::Default, std::nullopt}}};
    return viaWire(StagesSnapshot{{deliver, ingest}, {}});
}

} // namespace

class TestConsolePoolSources : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void sources_data();
    void sources();
    void sourcesArriveAfterTheRows();
    void theFeedPassesStagesOn();

private:
    QTranslator m_english;
};

void TestConsolePoolSources::initTestCase()
{
    QVERIFY(m_english.load(u":/i18n/pepsi-console_en.qm"_s));
    QCoreApplication::installTranslator(&m_english);
}

void TestConsolePoolSources::sources_data()
{
    QTest::addColumn<QString>("stage");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("display");
    QTest::addColumn<QString>("tooltip"); // its first line
    QTest::addColumn<bool>("bold");

    QTest::newRow("overlay over the file") << u"deliver"_s << int(PoolModel::Parallelism) << u"2 (live)"_s
                                           << u"Set live (config_overlay); the file says 3."_s << true;
    QTest::newRow("overlay over the default")
        << u"deliver"_s << int(PoolModel::QueueLimit) << u"8 (live)"_s
        << u"Set live (config_overlay); the file has none, the default applies without it."_s << true;
    QTest::newRow("file") << u"ingest"_s << int(PoolModel::Parallelism) << u"4"_s << u"From the configuration file."_s
                          << false;
    QTest::newRow("default") << u"ingest"_s << int(PoolModel::QueueLimit) << u"4"_s
                             << u"The default: neither the file nor config_overlay sets it."_s << false;
}

void TestConsolePoolSources::sources()
{
    QFETCH(QString, stage);
    QFETCH(int, column);
    QFETCH(QString, display);
    QFETCH(QString, tooltip);
    QFETCH(bool, bold);

    // GIVEN the pools and where their options come from
    PoolModel model;
    model.applyStatus(deliverAndIngest());
    model.applyStages(deliverAndIngestSources());
    model.flush();
    // THEN the cell is marked when live, and its tooltip names the source
    QCOMPARE(cellOf(model, stage, column).toString(), display);
    QCOMPARE(cellOf(model, stage, column, KeyedTableModel::SortRole).toInt(), display.section(u' ', 0, 0).toInt());
    const QStringList lines = cellOf(model, stage, column, Qt::ToolTipRole).toString().split(u'\n');
    QCOMPARE(lines.first(), tooltip);
    QVERIFY(lines.last().contains(u"context menu"_s)); // what may change it, as before
    QCOMPARE(cellOf(model, stage, column, Qt::FontRole).value<QFont>().bold(), bold);
}

void TestConsolePoolSources::sourcesArriveAfterTheRows()
{
    // GIVEN rows shown without sources (the `status` came first)
    PoolModel model;
    model.applyStatus(deliverAndIngest());
    model.flush();
    QCOMPARE(cellOf(model, u"deliver"_s, PoolModel::Parallelism).toString(), u"2"_s);
    // WHEN the `stages` reply comes
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.applyStages(deliverAndIngestSources());
    // THEN the views repaint those cells at once, marked
    QCOMPARE(changed.size(), 1);
    QCOMPARE(changed.first().at(0).value<QModelIndex>().column(), int(PoolModel::Parallelism));
    QCOMPARE(changed.first().at(1).value<QModelIndex>().column(), int(PoolModel::QueueLimit));
    QCOMPARE(changed.first().at(1).value<QModelIndex>().row(), model.rowCount() - 1);
    QCOMPARE(cellOf(model, u"deliver"_s, PoolModel::Parallelism).toString(), u"2 (live)"_s);
    // AND a later `stages` without the row (it was unset) clears the mark
    StagesSnapshot unset = deliverAndIngestSources();
    unset.stages[0].sources[u"PARALLELISM"_s] = {OptionSource::File, std::nullopt};
    model.applyStages(unset);
    QCOMPARE(cellOf(model, u"deliver"_s, PoolModel::Parallelism).toString(), u"2"_s);
}

void TestConsolePoolSources::theFeedPassesStagesOn()
{
    // The console's feed hands the `stages` reply to the Pools view's model.
    ControlClient client;
    ConsoleFeed feed(&client);
    Q_EMIT client.statusReceived(deliverAndIngest());
    Q_EMIT client.stagesReceived(deliverAndIngestSources());
    feed.flush();
    QCOMPARE(cellOf(*feed.pools(), u"deliver"_s, PoolModel::Parallelism).toString(), u"2 (live)"_s);
}

QTEST_MAIN(TestConsolePoolSources)
#include "tst_consolepoolsources.moc"
