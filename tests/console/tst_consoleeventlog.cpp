// SPDX-License-Identifier: AGPL-3.0-or-later
// The console's event log: the daemon's events in words, in the order they
// came, bounded; the tick left out; worker starts and exits marked as the
// kind the Events view hides at first.
#include "eventlogmodel.h"
#include "eventtext.h"
#include "modeltestdata.h"

#include <QFont>
#include <QSignalSpy>
#include <QTest>
#include <QTranslator>

using namespace pepsi::console;
using namespace Qt::StringLiterals;

class TestConsoleEventLog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void eventLog();
    void eventDetails_data();
    void eventDetails();
    void failingStageStandsOut();

private:
    QTranslator m_english;
};

void TestConsoleEventLog::initTestCase()
{
    // As pepsi-console does: English plural forms ("after 1 message").
    QVERIFY(m_english.load(u":/i18n/pepsi-console_en.qm"_s));
    QCoreApplication::installTranslator(&m_english);
}

void TestConsoleEventLog::eventLog()
{
    EventLogModel model;
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    model.applyEvent(json(R"({"event": "tick", "seq": 1, "time": "2026-12-02T19:00:00.000Z"})"));
    model.applyEvent(json(R"({"event": "worker_crashed", "seq": 2, "time": "2026-12-02T19:00:00.500Z",
                              "pid": 4242, "stage": "enrich", "cause": "crashed: signal 9", "message_id": 7,
                              "requeued": 2})"));
    model.applyEvent(json(R"({"event": "stage_drained", "seq": 3, "time": "2026-12-02T19:00:01.000Z",
                              "stage": "enrich", "uid": 0})"));
    QCOMPARE(model.rowCount(), 0);
    model.flush();
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(model.rowCount(), 2); // the tick is not logged
    QCOMPARE(model.index(0, EventLogModel::Event).data().toString(), u"worker crashed"_s);
    QCOMPARE(model.index(0, EventLogModel::Pid).data().toLongLong(), qint64(4242));
    QVERIFY(
        model.index(0, EventLogModel::Details).data().toString().startsWith(u"crashed: signal 9; message 7 failed"_s));
    // The arrival order is the sort value of every column.
    QCOMPARE(model.index(0, EventLogModel::Details).data(EventLogModel::SortRole).toLongLong(), qint64(1));
    QCOMPARE(model.index(1, EventLogModel::Time).data(EventLogModel::SortRole).toLongLong(), qint64(2));
    QVERIFY(model.index(0, 0).data(EventLogModel::ProblemRole).toBool());
    QVERIFY(!model.index(1, 0).data(EventLogModel::ProblemRole).toBool());

    // The log is bounded: the oldest rows go.
    for (int i = 0; i < EventLogModel::MaxRows + 10; ++i)
        model.applyEvent(QJsonObject{{"event"_L1, u"worker_started"_s}, {"seq"_L1, 10 + i}, {"pid"_L1, i}});
    model.flush();
    QCOMPARE(model.rowCount(), EventLogModel::MaxRows);
    QCOMPARE(model.index(EventLogModel::MaxRows - 1, EventLogModel::Pid).data().toLongLong(),
             qint64(EventLogModel::MaxRows + 9));
}

