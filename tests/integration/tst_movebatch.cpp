// SPDX-License-Identifier: AGPL-3.0-or-later
// The stage kit's statements (doc/stage-programs.rst, combineMoves): PgConnection prepares each SQL text
// once per session, keeps a bounded number, and prepares again after a real
// backend kill and reset; MoveBatch writes a batch's moves in one statement
// per shape and tells which ids its guard did not match. A real database, the
// kit's own classes in the test process.
#include "movebatch.h"
#include "pgconnection.h"
#include "testdatabase.h"
#include "workerharness.h"

#include <QJsonObject>
#include <QSqlQuery>
#include <QTest>

#include <memory>

using namespace Qt::StringLiterals;
using namespace pepsi::stagekit;

class tst_MoveBatch : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void preparesEachTextOnce();
    void keepsABoundedNumberOfStatements();
    void preparesAgainAfterABackendKill();
    void combinedMovesAnswerPerId_data();
    void combinedMovesAnswerPerId();
    void uncombinedMovesAreWrittenAtOnce();
    void aFailedStatementNamesItsIds();
    void looksUpEachIdByIndex();

private:
    // Executions of the statement prepared for `sql` in the kit's session.
    qint64 executions(const QByteArray &sql);
    qint64 backendPid();
    qint64 updateStatements();

    std::unique_ptr<TestDatabase> m_db;
    // Inserts rows as the dispatcher's claim leaves them (running) and reads them back.
    std::unique_ptr<WorkerHarness> m_harness;
    std::unique_ptr<PgConnection> m_connection;
};

void tst_MoveBatch::initTestCase()
{
    PEPSI_REQUIRE_DATABASE_IN(m_db, "movebatch");
    m_harness = std::make_unique<WorkerHarness>(*m_db);
}

void tst_MoveBatch::init()
{
    QVERIFY(m_db->exec(u"TRUNCATE workqueue"_s));
    // Counts the UPDATE statements on workqueue, not the rows they change.
    QVERIFY(m_db->exec(u"CREATE TABLE IF NOT EXISTS test_update_statements (n int)"_s));
    QVERIFY(m_db->exec(u"TRUNCATE test_update_statements"_s));
    QVERIFY(m_db->exec(u"CREATE OR REPLACE FUNCTION test_count_update() RETURNS trigger LANGUAGE plpgsql AS "
                       u"$$BEGIN INSERT INTO test_update_statements VALUES (1); RETURN NULL; END$$"_s));
    QVERIFY(m_db->exec(u"CREATE OR REPLACE TRIGGER test_count_update AFTER UPDATE ON workqueue "
                       u"FOR EACH STATEMENT EXECUTE FUNCTION test_count_update()"_s));
    m_connection = std::make_unique<PgConnection>();
    QByteArray error;
    QVERIFY2(m_connection->open(m_db->uri().toUtf8(), "tst_movebatch", &error), error.constData());
}

void tst_MoveBatch::cleanup()
{
    m_connection.reset();
    QVERIFY(m_db->exec(u"DROP TRIGGER IF EXISTS test_count_update ON workqueue"_s));
}

qint64 tst_MoveBatch::executions(const QByteArray &sql)
{
    const QueryResult result = m_connection->exec(
        "SELECT generic_plans + custom_plans FROM pg_prepared_statements WHERE statement = $1", {sql});
    if (!result.ok() || result.rows() != 1)
        return -1;
    return result.value(0, 0).toLongLong();
}

qint64 tst_MoveBatch::backendPid()
{
    const QueryResult result = m_connection->exec("SELECT pg_backend_pid()", {});
    return result.ok() ? result.value(0, 0).toLongLong() : -1;
}

qint64 tst_MoveBatch::updateStatements() { return m_db->scalar(u"SELECT count(*) FROM test_update_statements"_s); }

void tst_MoveBatch::preparesEachTextOnce()
{
    const QByteArray sql = "SELECT $1::int + 1";
    for (int i = 0; i < 3; ++i) {
        const QueryResult result = m_connection->exec(sql, {QByteArray::number(i)});
        QVERIFY2(result.ok(), result.error.reason.constData());
        QCOMPARE(result.value(0, 0), QByteArray::number(i + 1));
    }
    QCOMPARE(executions(sql), qint64(3));
    QCOMPARE(m_connection->preparedCount(), qsizetype(2)); // sql and the question
}

