// SPDX-License-Identifier: AGPL-3.0-or-later
// What pepsi-ctl prints for people (ctl/table, ctl/views), from replies shaped
// as doc/control-protocol.rst shows them: the columns, "-" for what a daemon
// does not send, qshape's age columns only when pending_ages is there.
#include "table.h"
#include "views.h"

#include <QJsonDocument>
#include <QTest>

using namespace Qt::StringLiterals;
namespace views = pepsi::ctl::views;

namespace {

QJsonObject object(const char *json)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(QByteArray(json), &error);
    if (!document.isObject())
        qFatal("bad test JSON: %s", qPrintable(error.errorString()));
    return document.object();
}

// The lines of `text` with runs of blanks made one, for comparisons that do
// not depend on column widths.
QStringList squeezed(const QString &text)
{
    QStringList lines;
    for (const QString &line : text.split(u'\n', Qt::SkipEmptyParts))
        lines.append(line.simplified());
    return lines;
}

const char *const Status = R"({"time": "2026-12-02T19:51:47.123Z", "state": "running",
  "totals": {"workers": 7, "busy": 5, "in_flight": 19, "capacity": 48, "claimed": 120345, "rounds": 30111,
             "stage_runs": 360012, "messages": 119876, "rate_10s": 6012.5, "rate_60s": 5871.0},
  "queues_at": "2026-12-02T19:51:47.000Z",
  "stages": {
    "enrich": {"workers": 4, "busy": 3, "idle": 1, "starting": 0, "retiring": 0, "parallelism": 4,
               "queue_limit": 4, "in_flight": 9, "capacity": 16, "cooldown": false, "cooldown_until": null,
               "cooldown_reason": null, "drained": false,
               "queue": {"pending": 1200, "running": 9, "paused": 3, "failed": 12, "timeout": 0,
                         "oldest_pending_age_ms": 5400},
               "stats": {"runs": 52011, "failures": 12, "timeouts": 0, "crashes": 1, "busy_usec": 8123456,
                         "rate_10s": 2004.1, "rate_60s": 1990.0, "failure_share": 0.73, "failing": true}},
    "score": {"workers": 0, "busy": 0, "parallelism": 2, "queue_limit": 4, "in_flight": 0, "capacity": 0,
              "cooldown": true, "cooldown_until": "2026-12-02T19:52:47.000Z",
              "cooldown_reason": "exited with status 78 before answering", "drained": true,
              "queue": {"pending": 0, "running": 0, "paused": 0, "failed": 0, "timeout": 2,
                        "oldest_pending_age_ms": null},
              "stats": {"runs": 0, "failures": 0, "rate_10s": 0, "rate_60s": 0}}}})";

} // namespace

class tst_CtlViews : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void table();
    void age_data();
    void age();
    void status();
    void statusWithoutQueues();
    void queuesWithAges();
    void queuesWithoutAges();
    void workers();
    void messagesPage();
    void reasons();
    void eventLine();
};

// Local times print as UTC here: set before main(), before Qt reads the zone.
const bool utc = qputenv("TZ", "UTC");

void tst_CtlViews::initTestCase() { QVERIFY(utc); }

void tst_CtlViews::table()
{
    pepsi::ctl::Table table({u"NAME"_s, u"COUNT"_s});
    table.setTextColumns({0});
    table.addRow({u"a"_s, u"1"_s});
    table.addRow({u"longer"_s, u"12345"_s});
    QCOMPARE(table.render(), u"NAME    COUNT\na           1\nlonger  12345\n"_s);
}

void tst_CtlViews::age_data()
{
    QTest::addColumn<qint64>("ms");
    QTest::addColumn<QString>("text");
    QTest::newRow("ms") << qint64(850) << u"850ms"_s;
    QTest::newRow("s") << qint64(5400) << u"5.4s"_s;
    QTest::newRow("m") << qint64(192000) << u"3m12s"_s;
    QTest::newRow("h") << qint64(7500000) << u"2h05m"_s;
    QTest::newRow("d") << qint64(277200000) << u"3d05h"_s;
    QTest::newRow("none") << qint64(-1) << u"-"_s;
}

void tst_CtlViews::age()
{
    QFETCH(qint64, ms);
    QFETCH(QString, text);
    QCOMPARE(pepsi::ctl::formatAge(ms), text);
}

