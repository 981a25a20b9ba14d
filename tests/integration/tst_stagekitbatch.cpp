// SPDX-License-Identifier: AGPL-3.0-or-later
// The stage kit's commitBatches option (doc/stage-programs.rst): the ids a worker holds are
// committed in one transaction, answered in order after that commit, and a
// failing message isolates only itself. Real workers, a real database, the
// test playing the dispatcher.
#include "stagekittest.h"

#include <QRegularExpression>
#include <QSqlQuery>
#include <QTest>

#include <memory>

using namespace Qt::StringLiterals;

class tst_StageKitBatch : public StageKitTest
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void heldIdsShareOneTransaction_data();
    void heldIdsShareOneTransaction();
    void aFailureIsolatesItsOwnMessage_data();
    void aFailureIsolatesItsOwnMessage();
    void aFusedPassCommitsOnce();
    void lostConnectionIsTryLaterForTheBatch();
    void movesAreOneStatement_data();
    void movesAreOneStatement();
    void aMissedGuardFailsOnlyItsMessage_data();
    void aMissedGuardFailsOnlyItsMessage();
    void aFailingMoveFailsOnlyItsMessage_data();
    void aFailingMoveFailsOnlyItsMessage();

private:
    // The transaction that wrote each row's current version.
    QStringList writers(const QList<qint64> &ids);
    QByteArray line(const QList<qint64> &ids);
};

void tst_StageKitBatch::init()
{
    qputenv("PEPSI_EXAMPLE_COMMIT_BATCHES", "1");
    qputenv("PEPSI_FAKE_COMMIT_BATCHES", "1");
    StageKitTest::init();
}

void tst_StageKitBatch::cleanup()
{
    StageKitTest::cleanup();
    qunsetenv("PEPSI_EXAMPLE_COMMIT_BATCHES");
    qunsetenv("PEPSI_FAKE_COMMIT_BATCHES");
    qunsetenv("PEPSI_EXAMPLE_COMBINE_MOVES");
    qunsetenv("PEPSI_FAKE_COMBINE_MOVES");
    QVERIFY(m_db->exec(u"DROP TRIGGER IF EXISTS test_count_update ON workqueue"_s));
    QVERIFY(m_db->exec(u"DROP TRIGGER IF EXISTS test_refuse ON workqueue"_s));
}

QStringList tst_StageKitBatch::writers(const QList<qint64> &ids)
{
    QStringList xmins;
    for (qint64 id : ids) {
        QSqlQuery q(m_db->db());
        q.prepare(u"SELECT xmin::text FROM workqueue WHERE workqueue_id = :id"_s);
        q.bindValue(u":id"_s, id);
        if (q.exec() && q.next())
            xmins.append(q.value(0).toString());
    }
    return xmins;
}

QByteArray tst_StageKitBatch::line(const QList<qint64> &ids)
{
    QByteArray text;
    for (qint64 id : ids)
        text += QByteArray::number(id) + '\n';
    return text;
}

void tst_StageKitBatch::heldIdsShareOneTransaction_data()
{
    QTest::addColumn<QByteArray>("optIn");
    QTest::addColumn<bool>("oneTransaction");

    QTest::newRow("opted in") << QByteArray("1") << true;
    QTest::newRow("unset: the reference stage's default") << QByteArray() << true;
    QTest::newRow("opted out: autocommit") << QByteArray("0") << false;
}

void tst_StageKitBatch::heldIdsShareOneTransaction()
{
    QFETCH(QByteArray, optIn);
    QFETCH(bool, oneTransaction);

    if (optIn.isNull())
        qunsetenv("PEPSI_EXAMPLE_COMMIT_BATCHES");
    else
        qputenv("PEPSI_EXAMPLE_COMMIT_BATCHES", optIn);
    const QList<qint64> ids{m_harness->insertRow(u"first"_s), m_harness->insertRow(u"first"_s),
                            m_harness->insertRow(u"first"_s)};
    QProcess &worker = m_harness->start(WorkerHarness::Example, u"first"_s);
    QCOMPARE(WorkerHarness::exchange(worker, line(ids), 3), (QByteArrayList{"0", "0", "0"}));
    for (qint64 id : ids)
        QCOMPARE(m_harness->row(id).value(u"stage"_s).toString(), u"middle"_s);
    QStringList xmins = writers(ids);
    QCOMPARE(xmins.size(), 3);
    QCOMPARE(xmins.removeDuplicates() == 2, oneTransaction);
    QCOMPARE(WorkerHarness::finish(worker), u"exit 0"_s);
}