void tst_MoveBatch::keepsABoundedNumberOfStatements()
{
    const qsizetype max = PgConnection::MaxStatements;
    for (qsizetype i = 0; i < max + 10; ++i) {
        const QueryResult result = m_connection->exec("SELECT $1::int + " + QByteArray::number(i), {"1"});
        QVERIFY2(result.ok(), result.error.reason.constData());
    }
    QCOMPARE(m_connection->preparedCount(), max);
    // the server holds what the connection names, the count's own statement among them
    const QueryResult held = m_connection->exec("SELECT count(*) FROM pg_prepared_statements", {});
    QVERIFY2(held.ok(), held.error.reason.constData());
    QCOMPARE(held.value(0, 0).toLongLong(), qint64(max));
    // the most recent ones are still prepared and still run
    const QByteArray recent = "SELECT $1::int + " + QByteArray::number(max + 9);
    QCOMPARE(m_connection->exec(recent, {"1"}).value(0, 0), QByteArray::number(max + 10));
    QCOMPARE(executions(recent), qint64(2));
}

void tst_MoveBatch::preparesAgainAfterABackendKill()
{
    const qint64 id = m_harness->insertRow(u"first"_s);
    const QByteArray sql = "UPDATE workqueue SET state = jsonb_set(state, '{n}', to_jsonb($2::int))"
                           " WHERE workqueue_id = $1";
    QVERIFY(m_connection->exec(sql, {QByteArray::number(id), "1"}).ok());
    QCOMPARE(executions(sql), qint64(1));
    const qint64 before = backendPid();
    QVERIFY(before > 0);

    // with a timeout: returns once the backend is gone
    QCOMPARE(m_db->scalar(u"SELECT count(*) FILTER (WHERE pg_terminate_backend(pid, 10000)) FROM pg_stat_activity "
                          u"WHERE application_name = 'tst_movebatch'"_s),
             qint64(1));
    const QueryResult lost = m_connection->exec(sql, {QByteArray::number(id), "2"});
    QCOMPARE(lost.error.code, Outcome::TryLater);
    QVERIFY2(lost.error.reason.startsWith("database connection lost: "), lost.error.reason.constData());
    QVERIFY(!m_connection->isUsable());

    QByteArray error;
    QVERIFY2(m_connection->reset(&error), error.constData());
    QCOMPARE(m_connection->preparedCount(), qsizetype(0));
    const QueryResult again = m_connection->exec(sql, {QByteArray::number(id), "3"});
    QVERIFY2(again.ok(), again.error.reason.constData());
    QCOMPARE(again.affectedRows(), qint64(1));
    QVERIFY(backendPid() != before);
    // prepared afresh in the new session: this is its first execution there
    QCOMPARE(executions(sql), qint64(1));
    QCOMPARE(m_harness->row(id).value(u"state"_s).toJsonObject().value(u"n"_s).toInt(), 3);
}

void tst_MoveBatch::combinedMovesAnswerPerId_data()
{
    QTest::addColumn<bool>("withShapes");
    QTest::newRow("one shape: one statement in autocommit") << false;
    QTest::newRow("three shapes: three statements, one transaction") << true;
}

void tst_MoveBatch::combinedMovesAnswerPerId()
{
    QFETCH(bool, withShapes);

    const qint64 a = m_harness->insertRow(u"first"_s);
    const qint64 gone = m_harness->insertRow(u"first"_s, u"pending"_s); // no longer this stage's
    const qint64 b = m_harness->insertRow(u"first"_s);
    const qint64 elsewhere = m_harness->insertRow(u"second"_s); // running, but at another stage
    const qint64 c = m_harness->insertRow(u"first"_s);

    MoveBatch batch(*m_connection);
    QVERIFY(batch.open(true).isOk());
    const auto move = [&](qint64 id, const char *next, const char *status, const StateUpdate &extra = {}) {
        QVERIFY(batch.defer({id, "first", next, status, extra}));
    };
    const StateUpdate setDeep = withShapes ? StateUpdate().set({u"x"_s, u"y"_s}, u"quote \" and \\"_s) : StateUpdate();
    const StateUpdate count = withShapes ? StateUpdate().increment({u"n"_s}, 2) : StateUpdate();
    move(a, "second", "pending", setDeep);
    move(gone, "second", "pending", setDeep);
    move(b, "first", "done", count);
    move(elsewhere, "third", "pending");
    move(c, "first", "failed");
    // a second move of an id is not combined with the first
    QVERIFY(!batch.defer({a, "first", "second", "pending", {}}));
    QCOMPARE(updateStatements(), qint64(0)); // nothing written before finish()

    const Outcome finished = batch.finish();
    QVERIFY2(finished.isOk(), finished.reason.constData());
    QCOMPARE(updateStatements(), qint64(withShapes ? 3 : 1));

    QCOMPARE(batch.missedAt(gone), QByteArray("first"));
    QCOMPARE(batch.missedAt(elsewhere), QByteArray("first"));
    for (qint64 id : {a, b, c})
        QCOMPARE(batch.missedAt(id), QByteArray());
    QCOMPARE(m_harness->place(a), u"second pending"_s);
    QCOMPARE(m_harness->row(b).value(u"status"_s).toString(), u"done"_s);
    QCOMPARE(m_harness->row(c).value(u"status"_s).toString(), u"failed"_s);
    QCOMPARE(m_harness->place(gone), u"first pending"_s);
    QCOMPARE(m_harness->place(elsewhere), u"second running"_s);
    if (withShapes) {
        QCOMPARE(m_harness->row(a).value(u"state"_s).toJsonObject().value(u"x"_s).toObject().value(u"y"_s).toString(),
                 u"quote \" and \\"_s);
        QCOMPARE(m_harness->row(b).value(u"state"_s).toJsonObject().value(u"n"_s).toInt(), 2);
    }
    // one commit for all
    QCOMPARE(m_harness->row(a).value(u"xmin"_s), m_harness->row(b).value(u"xmin"_s));
    QCOMPARE(m_harness->row(b).value(u"xmin"_s), m_harness->row(c).value(u"xmin"_s));
}