void TestConsoleEventLog::eventDetails_data()
{
    QTest::addColumn<QByteArray>("event");
    QTest::addColumn<QString>("title");
    QTest::addColumn<QString>("details");
    QTest::addColumn<bool>("lifecycle"); // hidden by default in the Events view

    QTest::newRow("recycled") << QByteArray(R"({"event": "worker_exited", "pid": 1, "stage": "a", "reason": "recycled",
                                               "messages": 1})")
                              << u"worker exited"_s << u"recycled after its message limit, after 1 message"_s << true;
    QTest::newRow("started") << QByteArray(R"({"event": "worker_started", "pid": 1, "stage": "a"})")
                             << u"worker started"_s << u"started"_s << true;
    QTest::newRow("killed") << QByteArray(R"({"event": "worker_killed", "pid": 1, "stage": "a", "reason": "timeout",
                                             "message_id": 88, "detail": "300 s"})")
                            << u"worker killed"_s << u"it ran past its max runtime; message 88 (300 s)"_s << false;
    QTest::newRow("drained by root") << QByteArray(R"({"event": "stage_drained", "stage": "a", "uid": 0})")
                                     << u"stage drained"_s << u"drained by root (uid 0): claims nothing until resumed"_s
                                     << false;
    QTest::newRow("reload") << QByteArray(R"({"event": "reload", "stages": ["a", "b"], "source": "socket"})")
                            << u"reload"_s << u"configuration reloaded (asked on the control socket); stages: a, b"_s
                            << false;
    QTest::newRow("reload after set") << QByteArray(R"({"event": "reload", "stages": ["a"], "source": "set"})")
                                      << u"reload"_s
                                      << u"configuration reloaded (a setting changed with set); stages: a"_s << false;
    QTest::newRow("reload with changes")
        << QByteArray(R"({"event": "reload", "stages": ["a", "x"], "source": "signal", "changed": {"added": ["x"],
                         "removed": [], "changed": {"a": {"PROGRAM": {"old": "/a", "new": "/b"}}}}})")
        << u"reload"_s << u"configuration reloaded (SIGHUP); stages: a, x; added x; a PROGRAM /a \u2192 /b"_s << false;
    QTest::newRow("start failed") << QByteArray(R"({"event": "start_failed", "stage": "a",
                                                   "cause": "exited with status 78 before answering",
                                                   "stderr": "no such table"})")
                                  << u"start failed"_s
                                  << u"could not start: exited with status 78 before answering; its last error line: "
                                     "no such table"_s
                                  << false;
    QTest::newRow("state") << QByteArray(R"({"event": "state", "state": "reconnecting"})") << u"daemon state"_s
                           << u"the daemon is reconnecting to the database"_s << false;
    QTest::newRow("messages failed") << QByteArray(R"({"event": "message_failed", "stage": "deliver", "count": 12,
                         "reason": "status 3: no customer for this address"})")
                                     << u"messages failed"_s
                                     << u"12 messages failed; the latest: status 3: no customer for this address"_s
                                     << false;
    QTest::newRow("a message failed") << QByteArray(
        R"({"event": "message_failed", "stage": "deliver", "count": 1, "reason": "timeout after 5 min"})")
                                      << u"messages failed"_s << u"1 message failed; the latest: timeout after 5 min"_s
                                      << false;
    QTest::newRow("stage failing") << QByteArray(R"({"event": "stage_failing", "stage": "deliver",
                                                    "failure_share": 0.734})")
                                   << u"stage failing"_s << u"failing: 73 % of its runs in the last 10 s failed"_s
                                   << false;
    QTest::newRow("stage recovered") << QByteArray(R"({"event": "stage_recovered", "stage": "deliver",
                                                      "failure_share": 0.04})")
                                     << u"stage recovered"_s << u"recovered: 4 % of its runs in the last 10 s failed"_s
                                     << false;
    QTest::newRow("unknown") << QByteArray(R"({"event": "future_thing", "x": 1})") << u"future_thing"_s << u"x=1"_s
                             << false;
}

void TestConsoleEventLog::eventDetails()
{
    QFETCH(QByteArray, event);
    QFETCH(QString, title);
    QFETCH(QString, details);
    QFETCH(bool, lifecycle);
    EventLogModel model;
    QJsonObject e = json(event.constData());
    e.insert("time"_L1, u"2026-12-02T19:00:00.000Z"_s);
    model.applyEvent(e);
    model.flush();
    QCOMPARE(model.index(0, EventLogModel::Event).data().toString(), title);
    QCOMPARE(model.index(0, EventLogModel::Details).data().toString(), details);
    QCOMPARE(model.index(0, 0).data(EventLogModel::KindRole).toInt() == int(EventText::Kind::WorkerLifecycle),
             lifecycle);
}

// What fails is a failure (its filter), shown as a problem; a failing stage
// stands out (bold, on red) from the single failures around it.
void TestConsoleEventLog::failingStageStandsOut()
{
    EventLogModel model;
    for (const char *name : {"message_failed", "stage_failing", "stage_recovered"})
        model.applyEvent(QJsonObject{{"event"_L1, QString::fromLatin1(name)},
                                     {"time"_L1, u"2026-12-02T19:00:00.000Z"_s},
                                     {"stage"_L1, u"deliver"_s}});
    model.flush();
    QCOMPARE(model.rowCount(), 3);
    for (int row = 0; row < 3; ++row)
        QCOMPARE(model.index(row, 0).data(EventLogModel::KindRole).toInt(), int(EventText::Kind::Failure));
    QVERIFY(model.index(0, 0).data(EventLogModel::ProblemRole).toBool());
    QVERIFY(model.index(1, 0).data(EventLogModel::ProblemRole).toBool());
    QVERIFY(!model.index(2, 0).data(EventLogModel::ProblemRole).toBool());
    QVERIFY(model.index(1, EventLogModel::Details).data(Qt::FontRole).value<QFont>().bold());
    QVERIFY(model.index(1, EventLogModel::Stage).data(Qt::BackgroundRole).isValid());
    QVERIFY(!model.index(0, EventLogModel::Stage).data(Qt::BackgroundRole).isValid());
    QVERIFY(!model.index(2, EventLogModel::Details).data(Qt::FontRole).isValid());
}

QTEST_MAIN(TestConsoleEventLog)
#include "tst_consoleeventlog.moc"