void tst_StageKitBatch::aFailureIsolatesItsOwnMessage_data()
{
    QTest::addColumn<QByteArray>("combine");
    QTest::newRow("moves written as made") << QByteArray("0");
    QTest::newRow("moves combined") << QByteArray("1");
}

void tst_StageKitBatch::aFailureIsolatesItsOwnMessage()
{
    QFETCH(QByteArray, combine);
    qputenv("PEPSI_FAKE_COMBINE_MOVES", combine);
    const auto fake = [this](const char *mode) {
        return m_harness->insertRow(u"fake"_s, u"running"_s,
                                    QJsonObject{{u"fake"_s, QJsonObject{{u"fake"_s, QString::fromLatin1(mode)}}}});
    };
    const qint64 before = fake("ok");
    const qint64 broken = fake("sql-error");
    const qint64 after = fake("ok");
    const qint64 failing = fake("fail:3");
    const qint64 later = fake("tempfail");
    const qint64 last = fake("ok");
    QProcess &worker = m_harness->start(WorkerHarness::Fake, u"fake"_s);

    const QByteArrayList answers =
        WorkerHarness::exchange(worker, line({before, broken, after, failing, later, last}), 6);
    QCOMPARE(answers.size(), 6);
    QCOMPARE(answers.at(0), "0");
    QVERIFY2(answers.at(1).startsWith("1 database error: ") && answers.at(1).contains("division by zero"),
             answers.at(1).constData());
    QCOMPARE(answers.mid(2), (QByteArrayList{"0", "3 fake failure", "75 fake try later", "0"}));

    // The one whose statement aborted the transaction wrote nothing; the one
    // before it ran again, but only its second run was committed.
    QCOMPARE(m_harness->place(broken), u"fake running"_s);
    QVERIFY(!m_harness->state(broken).contains(u"runs"_s));
    for (qint64 id : {before, after, last}) {
        QCOMPARE(m_harness->row(id).value(u"stage"_s).toString(), u"last"_s);
        QCOMPARE(m_harness->state(id)[u"runs"_s][u"fake"_s].toInt(), 1);
    }
    for (qint64 id : {failing, later})
        QCOMPARE(m_harness->row(id).value(u"status"_s).toString(), u"running"_s);
    // after the failure the rest went on in a transaction of their own
    const QStringList xmins = writers({before, after, last});
    QVERIFY2(xmins.at(0) != xmins.at(1), qPrintable(xmins.join(u' ')));
    QCOMPARE(xmins.at(1), xmins.at(2));
    QCOMPARE(WorkerHarness::finish(worker), u"exit 0"_s);
}

void tst_StageKitBatch::aFusedPassCommitsOnce()
{
    QCOMPARE(m_harness->exec(u"INSERT INTO config_overlay VALUES ('stage-middle', 'FUSE', 'YES'), "
                             u"('stage-last', 'FUSE', 'YES')"_s),
             QString());
    const QList<qint64> ids{m_harness->insertRow(u"first"_s), m_harness->insertRow(u"first"_s)};
    QProcess &worker = m_harness->start(WorkerHarness::Example, u"first"_s);
    const QByteArrayList answers = WorkerHarness::exchange(worker, line(ids), 2);
    QCOMPARE(answers.size(), 2);
    static const QRegularExpression fused(u"^0 \\+middle:\\d+ \\+last:\\d+$"_s);
    for (const QByteArray &answer : answers)
        QVERIFY2(fused.match(QString::fromUtf8(answer)).hasMatch(), answer.constData());
    for (qint64 id : ids)
        QCOMPARE(m_harness->row(id).value(u"status"_s).toString(), u"done"_s);
    // two messages, three stages each: one commit
    const QStringList xmins = writers(ids);
    QCOMPARE(xmins.size(), 2);
    QCOMPARE(xmins.at(0), xmins.at(1));
    QCOMPARE(WorkerHarness::finish(worker), u"exit 0"_s);
}

