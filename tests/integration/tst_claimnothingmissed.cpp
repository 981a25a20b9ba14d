// SPDX-License-Identifier: AGPL-3.0-or-later
// Claim floors (doc/pepsi-dispatch.rst): the claim walks each stage from a
// floor and still misses nothing.
// Rows that become pending below a stage's floor are claimed without waiting
// for the heartbeat when the dispatcher is told (a requeue it wrote, a paused
// row it resumed, an insert the trigger announced, committed late), and by
// the heartbeat when nobody tells it (the trigger disabled, an operator's own
// UPDATE, a notification lost with the connection). And a snapshot held
// elsewhere does not change the claim's work: counted in buffers, not time.
// Real daemon, fake workers, real PostgreSQL.
#include "daemonprocess.h"
#include "daemonstart.h"
#include "daemontest.h"
#include "model/claimfloors.h"
#include "storage/pgarray.h"
#include "storage/queuestore.h"

#include <QElapsedTimer>
#include <QRegularExpression>
#include <QRegularExpressionMatchIterator>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTest>

#include <memory>

using namespace Qt::StringLiterals;
using namespace pepsi;

class tst_ClaimNothingMissed : public DaemonTest
{
    Q_OBJECT

private Q_SLOTS:
    void announcedBelowTheFloor_data();
    void announcedBelowTheFloor();
    void unannouncedFoundByTheHeartbeat_data();
    void unannouncedFoundByTheHeartbeat();
    void heldSnapshotLeavesTheRoundAlone();
    void quietStagesAreLeftOut();

private:
    // Stage a of the fake worker (PARALLELISM 1, QUEUE_LIMIT 4) after 40
    // messages went through it: its floor is past them.
    std::unique_ptr<DaemonProcess> startWarm(const QString &pollInterval);
    // Buffers one claim round reads (EXPLAIN ANALYZE, rolled back).
    qint64 roundBuffers(const QList<StageDemand> &demands);
    struct History
    {
        qint64 fromFloor = -1;
        qint64 fromStart = -1;
    };
    History historyThenRound(bool holdSnapshot);
};

std::unique_ptr<DaemonProcess> tst_ClaimNothingMissed::startWarm(const QString &pollInterval)
{
    auto daemon = std::make_unique<DaemonProcess>(m_db->uri());
    daemon->setOption(u"POLL_INTERVAL"_s, pollInterval);
    daemon->setOption(u"TEMPFAIL_DELAY"_s, u"200 ms"_s);
    daemon->addStage(u"a"_s, DaemonProcess::fakeWorker(), {{u"PARALLELISM"_s, u"1"_s}, {u"QUEUE_LIMIT"_s, u"4"_s}});
    if (!startReady(*daemon))
        return nullptr;
    if (m_queue->insert(u"a"_s, 40).size() != 40)
        return nullptr;
    QElapsedTimer waited;
    waited.start();
    while (m_queue->count(u"status = 'done'"_s) < 40 && waited.elapsed() < 20000)
        QTest::qWait(20);
    if (m_queue->count(u"status = 'done'"_s) != 40) {
        qWarning("the first 40 messages were not done: %s", qPrintable(daemon->log()));
        return nullptr;
    }
    return daemon;
}

void tst_ClaimNothingMissed::announcedBelowTheFloor_data()
{
    QTest::addColumn<QStringList>("modes");    // one row each, state.fake.a
    QTest::addColumn<QStringList>("expected"); // final status of each
    QTest::newRow("requeued after a worker crash")
        << QStringList{u"crash"_s, u"ok"_s, u"ok"_s} << QStringList{u"failed"_s, u"done"_s, u"done"_s};
    QTest::newRow("paused by the stage, resumed") << QStringList{u"pause-once:100"_s} << QStringList{u"done"_s};
    QTest::newRow("paused by the dispatcher, resumed") << QStringList{u"tempfail-once"_s} << QStringList{u"done"_s};
    QTest::newRow("inserted with an early id, committed late") << QStringList{} << QStringList{u"done"_s};
}

// The heartbeat is a minute away: only the dispatcher's own knowledge (or
// the trigger's word) can bring the floor back down in time.
void tst_ClaimNothingMissed::announcedBelowTheFloor()
{
    QFETCH(QStringList, modes);
    QFETCH(QStringList, expected);
    auto daemon = startWarm(u"60 s"_s);
    QVERIFY(daemon);
    QList<qint64> ids;
    if (modes.isEmpty()) {
        // An insert whose id is taken before 20 others that run first:
        // the floor passes it before it commits, and its NOTIFY names it.
        QSqlDatabase late = m_db->newConnection(u"late"_s);
        QVERIFY(late.transaction());
        QSqlQuery insert(late);
        QVERIFY(insert.exec(u"INSERT INTO workqueue (stage) VALUES ('a') RETURNING workqueue_id"_s) && insert.next());
        ids << insert.value(0).toLongLong();
        QCOMPARE(m_queue->insert(u"a"_s, 20).size(), 20);
        QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status = 'done'"_s), 60, 10000);
        QVERIFY(late.commit());
    } else {
        ids = m_queue->insertModes(u"a"_s, modes);
        QCOMPARE(ids.size(), modes.size());
    }
    for (qsizetype i = 0; i < ids.size(); ++i)
        QTRY_COMPARE_WITH_TIMEOUT(m_queue->row(ids[i])->status, expected[i], 10000);
    QVERIFY(daemon->isRunning());
    QCOMPARE(daemon->terminate(), 0);
}

