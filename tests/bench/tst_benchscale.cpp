// SPDX-License-Identifier: AGPL-3.0-or-later
// pepsi-bench --scale without a database: the graphs it drives, the hops it
// counts for them, the configuration it writes (read back by the daemon's own
// parser), its options and the layout of its reports' tables.
#include "benchoptions.h"
#include "config/configuration.h"
#include "config/stagegraph.h"
#include "reporttable.h"
#include "scaletopology.h"

#include <QTemporaryDir>
#include <QTest>

using namespace pepsi;
using namespace pepsi::bench;

class TestBenchScale : public QObject
{
    Q_OBJECT

private:
    static BenchOptions options(const QStringList &arguments)
    {
        const auto parsed = parseBenchOptions(
            QStringList{QStringLiteral("pepsi-bench"), QStringLiteral("--database=postgresql:///bench")} + arguments);
        if (!parsed)
            qFatal("%s", qPrintable(parsed.error()));
        return parsed.value();
    }

private Q_SLOTS:
    void chainHops()
    {
        const ScaleTopology chain = chainTopology(100, 1, 4);
        QCOMPARE(chain.stages.size(), 100);
        QCOMPARE(chain.workers(), 100);
        QCOMPARE(chain.hopsFrom(chain.stages.constFirst()), 100);
        QCOMPARE(chain.hopsFrom(QStringLiteral("s051")), 50);
        QCOMPARE(chain.hopsFrom(chain.stages.constLast()), 1);
    }

    void fanOutHops()
    {
        const ScaleTopology fan = fanOutTopology(20, 1, 4);
        QCOMPARE(fan.stages.size(), 22);
        QCOMPARE(fan.hopsFrom(QStringLiteral("head")), 3);
        QCOMPARE(fan.hopsFrom(QStringLiteral("f20")), 2);
        QCOMPARE(fan.hopsFrom(QStringLiteral("tail")), 1);
    }

    // GIVEN the fan-out WHEN its configuration is written THEN the daemon's
    // parser reads a head with twenty successors that all lead to the tail.
    void fanOutConfigurationParses()
    {
        QTemporaryDir work;
        QVERIFY(work.isValid());
        BenchOptions o = options({QStringLiteral("--scale"), QStringLiteral("--work-dir"), work.path()});
        const auto path = writeTopologyConfig(o, fanOutTopology(20, 2, 8));
        QVERIFY2(path.ok(), qPrintable(path ? QString() : path.error()));
        const auto config = Configuration::load(path.value());
        QVERIFY(config.ok());
        const auto graph = StageGraph::fromConfiguration(config.value());
        QVERIFY(graph.ok());
        QCOMPARE(graph->stages().size(), 22);
        const StageConfig *head = graph->stage(QStringLiteral("head"));
        QVERIFY(head);
        QCOMPARE(head->next.size(), 20);
        QVERIFY(head->program.endsWith(QLatin1String("/pepsi-bench-spread-stage")));
        QCOMPARE(head->parallelism, 2);
        QCOMPARE(head->queueLimit, 8);
        const StageConfig *branch = graph->stage(QStringLiteral("f07"));
        QVERIFY(branch);
        QCOMPARE(branch->next, QStringList{QStringLiteral("tail")});
        QVERIFY(branch->program.endsWith(QLatin1String("/pepsi-stage-example")));
        QVERIFY(graph->stage(QStringLiteral("tail"))->next.isEmpty());
    }

