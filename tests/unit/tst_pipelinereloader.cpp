// SPDX-License-Identifier: AGPL-3.0-or-later
// PipelineReloader alone: every reload reads the file again (a PROGRAM edited
// in it takes effect whatever caused the reload) with the overlay it is
// given; what changed is named stage by stage and option by option; a file
// that does not parse is a candidate with every problem as FILE:LINE and
// nothing changes; the programs' check finds a PROGRAM that is not there;
// config_changed notifications in a burst give one due().
#include "control/reloadcodec.h"
#include "core/pipelinereloader.h"

#include "testconfig.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace pepsi;
using namespace Qt::StringLiterals;

class TestPipelineReloader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void editedProgramIsReadAgain();
    void overlayRowsApply();
    void brokenFileChangesNothing();
    void programsAreChecked();
    void burstOfNotificationsIsOneReload();
    void steadyNotificationsReloadEveryMaxWait();
    void changesAreDescribed();

private:
    void write(const QByteArray &text);
    std::unique_ptr<PipelineReloader> started();

    QTemporaryDir m_dir;
    QString m_path;
};

void TestPipelineReloader::init()
{
    QVERIFY(m_dir.isValid());
    m_path = m_dir.filePath(u"pepsi.conf"_s);
    // USER: as root (the daemon never is, once it runs) the check takes that account.
    write("[stage-a]\nPROGRAM = /bin/true\nNEXT = b\n[stage-b]\nPROGRAM = /bin/true\n[pepsi-dispatch]\nUSER = root\n");
}

void TestPipelineReloader::write(const QByteArray &text)
{
    QCOMPARE(writeTestConfig(m_dir, QString::fromUtf8(text)), m_path);
}

std::unique_ptr<PipelineReloader> TestPipelineReloader::started()
{
    const auto file = Configuration::load(m_path);
    if (!file)
        return nullptr;
    auto reloader =
        std::make_unique<PipelineReloader>(file.value(), DispatchSettings::fromConfiguration(*file).value());
    if (!reloader->start({}))
        return nullptr;
    return reloader;
}

void TestPipelineReloader::editedProgramIsReadAgain()
{
    const auto reloader = started();
    QVERIFY(reloader);
    write("[stage-a]\nPROGRAM = /bin/false\nNEXT = c\n[stage-c]\nPROGRAM = /bin/true\n");

    const auto candidate = reloader->prepare({}, PipelineReloader::Check::Parse);
    QVERIFY2(candidate.problems.isEmpty(), qPrintable(candidate.problems.join(u'\n')));
    QCOMPARE(candidate.changes.added, QStringList{u"c"_s});
    QCOMPARE(candidate.changes.removed, QStringList{u"b"_s});
    QCOMPARE(candidate.changes.changed.value(u"a"_s),
             (QList<OptionChange>{{u"PROGRAM"_s, u"/bin/true"_s, u"/bin/false"_s}, {u"NEXT"_s, u"b"_s, u"c"_s}}));
    // Nothing is in force before accept().
    QCOMPARE(reloader->current().graph.stage(u"a"_s)->program, u"/bin/true"_s);
    reloader->accept(candidate);
    QCOMPARE(reloader->current().graph.stage(u"a"_s)->program, u"/bin/false"_s);
    QCOMPARE(reloader->prepare({}, PipelineReloader::Check::Parse).changes, ReloadChanges{});
}

void TestPipelineReloader::overlayRowsApply()
{
    const auto reloader = started();
    QVERIFY(reloader);
    const QList<OverlayRow> overlay{{u"stage-b"_s, u"PARALLELISM"_s, u"7"_s}};
    QVERIFY(reloader->overlayDiffers(overlay));
    const auto candidate = reloader->prepare(overlay, PipelineReloader::Check::Parse);
    QCOMPARE(candidate.changes.changed.value(u"b"_s), (QList<OptionChange>{{u"PARALLELISM"_s, u"4"_s, u"7"_s}}));
    reloader->accept(candidate);
    QVERIFY(!reloader->overlayDiffers(overlay));
    QCOMPARE(reloader->prepareWithLastOverlay(PipelineReloader::Check::Parse).changes, ReloadChanges{});
}

