// SPDX-License-Identifier: AGPL-3.0-or-later
// Lifecycle (doc/pepsi-dispatch.rst): the Dispatcher's life is one Lifecycle state and every
// way out goes through one stop path. The Dispatcher runs in this process
// (its workers are real fake-worker processes, its database the real test
// database); the test watches lifecycleChanged, databaseLost and
// databaseRestored, ends the dispatcher's sessions, and takes the lock away
// from it while it reconnects.
#include "core/dispatcher.h"
#include "daemonprocess.h"
#include "databasefixture.h"
#include "testconfig.h"

#include <QCoreApplication>
#include <QDir>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace Qt::StringLiterals;

class tst_Lifecycle : public QObject, private DatabaseFixture
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void names_data();
    void names();
    void reconnectAndStop();
    void lockTakenWhileAway();

private:
    std::unique_ptr<pepsi::Dispatcher> newDispatcher();
    // Ends every session this process's dispatcher has.
    qint64 terminateOwnSessions();
    static QList<pepsi::Lifecycle> states(const QSignalSpy &spy);
    // Live child processes of this test: the dispatcher's workers.
    static QList<qint64> workers();

    QTemporaryDir m_dir;
};

void tst_Lifecycle::initTestCase()
{
    qRegisterMetaType<pepsi::Lifecycle>();
    PEPSI_REQUIRE_BINARIES();
}

void tst_Lifecycle::init() { PEPSI_INIT_DATABASE_FIXTURE(); }

void tst_Lifecycle::cleanup() { resetDatabase(); }

std::unique_ptr<pepsi::Dispatcher> tst_Lifecycle::newDispatcher()
{
    // The workers read it too (CONFIG_FILE), for the database.
    const QString path = m_dir.filePath(u"pepsi.conf"_s);
    writeTestConfig(m_dir,
                    u"[pepsi]\nDATABASE = %1\n[pepsi-dispatch]\nPOLL_INTERVAL = 60 s\nCONFIG_FILE = %3\n"
                    "[stage-s]\nPROGRAM = %2\n"_s.arg(m_db->uri(), DaemonProcess::fakeWorker(), path));
    const auto config = pepsi::Configuration::load(path);
    if (!config)
        return nullptr;
    const auto settings = pepsi::DispatchSettings::fromConfiguration(config.value());
    if (!settings)
        return nullptr;
    return std::make_unique<pepsi::Dispatcher>(config.value(), settings.value(), false);
}

qint64 tst_Lifecycle::terminateOwnSessions()
{
    return m_queue->scalar(
        u"SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE "
        "'pepsi-dispatch %% pid %1 %%' AND pg_terminate_backend(pid)"_s.arg(QCoreApplication::applicationPid())
            .replace(u"%%"_s, u"%"_s));
}

QList<pepsi::Lifecycle> tst_Lifecycle::states(const QSignalSpy &spy)
{
    QList<pepsi::Lifecycle> list;
    for (const QList<QVariant> &arguments : spy) {
        // A reconnect may find the lock still held by the session the server
        // is ending: the dispatcher then waits for it, which is legal but not
        // what these tests are about.
        const auto state = arguments.at(0).value<pepsi::Lifecycle>();
        if (state == pepsi::Lifecycle::WaitingForLock)
            qInfo("waited for its own ended session to let go of the lock");
        else
            list.append(state);
    }
    return list;
}

QList<qint64> tst_Lifecycle::workers()
{
    QList<qint64> pids;
    const QString self = QString::number(QCoreApplication::applicationPid());
    for (const QString &entry : QDir(u"/proc"_s).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool numeric = false;
        const qint64 pid = entry.toLongLong(&numeric);
        if (numeric && DaemonProcess::procStatusField(pid, u"PPid"_s) == self && !DaemonProcess::isGone(pid))
            pids.append(pid);
    }
    return pids;
}

void tst_Lifecycle::names_data()
{
    QTest::addColumn<pepsi::Lifecycle>("state");
    QTest::addColumn<QString>("name");
    QTest::newRow("starting") << pepsi::Lifecycle::Starting << u"starting"_s;
    QTest::newRow("waiting") << pepsi::Lifecycle::WaitingForLock << u"waiting_for_lock"_s;
    QTest::newRow("running") << pepsi::Lifecycle::Running << u"running"_s;
    QTest::newRow("reconnecting") << pepsi::Lifecycle::Reconnecting << u"reconnecting"_s;
    QTest::newRow("stopping") << pepsi::Lifecycle::Stopping << u"stopping"_s;
    QTest::newRow("stopped") << pepsi::Lifecycle::Stopped << u"stopped"_s;
}

