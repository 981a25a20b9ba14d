// SPDX-License-Identifier: AGPL-3.0-or-later
#include "config/stagegraph.h"

#include <QTest>

using pepsi::Configuration;
using pepsi::OverlayRow;
using pepsi::StageConfig;
using pepsi::StageGraph;
using namespace Qt::StringLiterals;

namespace {

const QString kFile = QStringLiteral("test.conf");

// Overlay rows as "section|option|value", to keep the _data() tables plain.
pepsi::Result<StageGraph, pepsi::ConfigError> graphFrom(const QByteArray &text, const QStringList &overlay = {})
{
    auto config = Configuration::parse(text, kFile);
    if (!config.ok())
        qFatal("unexpected parse error: %s", qPrintable(config.error().toString()));
    QList<OverlayRow> rows;
    for (const QString &row : overlay) {
        const QStringList parts = row.split(u'|');
        Q_ASSERT(parts.size() == 3);
        rows.append({parts[0], parts[1], parts[2]});
    }
    return StageGraph::fromConfiguration(config->withOverlay(rows));
}

StageConfig stage(const char *name, const char *program, int parallelism, int queueLimit, int maxMessages,
                  const QStringList &next, bool fuse)
{
    return {QString::fromUtf8(name), QString::fromUtf8(program), parallelism, queueLimit, maxMessages, next, fuse};
}

const QString kLongName = QStringLiteral("a").repeated(63);

} // namespace

namespace QTest {
template<>
char *toString(const StageConfig &s)
{
    return qstrdup(
        qPrintable(QStringLiteral("%1: program=%2 parallelism=%3 queueLimit=%4 maxMessages=%5 next=[%6] fuse=%7")
                       .arg(s.name, s.program)
                       .arg(s.parallelism)
                       .arg(s.queueLimit)
                       .arg(s.maxMessages)
                       .arg(s.next.join(u' '))
                       .arg(int(s.fuse))));
}
} // namespace QTest

class TestStageGraph : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { qunsetenv("PEPSI_TST_UNDEFINED"); }
    void validGraph();
    void emptyGraph();
    void stageProgramOptionsAreKept();
    void overlayAddsAndOverrides();
    void sourcesBesideTheValues();
    void errors_data();
    void errors();
};

