// SPDX-License-Identifier: AGPL-3.0-or-later
// pepsi-ctl working through failed messages against a real pepsi-dispatch and
// its tables: `messages` pages of rows with long reasons that hold as many
// rows as fit in a line (500 asked), `--after 0`, `--all` to the end as one
// table or one JSON array with every row once; `reasons` as a table and as
// the list; `requeue` of one reason only, and of the rows that failed
// within `--since` only.
#include "ctldaemontest.h"
#include "ctlrun.h"
#include "daemonprocess.h"
#include "daemonstart.h"
#include "queueprobe.h"
#include "testdatabase.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTest>

#include <memory>

using namespace Qt::StringLiterals;

namespace {

// Two reasons of a few hundred bytes: 500 rows of them do not fit in 64 KiB.
const QString Refused = u"status 3: the carrier refused the parcel: "_s + QString(300, u'r');
const QString Unreachable = u"status 4: the carrier's endpoint did not answer: "_s + QString(250, u'u');

} // namespace

class tst_CtlFailed : public CtlDaemonTest
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();

    void pagesHoldWhatFits();
    void allPages();
    void reasons();
    void requeueOneReason();
    void requeueSince();
    void olderDaemonMovesNothingByReason();

private:
    bool insertFailed(const QString &stage, int count, const QString &reason, const QString &age = u"0 s"_s);

    QList<qint64> m_failedIds; // stage a's failed rows, in id order
};

void tst_CtlFailed::initTestCase()
{
    PEPSI_REQUIRE_CTL_BINARIES();
    PEPSI_REQUIRE_DATABASE_IN(m_db, "ctlfailed");
    m_daemon = std::make_unique<DaemonProcess>(m_db->uri());
    m_daemon->addStage(u"a"_s, DaemonProcess::fakeWorker());
    QVERIFY(startReady(*m_daemon));
    // Failed rows stay failed: the dispatcher claims only pending ones.
    QVERIFY(insertFailed(u"a"_s, 400, Refused));
    QVERIFY(insertFailed(u"a"_s, 300, Unreachable, u"2 h"_s));
    QueueProbe probe(m_db->db());
    for (const QueueRow &row : probe.rows(u"stage = 'a' AND status = 'failed'"_s))
        m_failedIds.append(row.id);
    QCOMPARE(m_failedIds.size(), 700);
}

bool tst_CtlFailed::insertFailed(const QString &stage, int count, const QString &reason, const QString &age)
{
    return m_db->exec(u"INSERT INTO workqueue (stage, status, claims, updated, state) SELECT '%1', 'failed', 1, "
                      "now() - interval '%2', jsonb_build_object('dispatch_error', '%3') "
                      "FROM generate_series(1, %4)"_s.arg(stage, age, QString(reason).replace(u'\'', u"''"_s))
                          .arg(count));
}

// The limit the man page gives: exit 0 with the rows that fit, and the command of the next page.
void tst_CtlFailed::pagesHoldWhatFits()
{
    const CtlRun run = runCtl(at() + QStringList{u"messages"_s, u"a"_s, u"--limit"_s, u"500"_s});
    QVERIFY2(run.finished && run.exitCode == 0, qPrintable(run.describe()));
    const QStringList lines = run.out.split(u'\n', Qt::SkipEmptyParts);
    const qsizetype rows = lines.size() - 2; // the header and "more: ..."
    QVERIFY2(rows > 50 && rows < 500, qPrintable(QString::number(rows)));
    QCOMPARE(lines.last(), u"more: pepsi-ctl messages a --after %1"_s.arg(m_failedIds.at(rows - 1)));

    // --after 0: from the start.
    const CtlRun first =
        runCtl(at() + QStringList{u"--json"_s, u"messages"_s, u"a"_s, u"--after"_s, u"0"_s, u"--limit"_s, u"2"_s});
    QVERIFY2(first.finished && first.exitCode == 0, qPrintable(first.describe()));
    const QJsonObject page = parsed(first.out).object();
    QCOMPARE(page.value(u"messages"_s).toArray().size(), 2);
    QCOMPARE(page.value(u"messages"_s)[0][u"id"_s].toInteger(), m_failedIds.first());
    QCOMPARE(page.value(u"next_after_id"_s).toInteger(), m_failedIds.at(1));
}