void tst_Lifecycle::names()
{
    QFETCH(pepsi::Lifecycle, state);
    QFETCH(QString, name);
    QCOMPARE(pepsi::lifecycleName(state), name);
}

// Starting -> Running -> Reconnecting -> Running -> Stopping -> Stopped, with
// databaseLost and databaseRestored around the outage, and exit 0.
void tst_Lifecycle::reconnectAndStop()
{
    auto dispatcher = newDispatcher();
    QVERIFY(dispatcher);
    QSignalSpy changed(dispatcher.get(), &pepsi::Dispatcher::lifecycleChanged);
    QSignalSpy lost(dispatcher.get(), &pepsi::Dispatcher::databaseLost);
    QSignalSpy restored(dispatcher.get(), &pepsi::Dispatcher::databaseRestored);
    QSignalSpy finished(dispatcher.get(), &pepsi::Dispatcher::finished);
    QCOMPARE(dispatcher->lifecycle(), pepsi::Lifecycle::Starting);
    dispatcher->start();
    QTRY_COMPARE_WITH_TIMEOUT(dispatcher->lifecycle(), pepsi::Lifecycle::Running, 10000);

    QCOMPARE(m_queue->insert(u"s"_s, 10, {{u"s"_s, u"slow:100"_s}}).size(), 10);
    QTRY_VERIFY_WITH_TIMEOUT(m_queue->count(u"status = 'running'"_s) > 0, 5000);
    QCOMPARE(terminateOwnSessions(), qint64(2));
    QTRY_COMPARE_WITH_TIMEOUT(lost.size(), 1, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(restored.size(), 1, 5000);
    qInfo("reconnected after %lld ms", restored.at(0).at(0).toLongLong());
    QVERIFY(!lost.at(0).at(0).toString().isEmpty());
    QCOMPARE(dispatcher->lifecycle(), pepsi::Lifecycle::Running);
    QVERIFY(dispatcher->lastDatabaseError().isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status = 'done'"_s), 10, 10000);

    dispatcher->shutdown(0);
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 15000);
    QCOMPARE(finished.at(0).at(0).toInt(), 0);
    QCOMPARE(
        states(changed),
        (QList<pepsi::Lifecycle>{pepsi::Lifecycle::Running, pepsi::Lifecycle::Reconnecting, pepsi::Lifecycle::Running,
                                 pepsi::Lifecycle::Stopping, pepsi::Lifecycle::Stopped}));
    // A second stop request changes nothing.
    dispatcher->shutdown(3);
    QCOMPARE(finished.size(), 1);
}

// While the dispatcher reconnects, another session takes the lock: the one
// stop path stops the workers at once, writes nothing and finishes with 1.
void tst_Lifecycle::lockTakenWhileAway()
{
    auto dispatcher = newDispatcher();
    QVERIFY(dispatcher);
    QSignalSpy changed(dispatcher.get(), &pepsi::Dispatcher::lifecycleChanged);
    QSignalSpy finished(dispatcher.get(), &pepsi::Dispatcher::finished);
    dispatcher->start();
    QTRY_COMPARE_WITH_TIMEOUT(dispatcher->lifecycle(), pepsi::Lifecycle::Running, 10000);
    const QList<qint64> ids = m_queue->insert(u"s"_s, 4, {{u"s"_s, u"hang"_s}});
    QCOMPARE(ids.size(), 4);
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->count(u"status = 'running'"_s), 4, 5000);
    const QList<qint64> before = workers();
    QVERIFY(!before.isEmpty());

    // No event loop between the two: the dispatcher cannot get in first.
    QSqlDatabase other = m_db->newConnection(u"other"_s);
    QCOMPARE(terminateOwnSessions(), qint64(2));
    QSqlQuery take(other);
    QVERIFY(take.exec(u"SELECT pg_advisory_lock(1885696115)"_s));

    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 10000);
    QCOMPARE(finished.at(0).at(0).toInt(), 1);
    QCOMPARE(states(changed),
             (QList<pepsi::Lifecycle>{pepsi::Lifecycle::Running, pepsi::Lifecycle::Reconnecting,
                                      pepsi::Lifecycle::Stopping, pepsi::Lifecycle::Stopped}));
    QTRY_COMPARE_WITH_TIMEOUT(workers(), QList<qint64>(), 5000);
    qInfo("%lld workers stopped", qint64(before.size()));
    // Left to the lock holder as they were: nothing was written.
    QCOMPARE(m_queue->count(u"status = 'running'"_s), 4);
    QVERIFY(take.exec(u"SELECT pg_advisory_unlock(1885696115)"_s));
}

QTEST_GUILESS_MAIN(tst_Lifecycle)
#include "tst_lifecycle.moc"
