// SPDX-License-Identifier: AGPL-3.0-or-later
// Every line the daemon writes is in its log format (doc/pepsi-dispatch.rst,
// "Logging"), what PostgreSQL says outside a statement's result included: a
// WARNING or NOTICE raised by a trigger on a statement the daemon runs, and
// the FATAL of a session an operator ends with pg_terminate_backend. Without
// a notice receiver libpq writes those to stderr as they came.
#include "daemonprocess.h"
#include "daemonstart.h"
#include "daemontest.h"

#include <QRegularExpression>
#include <QTest>

#include <memory>

using namespace Qt::StringLiterals;

class tst_LibpqNotices : public DaemonTest
{
    Q_OBJECT

private Q_SLOTS:
    void raisedNoticesAreLogLines();
    void endedSessionIsALogLine();

private:
    std::unique_ptr<DaemonProcess> startDaemon();
    // The lines of the daemon's stderr that are not "LEVEL message", joined
    // for the failure message; empty: none.
    static QString linesOutOfFormat(const QString &log);
};

std::unique_ptr<DaemonProcess> tst_LibpqNotices::startDaemon()
{
    auto daemon = std::make_unique<DaemonProcess>(m_db->uri());
    daemon->addStage(u"s"_s, DaemonProcess::fakeWorker(), {{u"PARALLELISM"_s, u"1"_s}});
    if (!startReady(*daemon))
        return nullptr;
    return daemon;
}

QString tst_LibpqNotices::linesOutOfFormat(const QString &log)
{
    // logging.cpp: "<LEVEL> <category>: <message>", the category left out for Qt's default one.
    static const QRegularExpression format(u"^(DEBUG|INFO|WARNING|ERROR|FATAL) \\S"_s);
    QStringList out;
    QStringList lines = log.split(u'\n');
    if (!lines.isEmpty() && lines.constLast().isEmpty())
        lines.removeLast(); // after the last newline
    for (const QString &line : std::as_const(lines)) {
        if (!format.match(line).hasMatch())
            out << u'"' + line + u'"';
    }
    return out.join(u'\n');
}

// A trigger raises a NOTICE and a WARNING (with a DETAIL of two lines) on
// every update of the queue, the daemon's claim among them: each is one log
// line at its level.
void tst_LibpqNotices::raisedNoticesAreLogLines()
{
    QVERIFY(m_db->exec(
        u"CREATE FUNCTION pepsi_test_notices() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
        "RAISE NOTICE 'pepsi test notice for %', NEW.workqueue_id; "
        "RAISE WARNING 'pepsi test warning for %', NEW.workqueue_id USING DETAIL = E'first line\\nsecond line'; "
        "RETURN NEW; END $$"_s));
    QVERIFY(m_db->exec(u"CREATE TRIGGER pepsi_test_notices BEFORE UPDATE ON workqueue "
                       "FOR EACH ROW EXECUTE FUNCTION pepsi_test_notices()"_s));
    const auto daemon = startDaemon();
    QVERIFY(daemon);
    const QList<qint64> ids = m_queue->insert(u"s"_s, 1);
    QCOMPARE(ids.size(), 1);
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->row(ids[0])->status, u"done"_s, 10000);
    const QString id = QString::number(ids[0]);
    QTRY_VERIFY_WITH_TIMEOUT(daemon->countLog(QRegularExpression(
                                 u"^WARNING pepsi\\.dispatch\\.store: PostgreSQL WARNING: pepsi test warning for %1 "
                                 "\\(detail: first line second line\\)$"_s.arg(id)))
                                 > 0,
                             5000);
    QVERIFY(daemon->countLog(QRegularExpression(
                u"^INFO pepsi\\.dispatch\\.store: PostgreSQL NOTICE: pepsi test notice for %1$"_s.arg(id)))
            > 0);
    QCOMPARE(daemon->terminate(), 0);
    const QString log = daemon->log();
    QVERIFY2(linesOutOfFormat(log).isEmpty(), qPrintable(u"lines out of the log format:\n"_s + linesOutOfFormat(log)));
}

// An operator ends the daemon's sessions: the server's FATAL, which comes
// between statements, is a warning of the daemon's, and the daemon reconnects.
void tst_LibpqNotices::endedSessionIsALogLine()
{
    const auto daemon = startDaemon();
    QVERIFY(daemon);
    const QString mine = u"application_name LIKE 'pepsi-dispatch % pid %1 %'"_s.arg(daemon->pid());
    QVERIFY(m_queue->scalar(u"SELECT count(*) FROM pg_stat_activity WHERE "_s + mine) > 0);
    QVERIFY(
        m_queue->scalar(u"SELECT count(*) FROM pg_stat_activity WHERE "_s + mine + u" AND pg_terminate_backend(pid)"_s)
        > 0);
    QVERIFY2(daemon->waitForLog(QRegularExpression(u"database connection restored after"_s), 10000),
             qPrintable(daemon->log()));
    QVERIFY(daemon->countLog(QRegularExpression(u"^WARNING pepsi\\.dispatch\\.store: PostgreSQL FATAL: "
                                                "terminating connection due to administrator command$"_s))
            > 0);
    // It works on: a new message runs.
    const QList<qint64> ids = m_queue->insert(u"s"_s, 1);
    QCOMPARE(ids.size(), 1);
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->row(ids[0])->status, u"done"_s, 10000);
    QCOMPARE(daemon->terminate(), 0);
    const QString log = daemon->log();
    QVERIFY2(linesOutOfFormat(log).isEmpty(), qPrintable(u"lines out of the log format:\n"_s + linesOutOfFormat(log)));
}

QTEST_GUILESS_MAIN(tst_LibpqNotices)
#include "tst_libpqnotices.moc"