// --all: every row once, in id order; --json one array of them.
void tst_CtlFailed::allPages()
{
    const CtlRun json = runCtl(at() + QStringList{u"--json"_s, u"messages"_s, u"a"_s, u"--all"_s});
    QVERIFY2(json.finished && json.exitCode == 0, qPrintable(json.describe().left(3000)));
    const QJsonDocument document = parsed(json.out);
    QVERIFY(document.isArray());
    QList<qint64> ids;
    for (const QJsonValue row : document.array())
        ids.append(row[u"id"_s].toInteger());
    QCOMPARE(ids, m_failedIds);
    QCOMPARE(document.array().first()[u"reason"_s].toString(), Refused);
    QCOMPARE(document.array().last()[u"reason"_s].toString(), Unreachable);
    QCOMPARE(document.array().last()[u"status"_s].toString(), u"failed"_s);

    const CtlRun table = runCtl(at() + QStringList{u"messages"_s, u"a"_s, u"--all"_s, u"--limit"_s, u"100"_s});
    QVERIFY2(table.finished && table.exitCode == 0, qPrintable(table.describe().left(3000)));
    const QStringList lines = table.out.split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 701);
    QVERIFY(lines.first().trimmed().startsWith(u"ID"_s));
    QVERIFY(lines.last().trimmed().startsWith(QString::number(m_failedIds.last())));

    // None in that status: an empty array.
    const CtlRun none =
        runCtl(at() + QStringList{u"--json"_s, u"messages"_s, u"a"_s, u"--status"_s, u"timeout"_s, u"--all"_s});
    QVERIFY2(none.finished && none.exitCode == 0, qPrintable(none.describe()));
    QCOMPARE(parsed(none.out).array(), QJsonArray());
}

// reasons: the most frequent first, each reason whole (stdout is no terminal here).
void tst_CtlFailed::reasons()
{
    const CtlRun table = runCtl(at() + QStringList{u"reasons"_s, u"a"_s});
    QVERIFY2(table.finished && table.exitCode == 0, qPrintable(table.describe()));
    const QStringList lines = table.out.split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    QVERIFY2(QRegularExpression(u"^COUNT  OLDEST +NEWEST +REASON$"_s).match(lines.at(0)).hasMatch(),
             qPrintable(lines.at(0)));
    QVERIFY2(lines.at(1).startsWith(u"  400  "_s) && lines.at(1).endsWith(u"  "_s + Refused), qPrintable(lines.at(1)));
    QVERIFY2(lines.at(2).startsWith(u"  300  "_s) && lines.at(2).endsWith(u"  "_s + Unreachable),
             qPrintable(lines.at(2)));

    const CtlRun json = runCtl(at() + QStringList{u"--json"_s, u"reasons"_s, u"a"_s, u"--status"_s, u"failed"_s});
    QVERIFY2(json.finished && json.exitCode == 0, qPrintable(json.describe()));
    const QJsonArray list = parsed(json.out).array();
    QCOMPARE(list.size(), 2);
    QCOMPARE(list.at(1)[u"reason"_s].toString(), Unreachable);
    QCOMPARE(list.at(1)[u"count"_s].toInteger(), 300);
    QVERIFY(list.at(1)[u"oldest"_s].toString() <= list.at(1)[u"newest"_s].toString());
    QVERIFY(list.at(1)[u"newest"_s].toString() < list.at(0)[u"oldest"_s].toString()); // two hours before

    const CtlRun none = runCtl(at() + QStringList{u"reasons"_s, u"a"_s, u"--status"_s, u"timeout"_s});
    QVERIFY2(none.finished && none.exitCode == 0, qPrintable(none.describe()));
    QCOMPARE(none.out, u"no timeout rows at stage a\n"_s);
}

// Rows of two reasons; requeue one reason only: the other stays failed.
void tst_CtlFailed::requeueOneReason()
{
    // A stage outside the graph: requeued rows stay pending to be counted.
    QVERIFY(insertFailed(u"q"_s, 5, Refused));
    QVERIFY(insertFailed(u"q"_s, 4, Unreachable));
    QueueProbe probe(m_db->db());
    const CtlRun run =
        runCtl(at() + QStringList{u"requeue"_s, u"q"_s, u"--status"_s, u"failed"_s, u"--reason"_s, Unreachable});
    QVERIFY2(run.finished && run.exitCode == 0, qPrintable(run.describe()));
    QCOMPARE(run.out, u"q: 4 failed rows back to pending\n"_s);
    QCOMPARE(probe.count(u"stage = 'q' AND status = 'pending' AND state ->> 'dispatch_error' IS NULL"_s), 4);
    QCOMPARE(probe.count(u"stage = 'q' AND status = 'failed' AND state ->> 'dispatch_error' LIKE 'status 3: %'"_s), 5);

    // A reason no row has moves nothing.
    const CtlRun other = runCtl(at()
                                + QStringList{u"--json"_s, u"requeue"_s, u"q"_s, u"--status"_s, u"failed"_s,
                                              u"--reason"_s, u"status 3: the carrier"_s});
    QVERIFY2(other.finished && other.exitCode == 0, qPrintable(other.describe()));
    QCOMPARE(parsed(other.out).object(), QJsonObject({{u"requeued"_s, 0}, {u"more"_s, false}}));
    QCOMPARE(probe.count(u"stage = 'q' AND status = 'failed'"_s), 5);
    QVERIFY(m_db->exec(u"DELETE FROM workqueue WHERE stage = 'q'"_s));
}

