// SPDX-License-Identifier: AGPL-3.0-or-later
// The configuration's bounds (doc/quality.rst, "Limits"): file size, value
// length, number of stages, overlay rows and overlay value length. Each is hit
// one past the bound, and the error names where the offending text is; at the
// bound itself the configuration is accepted.
#include "config/stagegraph.h"
#include "grapherror.h"

#include <QTemporaryDir>
#include <QTest>

using namespace pepsi;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(pepsi::OverlayRow)

namespace {

const QString kFile = u"limits.conf"_s;

QByteArray stages(qsizetype count)
{
    QByteArray text;
    for (qsizetype i = 0; i < count; ++i)
        text += "[stage-s" + QByteArray::number(i).rightJustified(4, '0') + "]\nPROGRAM = /bin/cat\n";
    return text;
}

QList<OverlayRow> overlayRows(qsizetype count)
{
    QList<OverlayRow> rows;
    for (qsizetype i = 0; i < count; ++i)
        rows.append({u"stage-a"_s, u"OPTION_%1"_s.arg(i), u"1"_s});
    return rows;
}

} // namespace

class TestConfigLimits : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void bounds_data();
    void bounds();
    void hugeFileIsNotReadWhole();
};

void TestConfigLimits::bounds_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QList<OverlayRow>>("overlay");
    QTest::addColumn<QString>("error"); // empty: accepted

    const QByteArray stageA("[stage-a]\nPROGRAM = /bin/cat\n");
    const qsizetype maxValue = Configuration::MaxValueChars;

    // File size: one stage, then a comment that fills the file to the byte.
    const QByteArray head = QByteArray(stageA + "# ");
    QTest::newRow("file at the bound") << QByteArray(head + QByteArray(Configuration::MaxFileBytes - head.size(), 'x'))
                                       << QList<OverlayRow>{} << QString();
    QTest::newRow("file one byte over") << QByteArray(head
                                                      + QByteArray(Configuration::MaxFileBytes - head.size() + 1, 'x'))
                                        << QList<OverlayRow>{} << u"limits.conf: larger than 1048576 bytes (1048577)"_s;

    // A value in the file: the error names its line and option.
    QTest::newRow("file value at the bound")
        << QByteArray(stageA + "WORK_TIME = " + QByteArray(maxValue, 'v') + '\n') << QList<OverlayRow>{} << QString();
    QTest::newRow("file value one over") << QByteArray(stageA + "WORK_TIME = " + QByteArray(maxValue + 1, 'v') + '\n')
                                         << QList<OverlayRow>{}
                                         << u"limits.conf:3: value of WORK_TIME longer than 8192 characters (8193)"_s;
    QTest::newRow("quoted value: the quotes do not count")
        << QByteArray(stageA + "WORK_TIME = \"" + QByteArray(maxValue, 'v') + "\"\n") << QList<OverlayRow>{}
        << QString();

    // Number of stages: the error names the first stage past the bound.
    QTest::newRow("stages at the bound") << stages(StageGraph::MaxStages) << QList<OverlayRow>{} << QString();
    QTest::newRow("one stage too many") << stages(StageGraph::MaxStages + 1) << QList<OverlayRow>{}
                                        << u"limits.conf:513: [stage-s0256]: more than 256 stages"_s;
    QTest::newRow("the overlay adds the stage too many")
        << stages(StageGraph::MaxStages) << QList<OverlayRow>{{u"stage-zz"_s, u"PROGRAM"_s, u"/bin/cat"_s}}
        << u"config_overlay (stage-zz): [stage-zz]: more than 256 stages"_s;

    // Overlay rows and values: nothing of the overlay is applied.
    QTest::newRow("overlay rows at the bound") << stageA << overlayRows(Configuration::MaxOverlayRows) << QString();
    QTest::newRow("overlay one row over") << stageA << overlayRows(Configuration::MaxOverlayRows + 1)
                                          << u"config_overlay has more than 4096 rows (4097 read); none applied"_s;
    QTest::newRow("overlay value at the bound")
        << stageA << QList<OverlayRow>{{u"stage-a"_s, u"WORK_TIME"_s, QString(maxValue, u'v')}} << QString();
    QTest::newRow("overlay value one over")
        << stageA << QList<OverlayRow>{{u"Stage-A"_s, u"work_time"_s, QString(maxValue + 1, u'v')}}
        << u"config_overlay (stage-a, WORK_TIME): longer than 8192 characters; overlay not applied"_s;
    QTest::newRow("overlay option name over")
        << stageA << QList<OverlayRow>{{u"stage-a"_s, QString(maxValue + 1, u'o'), u"1"_s}}
        << u"config_overlay (stage-a, %1): longer than 8192 characters; overlay not applied"_s.arg(QString(64, u'O'));
}

void TestConfigLimits::bounds()
{
    QFETCH(QByteArray, text);
    QFETCH(QList<OverlayRow>, overlay);
    QFETCH(QString, error);
    QCOMPARE(graphError(text, overlay, kFile), error);
}

// load() reads one byte past the bound, not the file: a file of 64 MiB (or a
// device that never ends) costs no more than 1 MiB.
void TestConfigLimits::hugeFileIsNotReadWhole()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"huge.conf"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QVERIFY(file.resize(qint64(64) << 20)); // sparse: no disk used
    file.close();
    const auto config = Configuration::load(path);
    QVERIFY(!config);
    QCOMPARE(config.error().toString(), path + u": larger than 1048576 bytes (1048577)"_s);

    const auto endless = Configuration::load(u"/dev/zero"_s);
    QVERIFY(!endless);
    QCOMPARE(endless.error().toString(), u"/dev/zero: larger than 1048576 bytes (1048577)"_s);
}

QTEST_APPLESS_MAIN(TestConfigLimits)
#include "tst_configlimits.moc"