void tst_StageKitBatch::lostConnectionIsTryLaterForTheBatch()
{
    const qint64 a = m_harness->insertRow(u"first"_s);
    const QList<qint64> batch{m_harness->insertRow(u"first"_s), m_harness->insertRow(u"first"_s)};
    QProcess &worker = m_harness->start(WorkerHarness::Example, u"first"_s);
    QCOMPARE(WorkerHarness::exchange(worker, line({a}), 1), QByteArrayList{"0"});

    QCOMPARE(m_harness->exec(u"SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                             u"WHERE application_name = 'pepsi-stage-first'"_s),
             QString());
    const QByteArrayList lost = WorkerHarness::exchange(worker, line(batch), 2);
    QCOMPARE(lost.size(), 2);
    for (const QByteArray &answer : lost)
        QVERIFY2(answer.startsWith("75 database connection lost: "), answer.constData());
    for (qint64 id : batch)
        QCOMPARE(m_harness->row(id).value(u"status"_s).toString(), u"running"_s);

    // the next batch finds the connection reset
    QCOMPARE(WorkerHarness::exchange(worker, line(batch), 2), (QByteArrayList{"0", "0"}));
    for (qint64 id : batch)
        QCOMPARE(m_harness->row(id).value(u"stage"_s).toString(), u"middle"_s);
    QCOMPARE(WorkerHarness::finish(worker), u"exit 0"_s);
}

void tst_StageKitBatch::movesAreOneStatement_data()
{
    QTest::addColumn<QByteArray>("combine");
    QTest::addColumn<int>("statements");
    QTest::newRow("combined: the reference stage's default") << QByteArray() << 1;
    QTest::newRow("PEPSI_EXAMPLE_COMBINE_MOVES=0: one per message") << QByteArray("0") << 3;
}

void tst_StageKitBatch::movesAreOneStatement()
{
    QFETCH(QByteArray, combine);
    QFETCH(int, statements);

    if (!combine.isNull())
        qputenv("PEPSI_EXAMPLE_COMBINE_MOVES", combine);
    // Counts the UPDATE statements on workqueue, not the rows they change.
    QCOMPARE(m_harness->exec(u"CREATE TABLE IF NOT EXISTS test_update_statements (n int)"_s), QString());
    QCOMPARE(m_harness->exec(u"TRUNCATE test_update_statements"_s), QString());
    QCOMPARE(m_harness->exec(u"CREATE OR REPLACE FUNCTION test_count_update() RETURNS trigger LANGUAGE plpgsql AS "
                             u"$$BEGIN INSERT INTO test_update_statements VALUES (1); RETURN NULL; END$$"_s),
             QString());
    QCOMPARE(m_harness->exec(u"CREATE OR REPLACE TRIGGER test_count_update AFTER UPDATE ON workqueue "
                             u"FOR EACH STATEMENT EXECUTE FUNCTION test_count_update()"_s),
             QString());
    const QList<qint64> ids{m_harness->insertRow(u"first"_s), m_harness->insertRow(u"first"_s),
                            m_harness->insertRow(u"first"_s)};
    QProcess &worker = m_harness->start(WorkerHarness::Example, u"first"_s);
    QCOMPARE(WorkerHarness::exchange(worker, line(ids), 3), (QByteArrayList{"0", "0", "0"}));
    QCOMPARE(m_db->scalar(u"SELECT count(*) FROM test_update_statements"_s), qint64(statements));
    for (qint64 id : ids)
        QCOMPARE(m_harness->row(id).value(u"stage"_s).toString(), u"middle"_s);
    QCOMPARE(writers(ids).removeDuplicates(), 2);
    QCOMPARE(WorkerHarness::finish(worker), u"exit 0"_s);
}

void tst_StageKitBatch::aMissedGuardFailsOnlyItsMessage_data()
{
    QTest::addColumn<QByteArray>("combine");
    QTest::newRow("combined") << QByteArray("1");
    QTest::newRow("one statement per message") << QByteArray("0");
}

void tst_StageKitBatch::aMissedGuardFailsOnlyItsMessage()
{
    QFETCH(QByteArray, combine);
    qputenv("PEPSI_EXAMPLE_COMBINE_MOVES", combine);

    const qint64 a = m_harness->insertRow(u"first"_s);
    const qint64 paused = m_harness->insertRow(u"first"_s, u"paused"_s); // an operator paused it meanwhile
    const qint64 b = m_harness->insertRow(u"first"_s);
    const qint64 moved = m_harness->insertRow(u"middle"_s); // running, but at another stage
    const qint64 c = m_harness->insertRow(u"first"_s);
    QProcess &worker = m_harness->start(WorkerHarness::Example, u"first"_s);
    const QByteArray notRunning = " is not running at stage first";
    QCOMPARE(WorkerHarness::exchange(worker, line({a, paused, b, moved, c}), 5),
             (QByteArrayList{"0", "1 message " + QByteArray::number(paused) + notRunning, "0",
                             "1 message " + QByteArray::number(moved) + notRunning, "0"}));
    for (qint64 id : {a, b, c}) {
        QCOMPARE(m_harness->place(id), u"middle pending"_s);
    }
    QCOMPARE(m_harness->place(paused), u"first paused"_s);
    QCOMPARE(m_harness->place(moved), u"middle running"_s);
    QCOMPARE(WorkerHarness::finish(worker), u"exit 0"_s);
}

void tst_StageKitBatch::aFailingMoveFailsOnlyItsMessage_data()
{
    QTest::addColumn<QByteArray>("combine");
    QTest::newRow("combined: the batch's statement fails, then each runs alone") << QByteArray("1");
    QTest::newRow("one statement per message") << QByteArray("0");
}

void tst_StageKitBatch::aFailingMoveFailsOnlyItsMessage()
{
    QFETCH(QByteArray, combine);
    qputenv("PEPSI_EXAMPLE_COMBINE_MOVES", combine);
    QCOMPARE(m_harness->exec(u"CREATE OR REPLACE FUNCTION test_refuse() RETURNS trigger LANGUAGE plpgsql AS "
                             u"$$BEGIN IF NEW.state ? 'refuse' THEN RAISE EXCEPTION 'refused %', NEW.workqueue_id; "
                             u"END IF; RETURN NEW; END$$"_s),
             QString());
    QCOMPARE(m_harness->exec(u"CREATE OR REPLACE TRIGGER test_refuse BEFORE UPDATE ON workqueue "
                             u"FOR EACH ROW EXECUTE FUNCTION test_refuse()"_s),
             QString());

    const qint64 a = m_harness->insertRow(u"first"_s);
    const qint64 refused = m_harness->insertRow(u"first"_s, u"running"_s, QJsonObject{{u"refuse"_s, true}});
    const qint64 b = m_harness->insertRow(u"first"_s);
    QProcess &worker = m_harness->start(WorkerHarness::Example, u"first"_s);
    const QByteArrayList answers = WorkerHarness::exchange(worker, line({a, refused, b}), 3);
    QCOMPARE(answers.size(), 3);
    QCOMPARE(answers.at(0), "0");
    QVERIFY2(answers.at(1).startsWith("1 database error: ")
                 && answers.at(1).contains(QByteArray("refused " + QByteArray::number(refused))),
             answers.at(1).constData());
    QCOMPARE(answers.at(2), "0");
    for (qint64 id : {a, b})
        QCOMPARE(m_harness->row(id).value(u"stage"_s).toString(), u"middle"_s);
    QCOMPARE(m_harness->place(refused), u"first running"_s);
    QCOMPARE(WorkerHarness::finish(worker), u"exit 0"_s);
}

QTEST_GUILESS_MAIN(tst_StageKitBatch)
#include "tst_stagekitbatch.moc"