// --since: only the rows whose status changed within it.
void tst_CtlFailed::requeueSince()
{
    QVERIFY(insertFailed(u"s"_s, 3, Refused, u"2 h"_s));
    QVERIFY(insertFailed(u"s"_s, 2, Refused, u"5 min"_s));
    QueueProbe probe(m_db->db());
    const CtlRun run =
        runCtl(at() + QStringList{u"requeue"_s, u"s"_s, u"--status"_s, u"failed"_s, u"--since"_s, u"1h"_s});
    QVERIFY2(run.finished && run.exitCode == 0, qPrintable(run.describe()));
    QCOMPARE(run.out, u"s: 2 failed rows back to pending\n"_s);
    QCOMPARE(probe.count(u"stage = 's' AND status = 'failed' AND updated < now() - interval '1 h'"_s), 3);
    QCOMPARE(probe.count(u"stage = 's' AND status = 'pending'"_s), 2);

    // With --reason as well: both bounds hold.
    QVERIFY(insertFailed(u"s"_s, 2, Unreachable, u"1 min"_s));
    const CtlRun both = runCtl(at()
                               + QStringList{u"requeue"_s, u"s"_s, u"--status"_s, u"failed"_s, u"--since"_s, u"10m"_s,
                                             u"--reason"_s, Refused});
    QVERIFY2(both.finished && both.exitCode == 0, qPrintable(both.describe()));
    QCOMPARE(both.out, u"s: 0 failed rows back to pending\n"_s);
    QCOMPARE(probe.count(u"stage = 's' AND status = 'failed'"_s), 5);

    // A duration that is none: nothing is sent.
    const CtlRun bad =
        runCtl(at() + QStringList{u"requeue"_s, u"s"_s, u"--status"_s, u"failed"_s, u"--since"_s, u"lately"_s});
    QVERIFY2(bad.finished && bad.exitCode == 64, qPrintable(bad.describe()));
    QVERIFY2(bad.err.startsWith(u"pepsi-ctl: requeue: --since: "_s), qPrintable(bad.err));
    QCOMPARE(probe.count(u"stage = 's' AND status = 'failed'"_s), 5);
    QVERIFY(m_db->exec(u"DELETE FROM workqueue WHERE stage = 's'"_s));
}

// A daemon from before "reason" would ignore it and move every failed row:
// pepsi-ctl asks `help` first and sends no requeue to it (exit 1).
void tst_CtlFailed::olderDaemonMovesNothingByReason()
{
    ScriptedServer older([](const QByteArray &line, int) {
        const QJsonObject request = QJsonDocument::fromJson(line).object();
        const QString cmd = request.value(u"cmd"_s).toString();
        QJsonValue result = QJsonObject{{u"requeued"_s, 9}, {u"more"_s, false}};
        if (cmd == u"version")
            result = QJsonObject{{u"protocol"_s, 1}, {u"daemon"_s, u"0.9.0"_s}};
        else if (cmd == u"help")
            result = QJsonObject{{u"commands"_s,
                                  QJsonArray{QJsonObject{{u"cmd"_s, u"requeue"_s},
                                                         {u"args"_s,
                                                          QJsonArray{QJsonObject{{u"name"_s, u"stage"_s}},
                                                                     QJsonObject{{u"name"_s, u"status"_s}},
                                                                     QJsonObject{{u"name"_s, u"ids"_s}}}}}}}};
        const QJsonObject reply{{u"id"_s, request.value(u"id"_s)}, {u"ok"_s, true}, {u"result"_s, result}};
        return ScriptedServer::Answer{QJsonDocument(reply).toJson(QJsonDocument::Compact) + '\n'};
    });
    QVERIFY(older.isListening());
    const CtlRun run =
        runCtl({u"--socket"_s, older.path(), u"requeue"_s, u"q"_s, u"--status"_s, u"failed"_s, u"--reason"_s, Refused});
    QVERIFY2(run.finished && run.exitCode == 1, qPrintable(run.describe()));
    QVERIFY2(run.err.contains(u"cannot requeue by reason (it is older than pepsi-ctl); nothing was requeued"_s),
             qPrintable(run.err));
    QCOMPARE(older.received.size(), 2); // version, help
    QVERIFY(!older.received.last().contains(u"\"requeue\""_s));
}

QTEST_GUILESS_MAIN(tst_CtlFailed)
#include "tst_ctlfailed.moc"