void tst_ClaimNothingMissed::unannouncedFoundByTheHeartbeat_data()
{
    QTest::addColumn<QString>("how");
    QTest::newRow("inserted with the trigger disabled") << u"insert"_s;
    QTest::newRow("an operator's own UPDATE to pending") << u"update"_s;
    QTest::newRow("inserted while the listener was gone") << u"reconnect"_s;
}

// The heartbeat walks every stage from the start: a row nobody announced,
// far below the floor, is claimed at the latest then.
void tst_ClaimNothingMissed::unannouncedFoundByTheHeartbeat()
{
    QFETCH(QString, how);
    auto daemon = startWarm(u"2 s"_s);
    QVERIFY(daemon);
    qint64 id = 0;
    if (how == u"insert") {
        // In place of an early row, far below the floor.
        QVERIFY(m_db->exec(u"ALTER TABLE workqueue DISABLE TRIGGER workqueue_notify"_s));
        QVERIFY(m_db->exec(u"DELETE FROM workqueue WHERE workqueue_id = 3"_s));
        id = m_queue->scalar(u"INSERT INTO workqueue (workqueue_id, stage) OVERRIDING SYSTEM VALUE "
                             "VALUES (3, 'a') RETURNING workqueue_id"_s);
        QVERIFY(m_db->exec(u"ALTER TABLE workqueue ENABLE TRIGGER workqueue_notify"_s));
    } else if (how == u"update") {
        id = m_queue->scalar(u"SELECT min(workqueue_id) FROM workqueue"_s);
        QVERIFY(m_db->exec(u"UPDATE workqueue SET status = 'pending' WHERE workqueue_id = %1"_s.arg(id)));
    } else {
        // Its notification goes to a listener that is not there.
        QVERIFY(m_db->exec(u"ALTER TABLE workqueue DISABLE TRIGGER workqueue_notify"_s));
        QCOMPARE(m_queue->scalar(u"SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE "
                                 "'pepsi-dispatch %' AND pg_terminate_backend(pid)"_s)
                     > 0,
                 true);
        QVERIFY(m_db->exec(u"DELETE FROM workqueue WHERE workqueue_id = 5"_s));
        id = m_queue->scalar(u"INSERT INTO workqueue (workqueue_id, stage) OVERRIDING SYSTEM VALUE "
                             "VALUES (5, 'a') RETURNING workqueue_id"_s);
        QVERIFY(m_db->exec(u"ALTER TABLE workqueue ENABLE TRIGGER workqueue_notify"_s));
    }
    QVERIFY(id != 0);
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->row(id)->status, u"done"_s, 10000);
    QVERIFY(daemon->isRunning());
    QCOMPARE(daemon->terminate(), 0);
}

qint64 tst_ClaimNothingMissed::roundBuffers(const QList<StageDemand> &demands)
{
    const QList<QByteArray> values = claimValues(demands);
    QString sql = ClaimRoundSql;
    sql.replace(u":stages"_s, u"'%1'"_s.arg(QString::fromUtf8(values[0])))
        .replace(u":caps"_s, u"'%1'"_s.arg(QString::fromUtf8(values[1])))
        .replace(u":floors"_s, u"'%1'"_s.arg(QString::fromUtf8(values[2])));
    QSqlQuery query(m_db->db());
    if (!query.exec(u"BEGIN"_s))
        return -1;
    qint64 buffers = -1;
    static const QRegularExpression shared(u"Buffers: shared hit=(\\d+)(?: read=(\\d+))?"_s);
    if (query.exec(u"EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF) "_s + sql)) {
        // The first Buffers line is the whole statement's.
        while (query.next() && buffers < 0) {
            if (const auto m = shared.match(query.value(0).toString()); m.hasMatch())
                buffers = m.captured(1).toLongLong() + m.captured(2).toLongLong();
        }
    } else {
        qWarning("%s", qPrintable(query.lastError().text()));
    }
    query.exec(u"ROLLBACK"_s);
    return buffers;
}