    void scaleOptions()
    {
        const BenchOptions o = options({QStringLiteral("--scale"), QStringLiteral("--scale-parts=idle,soak"),
                                        QStringLiteral("--idle-minutes=2"), QStringLiteral("--soak-minutes=5")});
        QCOMPARE(o.mode, BenchOptions::Mode::Scale);
        QCOMPARE(o.scaleParts, (QStringList{QStringLiteral("idle"), QStringLiteral("soak")}));
        QCOMPARE(o.idleMinutes, 2);
        QCOMPARE(o.soakMinutes, 5);
        QCOMPARE(options({QStringLiteral("--scale")}).scaleParts,
                 (QStringList{QStringLiteral("chains"), QStringLiteral("workers"), QStringLiteral("backlog"),
                              QStringLiteral("history"), QStringLiteral("idle"), QStringLiteral("soak")}));
        QCOMPARE(options({QStringLiteral("--scale")}).historySizes, (QList<int>{0, 3'000'000, 10'000'000}));
        QCOMPARE(options({QStringLiteral("--scale"), QStringLiteral("--history-sizes=0, 1000000")}).historySizes,
                 (QList<int>{0, 1'000'000}));
        // A stray comma in a list of names is let pass; sizes count each item.
        QCOMPARE(options({QStringLiteral("--scale"), QStringLiteral("--scale-parts=idle,, soak")}).scaleParts,
                 (QStringList{QStringLiteral("idle"), QStringLiteral("soak")}));
        QCOMPARE(options({QStringLiteral("--backlog"), QStringLiteral("--backlog-sizes=10, 200")}).backlogSizes,
                 (QList<int>{10, 200}));
        QVERIFY(options({QStringLiteral("--scale")}).plotDir.endsWith(QLatin1String("/bench-work/plots")));
    }

    void scaleOptionErrors_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("error");
        QTest::newRow("unknown part") << QStringList{QStringLiteral("--scale"),
                                                     QStringLiteral("--scale-parts=chains,x")}
                                      << QStringLiteral("--scale-parts: \"x\"");
        QTest::newRow("empty size") << QStringList{QStringLiteral("--backlog"),
                                                   QStringLiteral("--backlog-sizes=10,,20")}
                                    << QStringLiteral("--backlog-sizes: \"\" is not a whole number in 1..100000000");
        QTest::newRow("negative history")
            << QStringList{QStringLiteral("--scale"), QStringLiteral("--history-sizes=0,-3")}
            << QStringLiteral("--history-sizes: \"-3\" is not a whole number in "
                              "0..100000000");
        QTest::newRow("history with a unit")
            << QStringList{QStringLiteral("--scale"), QStringLiteral("--history-sizes=0,3M")}
            << QStringLiteral("--history-sizes: \"3M\" is not a whole number");
        QTest::newRow("empty history size")
            << QStringList{QStringLiteral("--scale"), QStringLiteral("--history-sizes=0,,3")}
            << QStringLiteral("--history-sizes: \"\" is not");
        QTest::newRow("two modes") << QStringList{QStringLiteral("--scale"), QStringLiteral("--backlog")}
                                   << QStringLiteral("separate runs");
        QTest::newRow("no idle") << QStringList{QStringLiteral("--scale"), QStringLiteral("--idle-minutes=0")}
                                 << QStringLiteral("--idle-minutes");
    }

    void scaleOptionErrors()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, error);
        const auto parsed = parseBenchOptions(
            QStringList{QStringLiteral("pepsi-bench"), QStringLiteral("--database=postgresql:///bench")} + arguments);
        QVERIFY(!parsed.ok());
        QVERIFY2(parsed.error().contains(error), qPrintable(parsed.error()));
    }

    // A report's heading and rows are padded by the same columns: right,
    // left or not at all, a long cell pushing the rest along.
    void reportTable()
    {
        const ReportTable table({{QStringLiteral("run"), 4},
                                 {QStringLiteral("client"), -8},
                                 {QStringLiteral("hops/s"), 7},
                                 {QStringLiteral("note"), 0}});
        QCOMPARE(table.heading(), QStringLiteral("   run client    hops/s note"));
        QCOMPARE(table.row({QStringLiteral("1"), QStringLiteral("none"), QStringLiteral("812"), QStringLiteral("-")}),
                 QStringLiteral("     1 none         812 -"));
        QCOMPARE(table.row({QStringLiteral("12"), QStringLiteral("status-100ms"), QStringLiteral("7"), {}}),
                 QStringLiteral("    12 status-100ms       7 "));
    }
};

QTEST_GUILESS_MAIN(TestBenchScale)
#include "tst_benchscale.moc"
