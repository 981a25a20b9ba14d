// SPDX-License-Identifier: AGPL-3.0-or-later
// What systemd hears of the daemon (Type=notify): the test plays systemd's
// side, a datagram socket named by NOTIFY_SOCKET, and starts the daemon with
// WATCHDOG_USEC/WATCHDOG_PID as systemd would. READY=1 with a first STATUS=,
// a STATUS= that follows the flow at most once a second, WATCHDOG=1 at half
// the interval only for the process it names, STOPPING=1; a standby and an
// unreachable database say why they do not serve; workers inherit none of it.
#include "daemonprocess.h"
#include "daemonstart.h"
#include "daemontest.h"
#include "notifysink.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <limits>
#include <memory>

using namespace Qt::StringLiterals;

namespace {

// pepsi-dispatch started as systemd starts it: through `sh -c 'exec ...'` so
// that WATCHDOG_PID can name the daemon's own pid ($$ survives the exec).
class ServiceRun
{
public:
    enum class Watchdog { Off, ForThisProcess, ForAnotherProcess };

    ServiceRun(DaemonProcess &config, const NotifySink &sink, Watchdog watchdog, qint64 watchdogUsec,
               const QStringList &extra = {})
    {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(u"NOTIFY_SOCKET"_s, sink.path());
        QString setPid;
        if (watchdog != Watchdog::Off) {
            environment.insert(u"WATCHDOG_USEC"_s, QString::number(watchdogUsec));
            setPid = watchdog == Watchdog::ForThisProcess ? u"WATCHDOG_PID=$$ "_s : u"WATCHDOG_PID=1 "_s;
        }
        m_process.setProcessEnvironment(environment);
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        // Read as it comes: a full pipe would block the daemon's logging.
        QObject::connect(&m_process, &QProcess::readyRead, &m_process, [this] { m_log += m_process.readAll(); });
        m_process.setProgram(u"/bin/sh"_s);
        m_process.setArguments(QStringList{u"-c"_s, setPid + u"export WATCHDOG_PID; exec \"$@\""_s, u"sh"_s,
                                           DaemonProcess::daemonBinary(), u"-c"_s, config.writeConfig(), u"-L"_s,
                                           u"DEBUG"_s, u"serve"_s}
                               + extra);
        if (watchdog == Watchdog::Off)
            m_process.setArguments(QStringList{u"-c"_s, u"exec \"$@\""_s} + m_process.arguments().mid(2));
        m_process.start();
        m_process.waitForStarted(10000);
    }
    ~ServiceRun()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(5000);
        }
        if (QTest::currentTestFailed())
            qWarning("pepsi-dispatch log:\n%s", QByteArray(m_log + m_process.readAll()).constData());
    }

    qint64 pid() const { return m_process.processId(); }
    int terminate()
    {
        ::kill(pid_t(m_process.processId()), SIGTERM);
        if (!m_process.waitForFinished(15000))
            return -1;
        return m_process.exitStatus() == QProcess::NormalExit ? m_process.exitCode() : -1;
    }

private:
    QProcess m_process;
    QByteArray m_log;
};

// Children of `pid` (its workers), from /proc.
QList<qint64> childrenOf(qint64 pid)
{
    QFile file(u"/proc/%1/task/%1/children"_s.arg(pid));
    QList<qint64> pids;
    if (!file.open(QIODevice::ReadOnly))
        return pids;
    for (const QByteArray &field : file.readAll().simplified().split(' ')) {
        if (const qint64 child = field.toLongLong(); child > 0)
            pids.append(child);
    }
    return pids;
}

const QRegularExpression RunningStatus(u"^running: (\\d+) workers?, (\\d+) in flight, ([0-9.]+) runs/s$"_s);

} // namespace

class tst_ServiceNotify : public DaemonTest
{
    Q_OBJECT

private Q_SLOTS:
    void readyStatusWatchdogStopping_data();
    void readyStatusWatchdogStopping();
    void standbySaysWhomItWaitsFor();
    void unreachableDatabaseIsNotReady();
};

