// SPDX-License-Identifier: AGPL-3.0-or-later
// Losing the database (doc/pepsi-dispatch.rst): losing a database connection never makes the
// daemon exit and never lets a second dispatcher in while this one runs
// workers. An operator ends the dispatcher's sessions with
// pg_terminate_backend (each connection, then all at once) while a --standby
// waits: the original notices at once, keeps its lock, LISTENs again and
// picks up new rows without the heartbeat; the standby never starts a
// worker. A config_changed sent while the dispatcher cannot connect is not
// lost, and one that does not parse stops it as it would have at once; one
// it cannot read when it is back (locked) is read again while it serves.
// Real daemons, real fake workers, real PostgreSQL.
#include "daemonprocess.h"
#include "daemontest.h"
#include "db/database.h"
#include "sampler.h"

#include <QElapsedTimer>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTest>

#include <memory>

using namespace Qt::StringLiterals;

class tst_ConnectionLoss : public DaemonTest
{
    Q_OBJECT

private Q_SLOTS:
    void terminateBackends_data();
    void terminateBackends();
    void lockTakenWhileReconnecting();
    void overlayChangedWhileDisconnected();
    void unparsableOverlayWhileDisconnected();
    void overlayLockedAtReconnect();

private:
    std::unique_ptr<DaemonProcess> newDaemon(const QString &pollInterval = u"60 s"_s);
    // The backends of the daemon with this pid, by what they do.
    QString backendsOf(qint64 daemonPid, const QString &which);
    // The pid in the application_name of whoever holds the dispatcher lock; 0: nobody.
    qint64 lockHolderPid();
    // Sessions the server started on the test database so far (pg_stat_database).
    qint64 sessionsStarted();
    // The last "database connection restored after N ms" -> N; -1 without such a line.
    static qint64 reconnectMs(DaemonProcess &daemon);
};

std::unique_ptr<DaemonProcess> tst_ConnectionLoss::newDaemon(const QString &pollInterval)
{
    auto daemon = std::make_unique<DaemonProcess>(m_db->uri());
    // Only the dispatcher's own wakes may pick up rows in these tests.
    daemon->setOption(u"POLL_INTERVAL"_s, pollInterval);
    daemon->addStage(u"s"_s, DaemonProcess::fakeWorker());
    return daemon;
}

QString tst_ConnectionLoss::backendsOf(qint64 daemonPid, const QString &which)
{
    // The queue connection holds the advisory lock; the other one LISTENs.
    const QString mine = u"a.application_name LIKE 'pepsi-dispatch % pid %1 %'"_s.arg(daemonPid);
    const QString lockHolder = u"EXISTS (SELECT 1 FROM pg_locks l WHERE l.pid = a.pid AND l.locktype = 'advisory' "
                               "AND l.granted)"_s;
    QString condition = mine;
    if (which == u"queue")
        condition += u" AND "_s + lockHolder;
    else if (which == u"listen")
        condition += u" AND NOT "_s + lockHolder;
    return u"SELECT pid FROM pg_stat_activity a WHERE "_s + condition;
}

qint64 tst_ConnectionLoss::lockHolderPid()
{
    const QString name =
        m_queue->text(u"SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
                      "WHERE l.locktype = 'advisory' AND l.granted AND l.objid = 1885696115 AND l.database = "
                      "(SELECT oid FROM pg_database WHERE datname = current_database())"_s);
    const QRegularExpressionMatch match = QRegularExpression(u" pid ([0-9]+) "_s).match(name);
    return match.hasMatch() ? match.captured(1).toLongLong() : 0;
}

qint64 tst_ConnectionLoss::sessionsStarted()
{
    return m_queue->scalar(u"SELECT sessions FROM pg_stat_database WHERE datname = current_database()"_s);
}

qint64 tst_ConnectionLoss::reconnectMs(DaemonProcess &daemon)
{
    qint64 ms = -1;
    QRegularExpressionMatchIterator matches =
        QRegularExpression(u"database connection restored after ([0-9]+) ms"_s).globalMatch(daemon.log());
    while (matches.hasNext())
        ms = matches.next().captured(1).toLongLong();
    return ms;
}

void tst_ConnectionLoss::terminateBackends_data()
{
    QTest::addColumn<QString>("which");
    QTest::addColumn<int>("backends");
    QTest::newRow("queue connection (holds the lock)") << u"queue"_s << 1;
    QTest::newRow("LISTEN connection") << u"listen"_s << 1;
    QTest::newRow("all at once") << u"all"_s << 2;
}