void tst_CtlViews::status()
{
    const QStringList lines = squeezed(views::status(object(Status)));
    QCOMPARE(lines.size(), 5);
    QCOMPARE(lines[0],
             u"daemon running, 7 workers (5 busy), in flight 19/48, 6012.5/s over 10 s, 5871.0/s over 60 s"_s);
    QCOMPARE(lines[1], u"STAGE WORKERS IN FLIGHT PENDING OLDEST FAILED TIMEOUT RATE 10S RATE 60S FAILURES STATE"_s);
    // The failed and timed-out rows waiting beside the failures since start.
    QCOMPARE(lines[2], u"enrich 3/4 9/16 1200 5.4s 12 0 2004.1 1990.0 12 failing (73 % of runs in 10 s)"_s);
    QCOMPARE(lines[3],
             u"score 0/2 0/0 0 - 0 2 0 0 0 drained, cooldown until 19:52:47: exited with status 78 before "
             u"answering"_s);
    // How much older the counts are than the rest of the reply.
    QCOMPARE(lines[4], u"queue counts 123ms old (counted at 2026-12-02 19:51:47)"_s);
}

void tst_CtlViews::statusWithoutQueues()
{
    QJsonObject status = object(Status);
    status.insert(u"queues_at"_s, QJsonValue::Null);
    status.insert(u"queues_error"_s, u"the database is unreachable"_s);
    QJsonObject stages = status.value(u"stages"_s).toObject();
    QJsonObject enrich = stages.value(u"enrich"_s).toObject();
    enrich.insert(u"queue"_s, QJsonValue::Null);
    stages.insert(u"enrich"_s, enrich);
    status.insert(u"stages"_s, stages);
    const QStringList lines = squeezed(views::status(status));
    QCOMPARE(lines[1], u"queue counts unavailable: the database is unreachable"_s);
    QCOMPARE(lines[3], u"enrich 3/4 9/16 - - - - 2004.1 1990.0 12 failing (73 % of runs in 10 s)"_s);
    QCOMPARE(lines.size(), 5); // no age line without counts
}

void tst_CtlViews::queuesWithAges()
{
    const QStringList lines = squeezed(views::queues(object(R"({"at": "2026-12-02T19:51:47.000Z", "age_ms": 230,
      "stages": {"enrich": {"pending": 1200, "running": 9, "paused": 3, "failed": 12, "timeout": 0,
                            "oldest_pending_age_ms": 5400,
                            "pending_ages": {"1s": 700, "10s": 500, "1m": 0, "10m": 0, "1h": 0, "older": 0}},
                 "score": {"pending": 3, "running": 0, "paused": 0, "failed": 1, "timeout": 2,
                           "oldest_pending_age_ms": 4000000,
                           "pending_ages": {"1s": 0, "10s": 0, "1m": 0, "10m": 0, "1h": 2, "older": 1}}}})")));
    QCOMPARE(lines.size(), 5);
    QCOMPARE(lines[0], u"counted at 2026-12-02 19:51:47 (230ms ago)"_s);
    QCOMPARE(lines[1], u"STAGE PENDING RUNNING PAUSED FAILED TIMEOUT OLDEST 1s 10s 1m 10m 1h older"_s);
    QCOMPARE(lines[2], u"enrich 1200 9 3 12 0 5.4s 700 500 0 0 0 0"_s);
    QCOMPARE(lines[3], u"score 3 0 0 1 2 1h06m 0 0 0 0 2 1"_s);
    QCOMPARE(lines[4], u"TOTAL 1203 9 3 13 2 700 500 0 0 2 1"_s);
}

// A daemon without pending_ages: no age columns, nothing made up.
void tst_CtlViews::queuesWithoutAges()
{
    const QStringList lines = squeezed(views::queues(object(R"({"at": null, "age_ms": 0,
      "stages": {"a": {"pending": 0, "running": 0, "paused": 0, "failed": 0, "timeout": 0,
                       "oldest_pending_age_ms": null}}})")));
    QCOMPARE(lines[1], u"STAGE PENDING RUNNING PAUSED FAILED TIMEOUT OLDEST"_s);
    QCOMPARE(lines[2], u"a 0 0 0 0 0 -"_s);
    QCOMPARE(lines[3], u"TOTAL 0 0 0 0 0"_s);
}

void tst_CtlViews::workers()
{
    const QJsonArray list = QJsonDocument::fromJson(R"([{"pid": 5001, "stage": "enrich", "state": "running",
        "retiring": true, "messages": 512, "uptime_ms": 61000, "held": 3, "head_id": 88, "head_age_ms": 12,
        "max_runtime_ms": 300000}])")
                                .array();
    const QStringList lines = squeezed(views::workers(list));
    QCOMPARE(lines[0], u"PID STAGE STATE MESSAGES UPTIME HELD HEAD HEAD AGE"_s);
    QCOMPARE(lines[1], u"5001 enrich running, retiring 512 1m01s 3 88 12ms"_s);
    QCOMPARE(views::workers({}), u"no worker is running\n"_s);
}