void TestPipelineReloader::brokenFileChangesNothing()
{
    const auto reloader = started();
    QVERIFY(reloader);
    // Two problems: a bad number (line 3) and a successor nobody defines (line 6).
    write("[stage-a]\nPROGRAM = /bin/true\nPARALLELISM = lots\nNEXT = b\n[stage-b]\nNEXT = nowhere\nPROGRAM = "
          "/bin/true\n");
    const auto candidate = reloader->prepare({}, PipelineReloader::Check::Parse);
    QVERIFY(!candidate.parses);
    QVERIFY2(candidate.problems.size() >= 2, qPrintable(candidate.problems.join(u'\n')));
    QVERIFY2(candidate.problems.at(0).startsWith(m_path + u":3: "_s), qPrintable(candidate.problems.join(u'\n')));
    QVERIFY2(candidate.problems.filter(m_path + u":6: "_s).size() == 1, qPrintable(candidate.problems.join(u'\n')));
    QCOMPARE(reloader->current().graph.names(), (QStringList{u"a"_s, u"b"_s}));

    QVERIFY(QFile::remove(m_path));
    const auto gone = reloader->prepare({}, PipelineReloader::Check::Parse);
    QVERIFY(!gone.parses);
    QVERIFY2(gone.problems.value(0).startsWith(m_path), qPrintable(gone.problems.join(u'\n')));
}

void TestPipelineReloader::programsAreChecked()
{
    const auto reloader = started();
    QVERIFY(reloader);
    const QString missing = m_dir.filePath(u"missing"_s);
    write("[stage-a]\nPROGRAM = /bin/true\n[stage-b]\nPROGRAM = " + missing.toUtf8() + "\n");
    QVERIFY(reloader->prepare({}, PipelineReloader::Check::Parse).problems.isEmpty());
    const auto checked = reloader->prepare({}, PipelineReloader::Check::Programs);
    QVERIFY(checked.parses);
    QCOMPARE(checked.problems.size(), 1);
    QVERIFY2(checked.problems[0].startsWith(m_path + u":4: stage-b: PROGRAM \""_s + missing + u"\" does not exist"_s),
             qPrintable(checked.problems[0]));
}

void TestPipelineReloader::burstOfNotificationsIsOneReload()
{
    const auto reloader = started();
    QVERIFY(reloader);
    QSignalSpy due(reloader.get(), &PipelineReloader::due);
    for (int i = 0; i < 50; ++i)
        reloader->configChanged(i == 49 ? u"set"_s : u"notify"_s);
    QTRY_COMPARE(due.size(), 1);
    QCOMPARE(due[0][0].toString(), u"set"_s);
    QTest::qWait(2 * PipelineReloader::CoalesceMs); // nothing more may come: the count must stay at 1
    QCOMPARE(due.size(), 1);
    reloader->configChanged(u"notify"_s);
    reloader->cancelPending();
    QTest::qWait(2 * PipelineReloader::CoalesceMs);
    QCOMPARE(due.size(), 1);
}

void TestPipelineReloader::steadyNotificationsReloadEveryMaxWait()
{
    // A script's `pepsi-ctl set` loop: a write every 100 ms for 4.5 s. Never
    // a quiet 300 ms, so only the 2-second cap ends a wait: two reloads
    // while it runs and one after, not one per 300 ms.
    const auto reloader = started();
    QVERIFY(reloader);
    QSignalSpy due(reloader.get(), &PipelineReloader::due);
    int sent = 0;
    QTimer writer;
    writer.setInterval(100);
    connect(&writer, &QTimer::timeout, this, [&] {
        reloader->configChanged(u"notify"_s);
        if (++sent == 45)
            writer.stop();
    });
    writer.start();
    QTRY_VERIFY_WITH_TIMEOUT(!writer.isActive(), 30000);
    QTRY_VERIFY(!reloader->isPending());
    QVERIFY2(due.size() >= 2 && due.size() <= 4, qPrintable(QString::number(due.size())));
}

void TestPipelineReloader::changesAreDescribed()
{
    ReloadChanges changes;
    QCOMPARE(protocol::describe(changes), u"nothing changed"_s);
    changes.added = {u"x"_s};
    changes.removed = {u"y"_s};
    changes.changed.insert(u"deliver"_s, {{u"PROGRAM"_s, u"/a"_s, u"/b"_s}});
    QCOMPARE(protocol::describe(changes), u"added x; removed y; deliver PROGRAM /a \u2192 /b"_s);
    QCOMPARE(protocol::reloadChangesFromJson(protocol::toJson(changes)), changes);
}

QTEST_GUILESS_MAIN(TestPipelineReloader)
#include "tst_pipelinereloader.moc"