void tst_ConnectionLoss::terminateBackends()
{
    QFETCH(QString, which);
    QFETCH(int, backends);
    auto original = newDaemon();
    QVERIFY(original->start());
    QVERIFY2(original->waitForReady(), qPrintable(original->log()));
    auto standby = newDaemon();
    QVERIFY(standby->start({u"--standby"_s}));
    QVERIFY2(standby->waitForLog(QRegularExpression(u"standby: waiting"_s)), qPrintable(standby->log()));
    QCOMPARE(lockHolderPid(), original->pid());

    qsizetype standbyWorkers = 0;
    Sampler sampler([&] { standbyWorkers = std::max(standbyWorkers, standby->workerPids().size()); });

    // Three times in a row, with work in flight each time: a standby that
    // looks while the original reconnects must leave it its lock.
    int done = 0;
    for (int turn = 1; turn <= 3; ++turn) {
        QCOMPARE(m_queue->insert(u"s"_s, 20, {{u"s"_s, u"slow:50"_s}}).size(), 20);
        QTRY_VERIFY_WITH_TIMEOUT(m_queue->count(u"status = 'done'"_s) >= done + 2, 10000);
        qInfo("%s, turn %d: backends of the dispatcher: %s", qPrintable(which), turn,
              qPrintable(m_queue->text(u"SELECT string_agg(concat_ws(' ', a.pid, CASE WHEN EXISTS (SELECT 1 FROM "
                                       "pg_locks l WHERE l.pid = a.pid AND l.locktype = 'advisory') THEN 'lock' END, "
                                       "left(a.query, 30)), '; ') FROM pg_stat_activity a WHERE a.application_name "
                                       "LIKE 'pepsi-dispatch % pid %1 %'"_s.arg(original->pid()))));
        // Picked once, then ended in one statement.
        const QString victims = m_queue->text(u"SELECT string_agg(pid::text, ',') FROM ("_s
                                              + backendsOf(original->pid(), which) + u") v"_s);
        QVERIFY2(victims.split(u',').size() == backends,
                 qPrintable(victims + u": "_s
                            + m_queue->text(u"SELECT string_agg(concat_ws(' ', pid, application_name, state, "
                                            "backend_start, query), '; ') FROM pg_stat_activity"_s)));
        QCOMPARE(m_queue->scalar(
                     u"SELECT count(*) FROM unnest('{%1}'::int[]) p WHERE pg_terminate_backend(p)"_s.arg(victims)),
                 qint64(backends));
        QTRY_COMPARE_WITH_TIMEOUT(original->countLog(QRegularExpression(u"database connection restored after"_s)), turn,
                                  5000);
        qInfo("%s, turn %d: reconnected in %lld ms", qPrintable(which), turn, reconnectMs(*original));
        QCOMPARE(lockHolderPid(), original->pid());

        // New rows, no heartbeat for a minute: the new LISTEN must hear them.
        QElapsedTimer clock;
        clock.start();
        QCOMPARE(m_queue->insert(u"s"_s, 20).size(), 20);
        done += 40;
        QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status = 'done'"_s), done, 5000);
        qInfo("%s, turn %d: 20 new rows done %lld ms after the insert", qPrintable(which), turn, clock.elapsed());
    }
    // A standby takes a free lock only when it saw it free twice in a row:
    // stay until it has looked twice more (each look is a session of its own
    // that it closes again), so that a lock it saw free at the last outage
    // would be taken by now.
    const qint64 sessions = sessionsStarted();
    QVERIFY(sessions >= 0);
    QTRY_VERIFY_WITH_TIMEOUT(sessionsStarted() >= sessions + 2, 10000);
    sampler.take();

    QVERIFY(original->isRunning());
    QCOMPARE(lockHolderPid(), original->pid());
    QCOMPARE(standbyWorkers, qsizetype(0));
    QVERIFY(standby->isRunning());
    QVERIFY2(!standby->log().contains(u"took over"_s) && !standby->log().contains(u"listening"_s),
             qPrintable(standby->log()));
    for (const QueueRow &row : m_queue->rows())
        QVERIFY2(row.status == u"done"_s && !row.dispatchError && row.runs(u"s"_s) == 1, qPrintable(row.describe()));
    QTRY_COMPARE(original->countLog(QRegularExpression(u"^WARNING pepsi.dispatch.store: database connection lost"_s)),
                 3);
    // Noticed on the connection that was ended (the queue connection may
    // also show it by a failed statement first).
    const int onListen = original->countLog(QRegularExpression(u"connection lost: .*LISTEN connection"_s));
    if (which == u"listen")
        QCOMPARE(onListen, 3);
    else if (which == u"queue")
        QCOMPARE(onListen, 0);

    QCOMPARE(original->terminate(), 0);
    // Now, and only now, the standby takes over.
    QVERIFY2(standby->waitForReady(10000), qPrintable(standby->log()));
    QCOMPARE(standby->terminate(), 0);
}

