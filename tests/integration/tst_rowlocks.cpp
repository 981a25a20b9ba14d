// SPDX-License-Identifier: AGPL-3.0-or-later
// Bounded waits (doc/pepsi-dispatch.rst): a row lock held by another session (an operator's open
// transaction) stalls nothing else. The claim and the resume of paused rows
// skip a locked row and take it once the lock goes; a write the dispatcher
// must make to a locked row waits at most lock_timeout per try and is made
// once the lock goes. Real daemon, real fake workers, real PostgreSQL.
#include "daemonprocess.h"
#include "daemonstart.h"
#include "databasefixture.h"

#include <QElapsedTimer>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTest>

#include <memory>

using namespace Qt::StringLiterals;

class tst_RowLocks : public QObject, private DatabaseFixture
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void lockedRowStallsNothing_data();
    void lockedRowStallsNothing();
    void lockedRunningRowIsWrittenLater();

private:
    // Stages a and b of the fake worker; heartbeat far away, so only the
    // dispatcher's own wakes can take a row once its lock goes.
    std::unique_ptr<DaemonProcess> startDaemon(const DaemonProcess::Options &dispatchOptions = {});
    // An open transaction on a connection of its own holding FOR UPDATE on `id`.
    bool lockRow(qint64 id);
    // 300 messages queued at stage b are all done within 20 s while a row
    // of stage a in `lockedStatus` is locked; how many were, and how fast, logged.
    bool stageBFlows(const QString &lockedStatus);

    QSqlDatabase m_locker;
};

void tst_RowLocks::initTestCase() { PEPSI_REQUIRE_BINARIES(); }

void tst_RowLocks::init() { PEPSI_INIT_DATABASE_FIXTURE(); }

void tst_RowLocks::cleanup()
{
    if (m_locker.isOpen())
        m_locker.rollback();
    m_locker = QSqlDatabase();
    resetDatabase();
}

std::unique_ptr<DaemonProcess> tst_RowLocks::startDaemon(const DaemonProcess::Options &dispatchOptions)
{
    auto daemon = std::make_unique<DaemonProcess>(m_db->uri());
    daemon->setOption(u"POLL_INTERVAL"_s, u"60 s"_s);
    for (const auto &[option, value] : dispatchOptions)
        daemon->setOption(option, value);
    daemon->addStage(u"a"_s, DaemonProcess::fakeWorker());
    daemon->addStage(u"b"_s, DaemonProcess::fakeWorker());
    if (!startReady(*daemon))
        return nullptr;
    return daemon;
}

bool tst_RowLocks::lockRow(qint64 id)
{
    m_locker = m_db->newConnection(u"locker"_s);
    if (!m_locker.isOpen() || !m_locker.transaction())
        return false;
    QSqlQuery lock(m_locker);
    return lock.exec(u"SELECT 1 FROM workqueue WHERE workqueue_id = %1 FOR UPDATE"_s.arg(id)) && lock.next();
}

bool tst_RowLocks::stageBFlows(const QString &lockedStatus)
{
    QElapsedTimer clock;
    clock.start();
    if (m_queue->insert(u"b"_s, 300).size() != 300)
        return false;
    const auto doneAtB = [this] { return m_queue->count(u"stage = 'b' AND status = 'done'"_s); };
    const bool allDone = QTest::qWaitFor([&] { return doneAtB() == 300; }, 20000);
    qInfo("%d of 300 messages of stage b finished in %lld ms while a %s row of stage a was locked", doneAtB(),
          clock.elapsed(), qPrintable(lockedStatus));
    return allDone;
}

void tst_RowLocks::lockedRowStallsNothing_data()
{
    QTest::addColumn<QString>("status");
    QTest::newRow("pending") << u"pending"_s;
    QTest::newRow("paused") << u"paused"_s;
}

// Today's claim round waited on the locked row with the whole event loop: 0
// of 300 messages of stage b finished while the lock was held.
void tst_RowLocks::lockedRowStallsNothing()
{
    QFETCH(QString, status);
    // Locked before the daemon starts, so its very first round meets it; a
    // paused row is already due.
    const qint64 locked = m_queue->scalar(
        u"INSERT INTO workqueue (stage, status, timeout) VALUES ('a', '%1', "
        "CASE WHEN '%1' = 'paused' THEN now() - interval '1 s' END) RETURNING workqueue_id"_s.arg(status));
    QVERIFY(locked > 0);
    QVERIFY(lockRow(locked));
    auto daemon = startDaemon();
    QVERIFY(daemon);

    QVERIFY(stageBFlows(status));
    // Skipped, not taken: still where the operator's transaction found it.
    QCOMPARE(m_queue->row(locked)->status, status);
    QVERIFY(daemon->isRunning());

    QVERIFY(m_locker.rollback());
    QElapsedTimer clock;
    clock.start();
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->row(locked)->status, u"done"_s, 5000);
    qInfo("the %s row was done %lld ms after the lock went (heartbeat 60 s)", qPrintable(status), clock.elapsed());
    const auto row = m_queue->row(locked);
    QVERIFY2(!row->dispatchError && row->runs(u"a"_s) == 1, qPrintable(row->describe()));
    QCOMPARE(daemon->terminate(), 0);
}

// The watchdog's timeout must be written to a row an operator holds locked.
// Each try waits at most lock_timeout (DB_LOCK_TIMEOUT), tries back off, the other stage keeps
// flowing, and the outcome is written once the lock goes. Today the
// settlement waited on the lock with the whole event loop.
void tst_RowLocks::lockedRunningRowIsWrittenLater()
{
    auto daemon = startDaemon({{u"MAX_RUNTIME"_s, u"1 s"_s}, {u"DB_LOCK_TIMEOUT"_s, u"300 ms"_s}});
    QVERIFY(daemon);
    const QList<qint64> hung = m_queue->insertModes(u"a"_s, {u"hang"_s});
    QCOMPARE(hung.size(), 1);
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->row(hung[0])->status, u"running"_s, 5000);
    QVERIFY(lockRow(hung[0]));

    // The watchdog fires a second after the id reached the worker.
    QVERIFY2(daemon->waitForLog(QRegularExpression(u"writing message outcomes failed: .*lock timeout"_s), 10000),
             qPrintable(daemon->log()));
    QVERIFY(daemon->isRunning());
    QVERIFY(stageBFlows(u"running"_s));
    QCOMPARE(m_queue->row(hung[0])->status, u"running"_s);

    QVERIFY(m_locker.rollback());
    QElapsedTimer clock;
    clock.start();
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->row(hung[0])->status, u"timeout"_s, 20000);
    qInfo("the timeout was written %lld ms after the lock went", clock.elapsed());
    QCOMPARE(m_queue->row(hung[0])->dispatchError, u"timeout after 1 s"_s);
    QCOMPARE(daemon->terminate(), 0);
}

QTEST_GUILESS_MAIN(tst_RowLocks)
#include "tst_rowlocks.moc"