void tst_MoveBatch::uncombinedMovesAreWrittenAtOnce()
{
    MoveBatch batch(*m_connection);
    QVERIFY(batch.open(false).isOk());
    QCOMPARE(PQtransactionStatus(m_connection->handle()), PQTRANS_INTRANS);
    QVERIFY(!batch.defer({m_harness->insertRow(u"first"_s), "first", "second", "pending", {}}));
    QVERIFY(batch.finish().isOk());
    QCOMPARE(PQtransactionStatus(m_connection->handle()), PQTRANS_IDLE);
}

void tst_MoveBatch::aFailedStatementNamesItsIds()
{
    const qint64 a = m_harness->insertRow(u"first"_s);
    const qint64 b = m_harness->insertRow(u"first"_s);
    MoveBatch batch(*m_connection);
    QVERIFY(batch.open(true).isOk());
    QVERIFY(batch.defer({a, "first", "second", "pending", {}}));
    QVERIFY(batch.defer({b, "first", "second", "no such status", {}}));
    const Outcome failed = batch.finish();
    QCOMPARE(failed.code, 1);
    QVERIFY2(failed.reason.contains("workqueue_status"), failed.reason.constData());
    QVERIFY(batch.failedForOthers(a));
    QVERIFY(batch.failedForOthers(b));
    QCOMPARE(m_harness->row(a).value(u"status"_s).toString(), u"running"_s); // nothing of it committed
    QCOMPARE(PQtransactionStatus(m_connection->handle()), PQTRANS_IDLE);

    // alone, the same failure is known to be its own
    QVERIFY(batch.open(true).isOk());
    QVERIFY(batch.defer({b, "first", "second", "no such status", {}}));
    QCOMPARE(batch.finish().code, 1);
    QVERIFY(!batch.failedForOthers(b));
}

void tst_MoveBatch::looksUpEachIdByIndex()
{
    // A table in use: finished rows and a few running ones, analyzed.
    QVERIFY(
        m_db->exec(u"INSERT INTO workqueue (stage, status) SELECT 'third', 'done' FROM generate_series(1, 5000)"_s));
    QVERIFY(
        m_db->exec(u"INSERT INTO workqueue (stage, status) SELECT 'first', 'running' FROM generate_series(1, 20)"_s));
    QVERIFY(m_db->exec(u"ANALYZE workqueue"_s));
    QSqlDatabase db = m_db->db();
    QSqlQuery q(db);
    QVERIFY(q.exec(u"PREPARE combined_moves AS "_s + QString::fromUtf8(MoveBatch::statementFor({}))));
    // the plan the kit's session settles on after five executions
    QVERIFY(q.exec(u"SET plan_cache_mode = force_generic_plan"_s));
    QVERIFY(
        q.exec(u"EXPLAIN EXECUTE combined_moves('{1,2}', '{first,first}', '{second,second}', '{pending,pending}')"_s));
    QString plan;
    while (q.next())
        plan += q.value(0).toString() + u'\n';
    QVERIFY(q.exec(u"RESET plan_cache_mode"_s));
    QVERIFY(q.exec(u"DEALLOCATE combined_moves"_s));
    QVERIFY2(plan.contains(u"Index Cond: (workqueue_id = ANY ($1))"_s), qPrintable(plan));
}

QTEST_GUILESS_MAIN(tst_MoveBatch)
#include "tst_movebatch.moc"