// The session holding the lock ends and, before the dispatcher is back,
// another session takes the lock. From that moment the dispatcher must not
// claim (the rows are not its to hand out): it stops its workers and exits 1.
// Today the lock sat on the LISTEN connection while the queue connection
// went on claiming.
void tst_ConnectionLoss::lockTakenWhileReconnecting()
{
    auto daemon = newDaemon();
    QVERIFY(daemon->start());
    QVERIFY2(daemon->waitForReady(), qPrintable(daemon->log()));
    // Their answers wake the dispatcher for claim rounds while it is away.
    QCOMPARE(m_queue->insert(u"s"_s, 8, {{u"s"_s, u"slow:500"_s}}).size(), 8);
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status = 'running'"_s), 8, 5000);
    // The claim is visible here once it commits, a moment before the daemon
    // reads its result and forks the workers (a CI run under ASan looked in
    // that moment): wait for them.
    QList<qint64> workers;
    QTRY_VERIFY_WITH_TIMEOUT(!(workers = daemon->workerPids()).isEmpty(), 5000);

    // One statement: the lock holder ends, and this session waits for the
    // lock and takes it, before the dispatcher can reconnect.
    QSqlDatabase other = m_db->newConnection(u"other"_s);
    QSqlQuery take(other);
    QVERIFY(take.exec(u"SELECT pg_terminate_backend(pid), pg_advisory_lock(1885696115) FROM ("_s
                      + backendsOf(daemon->pid(), u"queue"_s) + u") v"_s));
    const QList<qint64> fresh = m_queue->insert(u"s"_s, 10);
    QCOMPARE(fresh.size(), 10);

    QCOMPARE(daemon->waitForExit(10000), 1);
    QVERIFY2(daemon->log().contains(u"another dispatcher took over"_s), qPrintable(daemon->log()));
    // Not one of the new rows was claimed without the lock.
    QCOMPARE(m_queue->count(u"workqueue_id >= %1 AND status = 'pending' AND claims = 0"_s.arg(fresh.first())), 10);
    for (const qint64 pid : workers)
        QTRY_VERIFY_WITH_TIMEOUT(DaemonProcess::isGone(pid), 3000);
    QVERIFY(take.exec(u"SELECT pg_advisory_unlock(1885696115)"_s));
}

// Connections are refused while the overlay gains a stage: its NOTIFY reaches
// nobody. After the reconnect the dispatcher reads the overlay anyway.
void tst_ConnectionLoss::overlayChangedWhileDisconnected()
{
    // A heartbeat every second: even a dispatcher that notices the outage
    // only then must be back and have reloaded within the waits below.
    auto daemon = newDaemon(u"1 s"_s);
    QVERIFY(daemon->start());
    QVERIFY2(daemon->waitForReady(), qPrintable(daemon->log()));

    QVERIFY(m_db->allowConnections(false));
    const QString victims = backendsOf(daemon->pid(), u"all"_s);
    QCOMPARE(m_queue->scalar(u"SELECT count(*) FROM ("_s + victims + u") v WHERE pg_terminate_backend(v.pid)"_s),
             qint64(2));
    QVERIFY2(daemon->waitForLog(QRegularExpression(u"database connection lost"_s), 5000), qPrintable(daemon->log()));

    QVERIFY(m_db->exec(u"INSERT INTO config_overlay (section, option, value) VALUES ('stage-t', 'PROGRAM', '%1')"_s.arg(
        DaemonProcess::fakeWorker())));
    const QList<qint64> ids = m_queue->insert(u"t"_s, 3);
    QCOMPARE(ids.size(), 3);
    // Let it fail to connect a few times (each failed try is a DEBUG line or,
    // spaced out, an INFO one).
    const QRegularExpression failedTry(u"reconnect failed:|database still unreachable after"_s);
    QTRY_VERIFY_WITH_TIMEOUT(daemon->countLog(failedTry) >= 3, 10000);
    QVERIFY(!daemon->log().contains(u"pipeline reloaded"_s));
    QElapsedTimer clock;
    clock.start();
    QVERIFY(m_db->allowConnections(true));

    QVERIFY2(
        daemon->waitForLog(QRegularExpression(u"pipeline reloaded \\(reconnect\\): added t; stages: s t"_s), 15000),
        qPrintable(daemon->log()));
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"stage = 't' AND status = 'done'"_s), 3, 5000);
    qInfo("down %lld ms in all; stage t (from the overlay) done %lld ms after connections were allowed again",
          reconnectMs(*daemon), clock.elapsed());
    QVERIFY(daemon->isRunning());
    QCOMPARE(daemon->terminate(), 0);
}

