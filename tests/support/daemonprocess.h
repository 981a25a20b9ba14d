// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QList>
#include <QObject>
#include <QPair>
#include <QProcess>
#include <QRegularExpression>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

// A real pepsi-dispatch for integration tests: writes a pepsi.conf the service
// account can read, runs `pepsi-dispatch -c FILE -L DEBUG serve`, collects its
// stderr as a growing log and looks at it and its workers through /proc.
// The waits run the event loop (tests only). The destructor SIGKILLs a daemon
// that is still running and, when the test failed, prints the daemon's log.
class DaemonProcess : public QObject
{
    Q_OBJECT

public:
    using Options = QList<QPair<QString, QString>>; // OPTION, value; in order

    // database: a [pepsi] DATABASE value (TestDatabase::uri()).
    explicit DaemonProcess(const QString &database, QObject *parent = nullptr);
    ~DaemonProcess() override;

    // Binaries of the build under test ($PEPSI_BUILD_DIR, else the configured build dir).
    static QString buildDir();
    static QString daemonBinary();
    static QString fakeWorker();
    static QString exampleStage();
    // $PEPSI_TEST_USER, else "pepsi": the USER the daemon drops to when started as root.
    static QString serviceUser();
    static bool runningAsRoot();
    // "" when the daemon and the fake worker are built, else what is missing.
    static QString missingBinaries();

    // --- the configuration; written by start() (or writeConfig()) ---
    // A [pepsi-dispatch] option (POLL_INTERVAL, WORKER_IDLE_TIMEOUT, ...).
    void setOption(const QString &option, const QString &value);
    // A [stage-NAME] section with PROGRAM and the given options.
    void addStage(const QString &name, const QString &program, const Options &options = {});
    // Sets (or adds) one option of a stage added before; the next
    // writeConfig() writes it (a test of SIGHUP changes the file under a running daemon).
    // A stage's PROGRAM, replaced.
    void setStageProgram(const QString &stage, const QString &program);
    void setStageOption(const QString &stage, const QString &option, const QString &value);
    // Text appended verbatim after everything generated (for broken files).
    void appendRaw(const QByteArray &text);
    // Writes the file; returns its path, empty (with a test warning) on failure.
    QString writeConfig();
    QString configPath() const;
    // CONTROL_SOCKET as configured: run/dispatch.sock in this object's
    // temporary directory (0750, the service account's) unless a test set another.
    QString controlSocket() const;
    // The 1-based line of the file where appendRaw()'s text starts (after writeConfig()).
    int appendedLine() const { return m_appendedLine; }

    // --- the process ---
    // `pepsi-dispatch -c FILE -L DEBUG serve <extra>`; false when it did not start.
    bool start(const QStringList &extraArguments = {});
    // Any command line (for the command-line tests); the config is not written.
    bool startWith(const QStringList &arguments);
    bool isRunning() const;
    qint64 pid() const;
    // The log line `listening`; false when the daemon exited or the time ran out.
    bool waitForReady(int timeoutMs = 15000);
    bool waitForLog(const QRegularExpression &pattern, int timeoutMs = 10000);
    // Waits for the exit; the exit code, or -1 after a crash or the time ran out.
    int waitForExit(int timeoutMs = 15000);
    // SIGTERM (or another signal), then waitForExit().
    int terminate(int timeoutMs = 15000, int signal = 15);
    void kill();

    // Everything the daemon wrote to stderr so far (stdout separately).
    QString log();
    QString standardOutput();
    // Lines of the log that match.
    int countLog(const QRegularExpression &pattern);

    // Live (non-zombie) children of the daemon: its workers. With a stage, only
    // those whose environment names it (PEPSI_STAGE).
    QList<qint64> workerPids(const QString &stage = {}) const;
    // utime + stime of the daemon, in milliseconds.
    qint64 cpuTimeMs() const;

    // /proc helpers, usable on any pid.
    static QString procStatusField(qint64 pid, const QString &field); // "Uid" -> "1000\t1000\t1000\t1000"
    // A size field ("VmRSS", "VmHWM") in KiB; -1 when the process or field is gone.
    static qint64 procStatusKiB(qint64 pid, const QString &field);
    // The process has exited (no /proc entry, or a zombie).
    static bool isGone(qint64 pid);
    static QString environmentValue(qint64 pid, const QByteArray &name);
    // fd number -> link target ("pipe:[123]", "socket:[456]", "/dev/null")
    static QList<QPair<int, QString>> openFiles(qint64 pid);

private:
    void readStderr();
    void readStdout();

    QString m_database;
    QTemporaryDir m_dir;
    QList<QPair<QString, QString>> m_dispatchOptions;
    struct Stage
    {
        QString name;
        QString program;
        Options options;
    };
    QList<Stage> m_stages;
    QByteArray m_raw;
    int m_appendedLine = 0;
    QProcess m_process;
    QByteArray m_log;
    QByteArray m_stdout;
    qint64 m_pid = 0;
};

// Fails the test function that runs it (initTestCase(): the whole program)
// when the daemon or the fake worker under test is not built. A macro: its
// QVERIFY2 must return from that function.
#define PEPSI_REQUIRE_BINARIES()                                                                                       \
    do {                                                                                                               \
        const QString missing_ = DaemonProcess::missingBinaries();                                                     \
        QVERIFY2(missing_.isEmpty(), qPrintable(missing_));                                                            \
    } while (false)