void TestStageGraph::validGraph()
{
    const QByteArray text = "[PATHS]\nBIN = /usr/lib/pepsi\n"
                            "[pepsi]\nDATABASE = postgres:///pepsi\n"
                            "[stage-ingest]\nPROGRAM = $BIN/ingest\nNEXT = enrich  Score\nPARALLELISM = 2\n"
                            "[stage-enrich]\nPROGRAM = enrich-stage\nQUEUE_LIMIT = 16\nNEXT = score\nFUSE = YES\n"
                            "[stage-score]\nprogram = score\nMAX_MESSAGES = 1000000000\nparallelism = 1024\n"
                            "[Stage-Archive]\nPROGRAM = \"/opt/archive tool\"\nFUSE = no\nNEXT =\n"
                            "[stage-"
        + kLongName.toUtf8()
        + "]\nPROGRAM = x\n"
          "[stage-0_a-b]\nPROGRAM = y\nNEXT = ingest\n";
    const auto graph = graphFrom(text);
    QVERIFY2(graph.ok(), qPrintable(graph.ok() ? QString() : graph.error().toString()));

    const QStringList names{QStringLiteral("0_a-b"),   kLongName,
                            QStringLiteral("archive"), QStringLiteral("enrich"),
                            QStringLiteral("ingest"),  QStringLiteral("score")};
    QCOMPARE(graph->names(), names);
    QCOMPARE(graph->stages().size(), names.size());
    QCOMPARE(*graph->stage(QStringLiteral("ingest")),
             stage("ingest", "/usr/lib/pepsi/ingest", 2, 4, 1000, {QStringLiteral("enrich"), QStringLiteral("score")},
                   false));
    QCOMPARE(*graph->stage(QStringLiteral("enrich")),
             stage("enrich", "enrich-stage", 4, 16, 1000, {QStringLiteral("score")}, true));
    QCOMPARE(*graph->stage(QStringLiteral("score")), stage("score", "score", 1024, 4, 1'000'000'000, {}, false));
    QCOMPARE(*graph->stage(QStringLiteral("archive")), stage("archive", "/opt/archive tool", 4, 4, 1000, {}, false));
    QCOMPARE(graph->stage(QStringLiteral("enrich"))->capacity(), 64);
    QVERIFY(!graph->stage(QStringLiteral("nope")));
    QVERIFY(!graph->stage(QStringLiteral("stage-enrich")));

    QCOMPARE(graph->predecessors(QStringLiteral("score")),
             (QStringList{QStringLiteral("enrich"), QStringLiteral("ingest")}));
    QCOMPARE(graph->predecessors(QStringLiteral("ingest")), QStringList{QStringLiteral("0_a-b")});
    QVERIFY(graph->predecessors(QStringLiteral("0_a-b")).isEmpty());
}

void TestStageGraph::emptyGraph()
{
    const auto none = graphFrom("");
    QVERIFY(none.ok());
    QVERIFY(none->stages().isEmpty());

    // "stage" without the dash, and look-alikes, are not stages.
    const auto others = graphFrom("[pepsi]\nDATABASE = x\n[stage]\nFOO = 1\n[stages-x]\nBAR = 2\n[pepsi-dispatch]\n");
    QVERIFY2(others.ok(), qPrintable(others.ok() ? QString() : others.error().toString()));
    QVERIFY(others->names().isEmpty());
}

void TestStageGraph::stageProgramOptionsAreKept()
{
    // Options the dispatcher does not know belong to the stage program.
    const auto graph = graphFrom("[stage-a]\nPROGRAM = a\nWORK_TIME = 20 ms\n");
    QVERIFY2(graph.ok(), qPrintable(graph.ok() ? QString() : graph.error().toString()));
    QCOMPARE(graph->stages(), (QList<StageConfig>{stage("a", "a", 4, 4, 1000, {}, false)}));
}

void TestStageGraph::overlayAddsAndOverrides()
{
    const auto graph = graphFrom("[stage-a]\nPROGRAM = a\nPARALLELISM = 2\n",
                                 {QStringLiteral("Stage-A|parallelism|6"), QStringLiteral("stage-a|NEXT|b"),
                                  QStringLiteral("stage-b|PROGRAM|/bin/b")});
    QVERIFY2(graph.ok(), qPrintable(graph.ok() ? QString() : graph.error().toString()));
    QCOMPARE(graph->stages(),
             (QList<StageConfig>{stage("a", "a", 6, 4, 1000, {QStringLiteral("b")}, false),
                                 stage("b", "/bin/b", 4, 4, 1000, {}, false)}));
}

void TestStageGraph::sourcesBesideTheValues()
{
    using pepsi::OptionSource;
    // Two rows naming one option: the file's value is still what lies under them.
    const auto graph = graphFrom("[stage-a]\nPROGRAM = a\nPARALLELISM = 2\nFUSE = yes\n",
                                 {QStringLiteral("stage-a|PARALLELISM|5"), QStringLiteral("stage-a| parallelism |6"),
                                  QStringLiteral("stage-a|QUEUE_LIMIT|8"), QStringLiteral("stage-b|PROGRAM|/bin/b")});
    QVERIFY2(graph.ok(), qPrintable(graph.ok() ? QString() : graph.error().toString()));
    const pepsi::OptionSources a = graph->sources(QStringLiteral("a"));
    QCOMPARE(a.keys(),
             (QStringList{u"FUSE"_s, u"MAX_MESSAGES"_s, u"NEXT"_s, u"PARALLELISM"_s, u"PROGRAM"_s, u"QUEUE_LIMIT"_s}));
    QCOMPARE(a.value(u"PROGRAM"_s), (pepsi::OptionProvenance{OptionSource::File, std::nullopt}));
    QCOMPARE(a.value(u"FUSE"_s), (pepsi::OptionProvenance{OptionSource::File, std::nullopt}));
    QCOMPARE(a.value(u"PARALLELISM"_s), (pepsi::OptionProvenance{OptionSource::Overlay, u"2"_s}));
    QCOMPARE(a.value(u"QUEUE_LIMIT"_s), (pepsi::OptionProvenance{OptionSource::Overlay, std::nullopt}));
    QCOMPARE(a.value(u"MAX_MESSAGES"_s), (pepsi::OptionProvenance{OptionSource::Default, std::nullopt}));
    QCOMPARE(graph->sources(QStringLiteral("b")).value(u"PROGRAM"_s).source, OptionSource::Overlay);
    QCOMPARE(graph->sources(QStringLiteral("b")).value(u"NEXT"_s).source, OptionSource::Default);
    // Where a value comes from is not part of the stage: the same values compare equal.
    QCOMPARE(graph->stages().first(), stage("a", "a", 5, 8, 1000, {}, true)); // rows apply in (section, option) order
}

void TestStageGraph::errors_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QStringList>("overlay");
    QTest::addColumn<QString>("error");

    const QStringList none;
    const QString expectedName = QStringLiteral(" (expected [a-z0-9][a-z0-9_-]{0,62})");
    QTest::newRow("bad character in name")
        << QByteArray("[pepsi]\n[stage-Bad!]\nPROGRAM = x\n") << none
        << QString(u"test.conf:2: bad stage name \"bad!\" in [stage-bad!]" + expectedName);
    QTest::newRow("name starts with _") << QByteArray("[stage-_x]\nPROGRAM = x\n") << none
                                        << QString(u"test.conf:1: bad stage name \"_x\" in [stage-_x]" + expectedName);
    QTest::newRow("name starts with -") << QByteArray("[stage--x]\nPROGRAM = x\n") << none
                                        << QString(u"test.conf:1: bad stage name \"-x\" in [stage--x]" + expectedName);
    QTest::newRow("empty name") << QByteArray("[stage-]\nPROGRAM = x\n") << none
                                << QString(u"test.conf:1: bad stage name \"\" in [stage-]" + expectedName);
    QTest::newRow("name with a dot") << QByteArray("[stage-a.b]\nPROGRAM = x\n") << none
                                     << QString(u"test.conf:1: bad stage name \"a.b\" in [stage-a.b]" + expectedName);
    QTest::newRow("name too long") << QByteArray("[stage-" + kLongName.toUtf8() + "b]\nPROGRAM = x\n") << none
                                   << QString(u"test.conf:1: bad stage name \"" + kLongName + u"b\" in [stage-"
                                              + kLongName + u"b]" + expectedName);
    QTest::newRow("bad name from the overlay")
        << QByteArray() << QStringList{QStringLiteral("stage-x y|PROGRAM|p")}
        << QString(u"config_overlay (stage-x y): bad stage name \"x y\" in [stage-x y]" + expectedName);

    QTest::newRow("missing PROGRAM") << QByteArray("[pepsi]\n\n[stage-a]\nNEXT =\n") << none
                                     << QStringLiteral("test.conf:3: stage-a: PROGRAM is required");
    QTest::newRow("missing PROGRAM, empty section")
        << QByteArray("[stage-a]\n") << none << QStringLiteral("test.conf:1: stage-a: PROGRAM is required");
    QTest::newRow("missing PROGRAM, overlay-only stage")
        << QByteArray() << QStringList{QStringLiteral("stage-new|parallelism|2")}
        << QStringLiteral("config_overlay (stage-new): stage-new: PROGRAM is required");
    QTest::newRow("empty PROGRAM") << QByteArray("[stage-a]\nPROGRAM =\n") << none
                                   << QStringLiteral("test.conf:2: stage-a: PROGRAM is empty");
    QTest::newRow("quoted blank PROGRAM") << QByteArray("[stage-a]\nPROGRAM = \"  \"\n") << none
                                          << QStringLiteral("test.conf:2: stage-a: PROGRAM is empty");
    QTest::newRow("PROGRAM blanked by the overlay")
        << QByteArray("[stage-a]\nPROGRAM = a\n") << QStringList{QStringLiteral("stage-a|program|")}
        << QStringLiteral("config_overlay (stage-a, PROGRAM): stage-a: PROGRAM is empty");
    QTest::newRow("PROGRAM with an undefined variable")
        << QByteArray("[stage-a]\nPROGRAM = $PEPSI_TST_UNDEFINED/bin/a\n") << none
        << QStringLiteral("test.conf:2: stage-a: PROGRAM: undefined variable $PEPSI_TST_UNDEFINED");

    const QByteArray head = "[stage-a]\nPROGRAM = x\n";
    auto numberRow = [&](const char *tag, const char *line, const char *error) {
        QTest::newRow(tag) << QByteArray(head + line + '\n') << QStringList() << QString::fromUtf8(error);
    };
    numberRow("PARALLELISM 0", "PARALLELISM = 0", "test.conf:3: stage-a: PARALLELISM: 0 is out of range (1..1024)");
    numberRow("PARALLELISM 1025", "PARALLELISM = 1025",
              "test.conf:3: stage-a: PARALLELISM: 1025 is out of range (1..1024)");
    numberRow("PARALLELISM word", "parallelism = four",
              "test.conf:3: stage-a: PARALLELISM: \"four\" is not a whole number");
    numberRow("QUEUE_LIMIT 0", "QUEUE_LIMIT = 0", "test.conf:3: stage-a: QUEUE_LIMIT: 0 is out of range (1..1024)");
    numberRow("QUEUE_LIMIT 1025", "QUEUE_LIMIT = 1025",
              "test.conf:3: stage-a: QUEUE_LIMIT: 1025 is out of range (1..1024)");
    numberRow("QUEUE_LIMIT negative", "QUEUE_LIMIT = -4",
              "test.conf:3: stage-a: QUEUE_LIMIT: -4 is out of range (1..1024)");
    numberRow("MAX_MESSAGES 0", "MAX_MESSAGES = 0",
              "test.conf:3: stage-a: MAX_MESSAGES: 0 is out of range (1..1000000000)");
    numberRow("MAX_MESSAGES too big", "MAX_MESSAGES = 1000000001",
              "test.conf:3: stage-a: MAX_MESSAGES: 1000000001 is out of range (1..1000000000)");
    numberRow("MAX_MESSAGES exponent", "MAX_MESSAGES = 1e3",
              "test.conf:3: stage-a: MAX_MESSAGES: \"1e3\" is not a whole number");
    numberRow("FUSE maybe", "FUSE = maybe", "test.conf:3: stage-a: FUSE: \"maybe\" is not YES or NO");
    QTest::newRow("PARALLELISM from the overlay")
        << head << QStringList{QStringLiteral("stage-a|PARALLELISM|0")}
        << QStringLiteral("config_overlay (stage-a, PARALLELISM): stage-a: PARALLELISM: 0 is out of range (1..1024)");

    QTest::newRow("unknown successor") << QByteArray(head + "NEXT = zz\n") << none
                                       << QStringLiteral("test.conf:3: stage-a: NEXT: unknown stage \"zz\"");
    QTest::newRow("successor named as a section")
        << QByteArray(head + "NEXT = stage-b\n[stage-b]\nPROGRAM = y\n") << none
        << QStringLiteral("test.conf:3: stage-a: NEXT: unknown stage \"stage-b\"");
    QTest::newRow("comma-separated successors")
        << QByteArray(head + "NEXT = b,c\n[stage-b]\nPROGRAM = y\n[stage-c]\nPROGRAM = z\n") << none
        << QStringLiteral("test.conf:3: stage-a: NEXT: unknown stage \"b,c\"");
    QTest::newRow("self-loop") << QByteArray(head + "NEXT = A\n") << none
                               << QStringLiteral("test.conf:3: stage-a: NEXT: \"a\" is the stage itself");
    QTest::newRow("successor twice") << QByteArray(head + "NEXT = b b\n[stage-b]\nPROGRAM = y\n") << none
                                     << QStringLiteral("test.conf:3: stage-a: NEXT: \"b\" is listed twice");
    QTest::newRow("cycle") << QByteArray("[stage-c]\nPROGRAM = z\nNEXT = a\n[stage-b]\nPROGRAM = y\nNEXT = c\n"
                                         "[stage-a]\nPROGRAM = x\nNEXT = b\n")
                           << none << QStringLiteral("test.conf:9: stage-a: NEXT: cycle a -> b -> c -> a");
    QTest::newRow("cycle behind a prefix")
        << QByteArray("[stage-a]\nPROGRAM = x\nNEXT = b\n[stage-b]\nPROGRAM = y\nNEXT = d c\n"
                      "[stage-c]\nPROGRAM = z\nNEXT = b\n[stage-d]\nPROGRAM = w\n")
        << none << QStringLiteral("test.conf:6: stage-b: NEXT: cycle b -> c -> b");
    QTest::newRow("cycle closed by the overlay")
        << QByteArray("[stage-a]\nPROGRAM = x\nNEXT = b\n[stage-b]\nPROGRAM = y\n")
        << QStringList{QStringLiteral("stage-b|next|a")}
        << QStringLiteral("test.conf:3: stage-a: NEXT: cycle a -> b -> a");
}

void TestStageGraph::errors()
{
    QFETCH(QByteArray, text);
    QFETCH(QStringList, overlay);
    QFETCH(QString, error);
    const auto graph = graphFrom(text, overlay);
    QVERIFY2(!graph.ok(), "the graph parsed");
    QCOMPARE(graph.error().toString(), error);
}

QTEST_APPLESS_MAIN(TestStageGraph)
#include "tst_stagegraph.moc"