// 3,000 messages through stage a, claimed as the dispatcher does (from the
// floors it keeps) and finished; then 16 more, announced as their insert's
// notification would. What the next round reads from its floor, and what a
// walk from the start reads.
tst_ClaimNothingMissed::History tst_ClaimNothingMissed::historyThenRound(bool holdSnapshot)
{
    History history;
    QueueConnection queue(u"tst-claim"_s);
    if (!m_db->exec(u"TRUNCATE workqueue RESTART IDENTITY"_s) || !queue.open(m_db->uri(), u"tst"_s))
        return history;
    QueueStore store(queue);
    QSqlDatabase holder = m_db->newConnection(u"holder"_s);
    if (holdSnapshot) {
        // An XID of its own: nothing written from now on can be cleaned.
        QSqlQuery hold(holder);
        if (!holder.transaction() || !hold.exec(u"SELECT txid_current()"_s))
            return history;
    }
    const QString stage = u"a"_s;
    ClaimFloors floors;
    m_db->exec(u"INSERT INTO workqueue (stage) SELECT 'a' FROM generate_series(1, 3000)"_s);
    for (int claimed = 0; claimed < 3000;) {
        const QList<StageDemand> demands{{stage, 16, floors.floor(stage)}};
        const auto round = store.claimRound(demands);
        if (!round || round->claimed.isEmpty())
            return history;
        qint64 highest = ClaimFloors::Start;
        QList<qint64> ids;
        for (const ClaimedMessage &message : round->claimed) {
            highest = std::max(highest, message.ticket.id);
            ids << message.ticket.id;
        }
        const auto left = round->unclaimedFrom.constFind(stage);
        floors.advance(stage, demands[0].floor,
                       left == round->unclaimedFrom.cend() ? std::nullopt : std::optional<qint64>(*left), highest);
        // The stage finishes them.
        m_db->exec(u"UPDATE workqueue SET status = 'done' WHERE workqueue_id = ANY ('%1')"_s.arg(pgIntArray(ids)));
        claimed += int(ids.size());
    }
    if (!holdSnapshot)
        m_db->exec(u"VACUUM workqueue"_s);
    floors.lower(stage,
                 m_queue->scalar(u"INSERT INTO workqueue (stage) SELECT 'a' FROM generate_series(1, 16) "
                                 "RETURNING workqueue_id"_s));
    history.fromFloor = roundBuffers({{stage, 16, floors.floor(stage)}});
    history.fromStart = roundBuffers({{stage, 16, ClaimFloors::Start}});
    if (holdSnapshot)
        holder.rollback();
    return history;
}

// The same history with and without a snapshot held through it: the round
// from the floor reads the same buffers; a walk from the start would read
// the history the snapshot keeps.
void tst_ClaimNothingMissed::heldSnapshotLeavesTheRoundAlone()
{
    const History clean = historyThenRound(false);
    const History held = historyThenRound(true);
    qInfo("buffers a round after 3,000 messages: clean %lld (from the start %lld), under a held snapshot %lld "
          "(from the start %lld)",
          clean.fromFloor, clean.fromStart, held.fromFloor, held.fromStart);
    QVERIFY(clean.fromFloor > 0 && held.fromFloor > 0);
    QVERIFY2(held.fromFloor <= clean.fromFloor + 8,
             qPrintable(u"%1 against %2"_s.arg(held.fromFloor).arg(clean.fromFloor)));
    // The history is there: a walk from the start pays for it.
    QVERIFY2(held.fromStart > clean.fromStart + 50,
             qPrintable(u"%1 against %2"_s.arg(held.fromStart).arg(clean.fromStart)));
}

// A stage whose walk found nothing is left out of the rounds until a row is
// announced there: with fifteen idle stages beside a busy one, the rounds
// walk one stage, and an insert at an idle one still wakes it.
void tst_ClaimNothingMissed::quietStagesAreLeftOut()
{
    DaemonProcess daemon(m_db->uri());
    daemon.setOption(u"POLL_INTERVAL"_s, u"60 s"_s);
    const DaemonProcess::Options oneWorker{{u"PARALLELISM"_s, u"1"_s}, {u"QUEUE_LIMIT"_s, u"4"_s}};
    daemon.addStage(u"a"_s, DaemonProcess::fakeWorker(), oneWorker);
    for (int i = 1; i <= 15; ++i)
        daemon.addStage(u"idle%1"_s.arg(i), DaemonProcess::fakeWorker(), oneWorker);
    QVERIFY(startReady(daemon));
    QCOMPARE(m_queue->insert(u"a"_s, 40).size(), 40);
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status = 'done'"_s), 40, 20000);
    QCOMPARE(m_queue->insert(u"idle7"_s, 3).size(), 3);
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status = 'done'"_s), 43, 10000);

    static const QRegularExpression roundLine(u"round \\d+ claimed (\\d+) from (\\d+) stages"_s);
    int claimingRounds = 0, wideRounds = 0;
    for (auto it = roundLine.globalMatch(daemon.log()); it.hasNext();) {
        const auto match = it.next();
        claimingRounds += match.captured(1).toInt() > 0 ? 1 : 0;
        // The first walk of every stage, at start, is the only wide one.
        wideRounds += match.captured(2).toInt() > 1 ? 1 : 0;
    }
    QVERIFY2(claimingRounds >= 11, qPrintable(daemon.log()));
    QVERIFY2(wideRounds <= 1, qPrintable(u"%1 rounds walked more than one stage"_s.arg(wideRounds)));
    QCOMPARE(daemon.terminate(), 0);
}

QTEST_GUILESS_MAIN(tst_ClaimNothingMissed)
#include "tst_claimnothingmissed.moc"