// The overlay gains a cycle while connections are refused: back, the
// dispatcher reads it, refuses it and stops with exit 1, as it does when the
// notification arrives; it does not go on serving the old graph.
void tst_ConnectionLoss::unparsableOverlayWhileDisconnected()
{
    auto daemon = newDaemon(u"1 s"_s);
    daemon->addStage(u"u"_s, DaemonProcess::fakeWorker(), {{u"NEXT"_s, u"s"_s}});
    QVERIFY(daemon->start());
    QVERIFY2(daemon->waitForReady(), qPrintable(daemon->log()));
    // Workers still busy when it is back: the stop drains them first.
    QCOMPARE(m_queue->insert(u"s"_s, 2, {{u"s"_s, u"slow:3000"_s}}).size(), 2);
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status = 'running'"_s), 2, 5000);

    QVERIFY(m_db->allowConnections(false));
    const QString victims = backendsOf(daemon->pid(), u"all"_s);
    QCOMPARE(m_queue->scalar(u"SELECT count(*) FROM ("_s + victims + u") v WHERE pg_terminate_backend(v.pid)"_s),
             qint64(2));
    QVERIFY2(daemon->waitForLog(QRegularExpression(u"database connection lost"_s), 5000), qPrintable(daemon->log()));
    QVERIFY(m_db->exec(u"INSERT INTO config_overlay (section, option, value) VALUES ('stage-s', 'NEXT', 'u')"_s));
    QVERIFY(m_db->allowConnections(true));

    QCOMPARE(daemon->waitForExit(15000), 1);
    QVERIFY2(daemon->log().contains(QRegularExpression(u"does not parse: .*cycle"_s)), qPrintable(daemon->log()));
}

// Back after an outage, the dispatcher cannot read config_overlay: a session
// holds the table locked, and the read ends at DB_LOCK_TIMEOUT on a live
// connection. It serves the graph it had meanwhile (before, it stayed
// reconnecting and claimed nothing for as long as it ran) and reads the
// overlay again once the lock is gone.
void tst_ConnectionLoss::overlayLockedAtReconnect()
{
    auto daemon = newDaemon(u"1 s"_s);
    QVERIFY(daemon->start());
    QVERIFY2(daemon->waitForReady(), qPrintable(daemon->log()));

    // The lock holder also adds a stage, which the dispatcher sees once it commits.
    QSqlDatabase other = m_db->newConnection(u"locker"_s);
    QVERIFY(other.transaction());
    QSqlQuery lock(other);
    QVERIFY2(lock.exec(u"LOCK TABLE config_overlay IN ACCESS EXCLUSIVE MODE"_s), qPrintable(lock.lastError().text()));
    QVERIFY2(lock.exec(u"INSERT INTO config_overlay (section, option, value) VALUES ('stage-t', 'PROGRAM', '%1')"_s.arg(
                 DaemonProcess::fakeWorker())),
             qPrintable(lock.lastError().text()));

    QVERIFY(m_db->allowConnections(false));
    const QString victims = backendsOf(daemon->pid(), u"all"_s);
    QCOMPARE(m_queue->scalar(u"SELECT count(*) FROM ("_s + victims + u") v WHERE pg_terminate_backend(v.pid)"_s),
             qint64(2));
    QVERIFY2(daemon->waitForLog(QRegularExpression(u"database connection lost"_s), 5000), qPrintable(daemon->log()));
    const QList<qint64> ids = m_queue->insert(u"s"_s, 3);
    QCOMPARE(ids.size(), 3);
    QVERIFY(m_db->allowConnections(true));

    QVERIFY2(daemon->waitForLog(QRegularExpression(u"reading config_overlay.*lock timeout"_s), 15000),
             qPrintable(daemon->log()));
    // Claimed: the workers that run them read the overlay too, and wait for the lock.
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"stage = 's' AND status = 'running'"_s), 3, 10000);
    QVERIFY(!daemon->log().contains(u"pipeline reloaded"_s));

    QVERIFY(other.commit());
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"stage = 's' AND status = 'done'"_s), 3, 10000);
    QVERIFY2(daemon->waitForLog(QRegularExpression(u"pipeline reloaded \\(\\w+\\): added t; stages: s t"_s), 15000),
             qPrintable(daemon->log()));
    QCOMPARE(m_queue->insert(u"t"_s, 2).size(), 2);
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"stage = 't' AND status = 'done'"_s), 2, 5000);
    QCOMPARE(daemon->terminate(), 0);
}

QTEST_GUILESS_MAIN(tst_ConnectionLoss)
#include "tst_connectionloss.moc"