void tst_ServiceNotify::readyStatusWatchdogStopping_data()
{
    QTest::addColumn<ServiceRun::Watchdog>("watchdog");
    QTest::newRow("watchdog for the daemon") << ServiceRun::Watchdog::ForThisProcess;
    QTest::newRow("watchdog for another pid") << ServiceRun::Watchdog::ForAnotherProcess;
    QTest::newRow("no watchdog") << ServiceRun::Watchdog::Off;
}

void tst_ServiceNotify::readyStatusWatchdogStopping()
{
    QFETCH(ServiceRun::Watchdog, watchdog);
    constexpr qint64 WatchdogUsec = 400000; // keep-alives expected every 200 ms

    NotifySink sink;
    QVERIFY(sink.isValid());
    DaemonProcess config(m_db->uri());
    config.addStage(u"s"_s, DaemonProcess::fakeWorker(), {{u"PARALLELISM"_s, u"2"_s}, {u"QUEUE_LIMIT"_s, u"2"_s}});
    ServiceRun daemon(config, sink, watchdog, WatchdogUsec);

    // GIVEN a daemon that holds the lock and listens: READY=1 and the first STATUS= in one message.
    QTRY_VERIFY2_WITH_TIMEOUT(sink.count("READY=1") == 1, qPrintable(sink.describe()), 15000);
    const NotifySink::Message ready = sink.with("READY=1").constFirst();
    QVERIFY2(ready.text.contains("\nSTATUS=running: 0 workers, 0 in flight"), ready.text.constData());

    // WHEN messages flow through slow workers
    QueueProbe queue(m_db->db());
    QVERIFY(!queue.insert(u"s"_s, 120, {{u"s"_s, u"slow:40"_s}}).isEmpty());
    // THEN the status shows workers, messages in flight and a rate.
    const auto busyStatus = [&sink] {
        for (const QString &status : sink.statuses()) {
            const auto match = RunningStatus.match(status);
            if (match.hasMatch() && match.captured(1).toInt() > 0 && match.captured(3).toDouble() > 0)
                return true;
        }
        return false;
    };
    QTRY_VERIFY2_WITH_TIMEOUT(busyStatus(), qPrintable(sink.describe()), 15000);

    // Workers inherit neither the notification socket nor the watchdog, nor
    // the daemon's own choice of event loop (QT_NO_GLIB, set for its start only).
    const QList<qint64> workers = childrenOf(daemon.pid());
    QVERIFY(!workers.isEmpty());
    for (const qint64 worker : workers) {
        QCOMPARE(DaemonProcess::environmentValue(worker, "PEPSI_STAGE"), u"s"_s);
        QVERIFY(DaemonProcess::environmentValue(worker, "NOTIFY_SOCKET").isEmpty());
        QVERIFY(DaemonProcess::environmentValue(worker, "WATCHDOG_USEC").isEmpty());
        QVERIFY(DaemonProcess::environmentValue(worker, "WATCHDOG_PID").isEmpty());
        QVERIFY(DaemonProcess::environmentValue(worker, "QT_NO_GLIB").isEmpty());
    }

    QTRY_COMPARE_WITH_TIMEOUT(queue.count(u"status = 'done'"_s), 120, 30000);
    // Once idle the status goes back to a zero rate (workers may linger until WORKER_IDLE_TIMEOUT).
    QTRY_VERIFY2_WITH_TIMEOUT(RunningStatus.match(sink.statuses().constLast()).captured(3) == u"0.0"_s,
                              qPrintable(sink.describe()), 10000);

    QCOMPARE(daemon.terminate(), 0);
    QCOMPARE(sink.count("STOPPING=1"), 1);
    QCOMPARE(sink.count("READY=1"), 1);

    const QList<NotifySink::Message> statusMessages = sink.with("STATUS=");
    QVERIFY2(statusMessages.size() >= 3, qPrintable(sink.describe()));
    qint64 closest = std::numeric_limits<qint64>::max();
    // Up to STOPPING=1, which is not rate limited: the last message.
    for (qsizetype i = 1; i + 1 < statusMessages.size(); ++i)
        closest = std::min(closest, statusMessages[i].atMs - statusMessages[i - 1].atMs);
    qInfo("%lld STATUS= lines; closest two %lld ms apart", qint64(statusMessages.size()), closest);
    // At most one a second (a little timer slack on a loaded machine).
    QVERIFY2(closest >= 900, qPrintable(sink.describe()));

    const QList<NotifySink::Message> keepAlives = sink.with("WATCHDOG=1");
    if (watchdog != ServiceRun::Watchdog::ForThisProcess) {
        QVERIFY2(keepAlives.isEmpty(), qPrintable(sink.describe()));
        return;
    }
    QVERIFY2(keepAlives.size() >= 10, qPrintable(sink.describe()));
    const double span = double(keepAlives.constLast().atMs - keepAlives.constFirst().atMs);
    const double meanMs = span / double(keepAlives.size() - 1);
    qInfo("%lld WATCHDOG=1 over %.0f ms: one every %.1f ms (WATCHDOG_USEC %lld: expected %lld ms)",
          qint64(keepAlives.size()), span, meanMs, WatchdogUsec, WatchdogUsec / 2000);
    // Half the interval: well inside the deadline, not a busy loop either.
    QVERIFY2(meanMs > 150 && meanMs < 260, qPrintable(u"one keep-alive every %1 ms"_s.arg(meanMs)));
}

