// SPDX-License-Identifier: AGPL-3.0-or-later
// A worker's process group goes with it (doc/stage-programs.rst, "Processes a
// stage program starts"): a stage program that started a helper and then
// crashed, timed out or was stopped with the daemon leaves no helper behind.
// The fake worker's grandchild modes start a "sleep 600" in the worker's
// group, holding its pipes, and say its pid in a file.
#include "daemonprocess.h"
#include "daemonstart.h"
#include "databasefixture.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <memory>

using namespace Qt::StringLiterals;

namespace {

// A helper killed with its group is gone within this (the daemon signals the
// group as it reaps the worker; the rest is scheduling).
constexpr int GoneWithinMs = 5000;

} // namespace

class tst_WorkerGroups : public QObject, private DatabaseFixture
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void crashTakesTheGroup();
    void watchdogTakesTheGroup();
    void stopTakesTheGroup();

private:
    std::unique_ptr<DaemonProcess> startDaemon(const DaemonProcess::Options &dispatchOptions = {});
    // The pids the fake worker wrote so far.
    QList<qint64> grandchildren() const;

    std::unique_ptr<QTemporaryDir> m_dir;
};

void tst_WorkerGroups::initTestCase() { PEPSI_REQUIRE_BINARIES(); }

void tst_WorkerGroups::init()
{
    PEPSI_INIT_DATABASE_FIXTURE();
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    // The workers run as the service account when the test runs as root.
    QVERIFY(QFile::setPermissions(m_dir->path(),
                                  QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadOther
                                      | QFile::WriteOther | QFile::ExeOther | QFile::ReadGroup | QFile::WriteGroup
                                      | QFile::ExeGroup));
    qputenv("PEPSI_FAKE_GRANDCHILDREN", m_dir->filePath(u"grandchildren"_s).toLocal8Bit());
}

void tst_WorkerGroups::cleanup()
{
    // Without the group's signal the helpers live on: a failed test must not
    // leave them running for ten minutes.
    for (const qint64 pid : grandchildren())
        ::kill(pid_t(pid), SIGKILL);
    qunsetenv("PEPSI_FAKE_GRANDCHILDREN");
    m_dir.reset();
    resetDatabase();
}

std::unique_ptr<DaemonProcess> tst_WorkerGroups::startDaemon(const DaemonProcess::Options &dispatchOptions)
{
    return startWorkerStage(m_db->uri(), {{u"PARALLELISM"_s, u"1"_s}}, dispatchOptions);
}

QList<qint64> tst_WorkerGroups::grandchildren() const
{
    QList<qint64> pids;
    if (!m_dir)
        return pids;
    QFile file(m_dir->filePath(u"grandchildren"_s));
    if (!file.open(QIODevice::ReadOnly))
        return pids;
    for (const QByteArray &line : file.readAll().split('\n')) {
        if (const qint64 pid = line.toLongLong(); pid > 0)
            pids << pid;
    }
    return pids;
}

// The worker SIGKILLs itself after starting its helper: once the leader is
// reaped, the rest of its group is killed.
void tst_WorkerGroups::crashTakesTheGroup()
{
    const auto daemon = startDaemon();
    QVERIFY(daemon);
    const QList<qint64> ids = m_queue->insertModes(u"s"_s, {u"grandchild-kill"_s});
    QCOMPARE(ids.size(), 1);
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->row(ids[0])->status, u"failed"_s, 10000);
    QCOMPARE(*m_queue->row(ids[0])->dispatchError, u"crashed: signal 9"_s);
    const QList<qint64> helpers = grandchildren();
    QCOMPARE(helpers.size(), 1);
    QTRY_VERIFY2_WITH_TIMEOUT(DaemonProcess::isGone(helpers[0]), "the crashed worker's helper is still running",
                              GoneWithinMs);
    // The helper can be gone before the daemon's line about it reached us.
    QTRY_COMPARE(daemon->countLog(QRegularExpression(u"left processes in its process group; killed them"_s)), 1);
    QCOMPARE(daemon->terminate(), 0);
}

// MAX_RUNTIME: SIGTERM goes to the group, the helper with the worker.
void tst_WorkerGroups::watchdogTakesTheGroup()
{
    const auto daemon = startDaemon({{u"MAX_RUNTIME"_s, u"1 s"_s}});
    QVERIFY(daemon);
    const QList<qint64> ids = m_queue->insertModes(u"s"_s, {u"grandchild-hang"_s});
    QCOMPARE(ids.size(), 1);
    QTRY_COMPARE_WITH_TIMEOUT(grandchildren().size(), 1, 10000);
    const qint64 helper = grandchildren().constFirst();
    QVERIFY2(!DaemonProcess::isGone(helper), "the helper did not start");
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->row(ids[0])->status, u"timeout"_s, 10000);
    QTRY_VERIFY2_WITH_TIMEOUT(DaemonProcess::isGone(helper), "the timed-out worker's helper is still running",
                              GoneWithinMs);
    QCOMPARE(daemon->terminate(), 0);
}

// The daemon stops: the worker's input closes, it exits cleanly, and what it
// started goes with it.
void tst_WorkerGroups::stopTakesTheGroup()
{
    const auto daemon = startDaemon();
    QVERIFY(daemon);
    const QList<qint64> ids = m_queue->insertModes(u"s"_s, {u"grandchild"_s});
    QCOMPARE(ids.size(), 1);
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->row(ids[0])->status, u"done"_s, 10000);
    const QList<qint64> helpers = grandchildren();
    QCOMPARE(helpers.size(), 1);
    // While its worker lives, the helper is left alone.
    QVERIFY2(!DaemonProcess::isGone(helpers[0]), "the helper of a live worker was killed");
    QCOMPARE(daemon->workerPids(u"s"_s).size(), 1);
    QCOMPARE(daemon->terminate(), 0);
    QTRY_VERIFY2_WITH_TIMEOUT(DaemonProcess::isGone(helpers[0]), "the stopped worker's helper is still running",
                              GoneWithinMs);
}

QTEST_GUILESS_MAIN(tst_WorkerGroups)
#include "tst_workergroups.moc"
