// SPDX-License-Identifier: AGPL-3.0-or-later
// WorkerPool and WorkerProcess with real processes (shell scripts as stage
// programs; no database) flooding stdout and stderr: the memory it costs and
// what is logged (doc/stage-programs.rst, "The worker protocol";
// doc/quality.rst, "Limits"). A program of its own: it measures this
// process's peak resident set.
#include "daemonprocess.h"
#include "workerpooltest.h"

#include <QElapsedTimer>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTest>

using namespace pepsi;
using namespace Qt::StringLiterals;

namespace {

// The worker category's messages, while a test collects them.
QStringList *g_workerLog = nullptr;
QtMessageHandler g_previousHandler = nullptr;

void collectWorkerLog(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (g_workerLog && context.category && qstrcmp(context.category, "pepsi.dispatch.worker") == 0)
        g_workerLog->append(message);
    else if (g_previousHandler)
        g_previousHandler(type, context, message);
}

// Peak resident set of this process so far, in KiB (the pool runs in it).
qint64 peakRssKb() { return DaemonProcess::procStatusKiB(QCoreApplication::applicationPid(), u"VmHWM"_s); }

} // namespace

class tst_WorkerFloods : public WorkerPoolTest
{
    Q_OBJECT

private Q_SLOTS:
    void stdoutFloodInBoundedMemory();
    void stderrFloodInBoundedMemory();
};

// 50 MB... and more, without a newline, from a worker that ignores
// SIGTERM: the violation is seen in the first bytes, and nothing after it is kept.
void tst_WorkerFloods::stdoutFloodInBoundedMemory()
{
    PoolOptions options;
    options.killGrace = std::chrono::milliseconds(1500);
    WorkerPool *pool = makePool(script(u"worker"_s, "trap '' TERM; read a; exec tr '\\000' x < /dev/zero"), options);
    QSignalSpy killed(pool, &WorkerPool::workerKilled);
    QSignalSpy drained(pool, &WorkerPool::drained);
    QSignalSpy started(pool, &WorkerPool::workerStarted);
    const qint64 before = peakRssKb();
    QVERIFY(pool->assign(tickets(2)).isEmpty());
    QTRY_COMPARE(killed.size(), 1);
    QCOMPARE(killed.at(0).at(1).toString(), u"protocol error"_s);
    QCOMPARE(killed.at(0).at(2).toLongLong(), 1);
    QVERIFY2(killed.at(0).at(3).toString().startsWith(u"protocol error: \"x"_s),
             qPrintable(killed.at(0).at(3).toString()));
    // It floods on through the SIGTERM grace until the SIGKILL.
    QElapsedTimer clock;
    clock.start();
    QTRY_COMPARE_WITH_TIMEOUT(pool->workerCount(), 0, 5000);
    const qint64 growthKb = peakRssKb() - before;
    qInfo("stdout flood for %lld ms after the kill decision: peak RSS grew by %lld KiB", clock.elapsed(), growthKb);
    QVERIFY2(growthKb < 16 * 1024, qPrintable(u"peak RSS grew by %1 KiB"_s.arg(growthKb)));
    QCOMPARE(m_settlements.size(), 2);
    QVERIFY2(settled().first().startsWith(u"fail 1 protocol error: \"x"_s), qPrintable(settled().first()));
    QCOMPARE(settled().last(), u"requeue 2"_s);
    QCOMPARE(started.size(), 1);
}

// A stderr flood (200,000 lines, and one line of 5 MB) costs
// neither memory nor the worker's answers.
void tst_WorkerFloods::stderrFloodInBoundedMemory()
{
    WorkerPool *pool = makePool(script(u"worker"_s,
                                       "read a; yes 'fake flood line' | head -n 200000 >&2; "
                                       "head -c 5000000 /dev/zero | tr '\\000' e >&2; echo 0; "
                                       "while read id; do echo 0; done"));
    QSignalSpy runs(pool, &WorkerPool::runEnded);
    QStringList log;
    g_workerLog = &log;
    g_previousHandler = qInstallMessageHandler(collectWorkerLog);
    const auto restore = qScopeGuard([] {
        qInstallMessageHandler(g_previousHandler);
        g_workerLog = nullptr;
    });
    const qint64 before = peakRssKb();
    QElapsedTimer clock;
    clock.start();
    QVERIFY(pool->assign(tickets(2)).isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(runs.size(), 2, 20000);
    const qint64 growthKb = peakRssKb() - before;
    // Logged: at most 50 lines a second, each cut to 2000 bytes, and the count of the rest.
    const QRegularExpression dropCount(u"stderr: [0-9]+ lines dropped"_s);
    // The count comes when the second it counts for is over.
    QTRY_VERIFY_WITH_TIMEOUT(!log.filter(dropCount).isEmpty(), 3000);
    const QStringList logged = log.filter(u"stderr: fake flood line"_s);
    const QStringList dropped = log.filter(dropCount);
    qInfo("%lld stderr lines logged, %lld drop counts", qint64(logged.size()), qint64(dropped.size()));
    QVERIFY2(logged.size() <= 50 * (clock.elapsed() / 1000 + 2), qPrintable(QString::number(logged.size())));
    QVERIFY(!dropped.isEmpty());
    for (const QString &line : std::as_const(log))
        QVERIFY2(line.size() < 2200, qPrintable(line.left(300)));
    qInfo("stderr flood of about 8 MB answered after %lld ms; peak RSS grew by %lld KiB", clock.elapsed(), growthKb);
    QVERIFY2(growthKb < 16 * 1024, qPrintable(u"peak RSS grew by %1 KiB"_s.arg(growthKb)));
    QCOMPARE(m_settlements.size(), 0);
}

QTEST_GUILESS_MAIN(tst_WorkerFloods)
#include "tst_workerfloods.moc"