void tst_CtlViews::messagesPage()
{
    const QJsonObject page = object(R"({"messages": [{"id": 7, "stage": "a", "status": "failed", "claims": 2,
        "updated": "2026-12-02T19:51:47.000Z", "reason": "status 3: no such customer"}], "next_after_id": 7})");
    const QStringList lines = squeezed(views::messages(page, u"a"_s));
    QCOMPARE(lines[1], u"7 failed 2 2026-12-02 19:51:47 status 3: no such customer"_s);
    QCOMPARE(lines[2], u"more: pepsi-ctl messages a --after 7"_s);
}

// reasons: the most frequent first; a line cut to the terminal's width, or whole without one.
void tst_CtlViews::reasons()
{
    const QString longReason = u"status 3: "_s + QString(200, u'x');
    const QJsonObject result =
        object(QByteArray(R"({"reasons": [{"reason": ")" + longReason.toUtf8() + R"(", "count": 12,
        "oldest": "2026-12-02T19:51:47.000Z", "newest": "2026-12-02T20:01:00.000Z"}, {"reason": null, "count": 1,
        "oldest": "2026-12-02T19:00:00.000Z", "newest": "2026-12-02T19:00:00.000Z"}], "more": true, "total": 20})")
                   .constData());
    const QString whole = views::reasons(result, u"failed rows at stage a"_s, 0);
    const QStringList lines = whole.split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(lines[0], u"COUNT  OLDEST               NEWEST               REASON"_s);
    QCOMPARE(lines[1], u"   12  2026-12-02 19:51:47  2026-12-02 20:01:00  "_s + longReason);
    QCOMPARE(lines[2], u"    1  2026-12-02 19:00:00  2026-12-02 19:00:00  -"_s);
    QCOMPARE(lines[3], u"7 more rows have reasons less frequent than these"_s);
    const QStringList cut = views::reasons(result, u"failed rows at stage a"_s, 80).split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(cut[1].size(), 80);
    QCOMPARE(cut[1], lines[1].left(79) + u'…');
    QCOMPARE(cut[2], lines[2]);
    QCOMPARE(views::reasons(object(R"({"reasons": [], "more": false, "total": 0})"), u"failed rows at stage a"_s, 80),
             u"no failed rows at stage a\n"_s);
}

void tst_CtlViews::eventLine()
{
    QCOMPARE(views::eventLine(object(R"({"event": "worker_started", "seq": 4, "time": "2026-12-02T19:51:47.123Z",
                                         "pid": 5001, "stage": "enrich"})")),
             u"19:51:47.123  worker_started pid=5001 stage=enrich\n"_s);
    // A tick's stages on the same line, one {…} per stage.
    QCOMPARE(views::eventLine(object(R"({"event": "tick", "seq": 9, "time": "2026-12-02T19:51:48.000Z", "claimed": 3,
                                         "stages": {"a": {"busy": 1, "rate_10s": 2004.123456}}})")),
             u"19:51:48.000  tick claimed=3 stages={a={busy=1 rate_10s=2004.12}}\n"_s);
    // What fails, in words.
    QCOMPARE(views::eventLine(object(R"({"event": "message_failed", "seq": 10, "time": "2026-12-02T19:51:48.000Z",
                                         "stage": "deliver", "count": 12, "reason": "status 3: no such customer"})")),
             u"19:51:48.000  message_failed deliver: 12 messages failed; the latest: status 3: no such customer\n"_s);
    QCOMPARE(views::eventLine(object(R"({"event": "stage_failing", "seq": 11, "time": "2026-12-02T19:51:48.000Z",
                                         "stage": "deliver", "failure_share": 0.734})")),
             u"19:51:48.000  stage_failing deliver: 73 % of its runs in the last 10 s failed (failing)\n"_s);
    QCOMPARE(views::eventLine(object(R"({"event": "stage_recovered", "seq": 12, "time": "2026-12-02T19:51:58.000Z",
                                         "stage": "deliver", "failure_share": 0.0997})")),
             u"19:51:58.000  stage_recovered deliver: 9 % of its runs in the last 10 s failed (recovered)\n"_s);
    // A reload says what changed as the daemon's log does.
    QCOMPARE(views::eventLine(object(R"({"event": "reload", "seq": 10, "time": "2026-12-02T19:51:49.000Z",
                                         "source": "signal", "stages": ["a", "x"],
                                         "changed": {"added": ["x"], "removed": ["y"],
                                                     "changed": {"a": {"PROGRAM": {"old": "/a", "new": "/b"}}}}})")),
             u"19:51:49.000  reload source=signal stages=a,x: added x; removed y; a PROGRAM /a \u2192 /b\n"_s);
}

QTEST_APPLESS_MAIN(tst_CtlViews)
#include "tst_ctlviews.moc"