// A standby is not ready: its STATUS= names the holder; READY=1 comes when it takes over.
void tst_ServiceNotify::standbySaysWhomItWaitsFor()
{
    DaemonProcess active(m_db->uri());
    active.addStage(u"s"_s, DaemonProcess::fakeWorker());
    QVERIFY(startReady(active));

    NotifySink sink;
    QVERIFY(sink.isValid());
    DaemonProcess config(m_db->uri());
    config.addStage(u"s"_s, DaemonProcess::fakeWorker());
    ServiceRun standby(config, sink, ServiceRun::Watchdog::Off, 0, {u"--standby"_s});

    const auto waitsFor = [&sink, &active] {
        const QStringList statuses = sink.statuses();
        return !statuses.isEmpty() && statuses.constLast().startsWith(u"standby: waiting for the lock held by"_s)
            && statuses.constLast().contains(QString::number(active.pid()));
    };
    QTRY_VERIFY2_WITH_TIMEOUT(waitsFor(), qPrintable(sink.describe()), 15000);
    QCOMPARE(sink.count("READY=1"), 0);

    QCOMPARE(active.terminate(), 0);
    QTRY_VERIFY2_WITH_TIMEOUT(sink.count("READY=1") == 1, qPrintable(sink.describe()), 15000);
    QVERIFY(RunningStatus.match(sink.statuses().constLast()).hasMatch());
    QCOMPARE(standby.terminate(), 0);
    QCOMPARE(sink.count("STOPPING=1"), 1);
}

// Unreachable at start: waiting, not ready, and it says so.
void tst_ServiceNotify::unreachableDatabaseIsNotReady()
{
    NotifySink sink;
    QVERIFY(sink.isValid());
    QTemporaryDir nowhere;
    DaemonProcess config(u"host=%1 port=1 dbname=pepsi connect_timeout=2"_s.arg(nowhere.path()));
    config.addStage(u"s"_s, DaemonProcess::fakeWorker());
    ServiceRun daemon(config, sink, ServiceRun::Watchdog::Off, 0);

    QTRY_VERIFY2_WITH_TIMEOUT(sink.statuses().contains(u"database unreachable, retrying"_s),
                              qPrintable(sink.describe()), 15000);
    QCOMPARE(sink.count("READY=1"), 0);
    QCOMPARE(daemon.terminate(), 0);
    QCOMPARE(sink.count("STOPPING=1"), 1);
}

QTEST_GUILESS_MAIN(tst_ServiceNotify)
#include "tst_servicenotify.moc"
