// SPDX-License-Identifier: AGPL-3.0-or-later
#include "daemonprocess.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <csignal>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace {

// The fields after "pid (comm) ": state is [0], ppid [1], utime [11], stime [12].
// comm may hold spaces and parentheses, so split after the last ')'.
QList<QByteArray> statFields(qint64 pid)
{
    QFile file(u"/proc/%1/stat"_s.arg(pid));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QByteArray text = file.readAll();
    const qsizetype close = text.lastIndexOf(')');
    if (close < 0)
        return {};
    return text.mid(close + 2).trimmed().split(' ');
}

QByteArray readWhole(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// Runs the event loop until the daemon writes, exits, or the deadline passes.
void waitForActivity(QProcess &process, QDeadlineTimer deadline)
{
    QEventLoop loop;
    QTimer timer;
    timer.setSingleShot(true);
    QObject::connect(&timer, &QTimer::timeout, &loop, &QEventLoop::quit);
    QObject::connect(&process, &QProcess::readyReadStandardError, &loop, &QEventLoop::quit);
    QObject::connect(&process, &QProcess::readyReadStandardOutput, &loop, &QEventLoop::quit);
    QObject::connect(&process, &QProcess::finished, &loop, &QEventLoop::quit);
    timer.start(int(std::max<qint64>(1, deadline.remainingTime())));
    loop.exec();
}

} // namespace

DaemonProcess::DaemonProcess(const QString &database, QObject *parent)
    : QObject(parent)
    , m_database(database)
{
    // Started as root, the daemon drops to the service account, and its
    // workers read CONFIG_FILE as that account: the directory must let it in.
    ::chmod(QFile::encodeName(m_dir.path()).constData(), 0755);
    const QString run = m_dir.filePath(u"run"_s);
    QDir().mkpath(run);
    ::chmod(QFile::encodeName(run).constData(), 0750);
    if (runningAsRoot()) {
        if (const passwd *account = ::getpwnam(serviceUser().toLocal8Bit().constData()))
            (void)!::chown(QFile::encodeName(run).constData(), account->pw_uid, account->pw_gid);
    }
    // Through setOption() so that a test can override them.
    setOption(u"CONFIG_FILE"_s, configPath());
    setOption(u"USER"_s, serviceUser());
    setOption(u"CONTROL_SOCKET"_s, m_dir.filePath(u"run/dispatch.sock"_s));
    m_process.setProgram(daemonBinary());
    connect(&m_process, &QProcess::readyReadStandardError, this, &DaemonProcess::readStderr);
    connect(&m_process, &QProcess::readyReadStandardOutput, this, &DaemonProcess::readStdout);
}

DaemonProcess::~DaemonProcess()
{
    if (isRunning()) {
        m_process.kill();
        m_process.waitForFinished(5000);
    }
    if (QTest::currentTestFailed()) {
        readStderr();
        const QByteArrayList lines = m_log.split('\n');
        const qsizetype from = std::max<qsizetype>(0, lines.size() - 120);
        qWarning("pepsi-dispatch (pid %lld) log, last %lld lines:", m_pid, qint64(lines.size() - from));
        for (qsizetype i = from; i < lines.size(); ++i)
            qWarning("  | %s", lines[i].constData());
    }
}

QString DaemonProcess::buildDir()
{
    const QString fromEnvironment = qEnvironmentVariable("PEPSI_BUILD_DIR");
    return fromEnvironment.isEmpty() ? QStringLiteral(PEPSI_DEFAULT_BUILD_DIR) : fromEnvironment;
}

QString DaemonProcess::daemonBinary() { return buildDir() + u"/daemon/pepsi-dispatch"_s; }

QString DaemonProcess::fakeWorker() { return buildDir() + u"/tests/fakeworker/pepsi-fakeworker"_s; }

QString DaemonProcess::exampleStage() { return buildDir() + u"/stagekit/pepsi-stage-example"_s; }

QString DaemonProcess::serviceUser()
{
    const QString fromEnvironment = qEnvironmentVariable("PEPSI_TEST_USER");
    return fromEnvironment.isEmpty() ? u"pepsi"_s : fromEnvironment;
}

bool DaemonProcess::runningAsRoot() { return ::geteuid() == 0; }

void DaemonProcess::setOption(const QString &option, const QString &value)
{
    for (auto &entry : m_dispatchOptions) {
        if (entry.first.compare(option, Qt::CaseInsensitive) == 0) {
            entry.second = value;
            return;
        }
    }
    m_dispatchOptions.append({option, value});
}

void DaemonProcess::addStage(const QString &name, const QString &program, const Options &options)
{
    m_stages.append(Stage{name, program, options});
}

void DaemonProcess::setStageOption(const QString &stage, const QString &option, const QString &value)
{
    for (Stage &each : m_stages) {
        if (each.name != stage)
            continue;
        for (auto &entry : each.options) {
            if (entry.first.compare(option, Qt::CaseInsensitive) == 0) {
                entry.second = value;
                return;
            }
        }
        each.options.append({option, value});
        return;
    }
    qWarning("setStageOption: no stage %s", qPrintable(stage));
}

void DaemonProcess::setStageProgram(const QString &stage, const QString &program)
{
    for (Stage &each : m_stages) {
        if (each.name == stage)
            each.program = program;
    }
}

void DaemonProcess::appendRaw(const QByteArray &text) { m_raw += text; }

QString DaemonProcess::configPath() const { return m_dir.filePath(u"pepsi.conf"_s); }

QString DaemonProcess::controlSocket() const
{
    for (const auto &[option, value] : m_dispatchOptions) {
        if (option.compare(u"CONTROL_SOCKET"_s, Qt::CaseInsensitive) == 0)
            return value;
    }
    return {};
}

QString DaemonProcess::writeConfig()
{
    QByteArray text = "# written by DaemonProcess for " + QByteArray(QTest::currentTestFunction()) + "\n";
    text += "[pepsi]\nDATABASE = " + m_database.toUtf8() + "\n\n";
    text += "[pepsi-dispatch]\n";
    for (const auto &[option, value] : std::as_const(m_dispatchOptions))
        text += option.toUtf8() + " = " + value.toUtf8() + '\n';
    for (const Stage &stage : std::as_const(m_stages)) {
        text += "\n[stage-" + stage.name.toUtf8() + "]\nPROGRAM = " + stage.program.toUtf8() + '\n';
        for (const auto &[option, value] : stage.options)
            text += option.toUtf8() + " = " + value.toUtf8() + '\n';
    }
    text += '\n';
    m_appendedLine = int(text.count('\n')) + 1;
    text += m_raw;

    QFile file(configPath());
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(text) != text.size()) {
        qWarning("cannot write %s: %s", qPrintable(configPath()), qPrintable(file.errorString()));
        return {};
    }
    file.close();
    ::chmod(QFile::encodeName(configPath()).constData(), 0644);
    return configPath();
}

bool DaemonProcess::start(const QStringList &extraArguments)
{
    const QString path = writeConfig();
    if (path.isEmpty())
        return false;
    if (runningAsRoot() && !::getpwnam(serviceUser().toLocal8Bit().constData()))
        qWarning("the service account \"%s\" does not exist: the daemon will refuse to start "
                 "(scripts/test creates it; or set PEPSI_TEST_USER)",
                 qPrintable(serviceUser()));
    return startWith(QStringList{u"-c"_s, path, u"-L"_s, u"DEBUG"_s, u"serve"_s} + extraArguments);
}

bool DaemonProcess::startWith(const QStringList &arguments)
{
    m_log.clear();
    m_stdout.clear();
    m_process.setArguments(arguments);
    m_process.start();
    if (!m_process.waitForStarted(10000)) {
        qWarning("cannot start %s: %s", qPrintable(daemonBinary()), qPrintable(m_process.errorString()));
        return false;
    }
    m_pid = m_process.processId();
    return true;
}

bool DaemonProcess::isRunning() const { return m_process.state() != QProcess::NotRunning; }

qint64 DaemonProcess::pid() const { return m_pid; }

void DaemonProcess::readStderr() { m_log += m_process.readAllStandardError(); }

void DaemonProcess::readStdout() { m_stdout += m_process.readAllStandardOutput(); }

QString DaemonProcess::log()
{
    readStderr();
    return QString::fromUtf8(m_log);
}

QString DaemonProcess::standardOutput()
{
    readStdout();
    return QString::fromUtf8(m_stdout);
}

int DaemonProcess::countLog(const QRegularExpression &pattern)
{
    int count = 0;
    const QStringList lines = log().split(u'\n');
    for (const QString &line : lines) {
        if (pattern.match(line).hasMatch())
            ++count;
    }
    return count;
}

bool DaemonProcess::waitForLog(const QRegularExpression &pattern, int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    for (;;) {
        if (pattern.match(log()).hasMatch())
            return true;
        if (!isRunning() || deadline.hasExpired())
            return pattern.match(log()).hasMatch();
        waitForActivity(m_process, deadline);
    }
}

bool DaemonProcess::waitForReady(int timeoutMs)
{
    return waitForLog(QRegularExpression(u"\\blistening\\b"_s), timeoutMs);
}

int DaemonProcess::waitForExit(int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    while (isRunning() && !deadline.hasExpired())
        waitForActivity(m_process, deadline);
    if (isRunning())
        return -1;
    readStderr();
    readStdout();
    return m_process.exitStatus() == QProcess::NormalExit ? m_process.exitCode() : -1;
}

int DaemonProcess::terminate(int timeoutMs, int signal)
{
    if (isRunning())
        ::kill(pid_t(m_pid), signal);
    return waitForExit(timeoutMs);
}

void DaemonProcess::kill()
{
    if (!isRunning())
        return;
    m_process.kill();
    m_process.waitForFinished(5000);
}

QList<qint64> DaemonProcess::workerPids(const QString &stage) const
{
    QList<qint64> pids;
    if (m_pid <= 0 || !isRunning())
        return pids;
    const QByteArray parent = QByteArray::number(m_pid);
    const QStringList entries = QDir(u"/proc"_s).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &entry : entries) {
        bool numeric = false;
        const qint64 pid = entry.toLongLong(&numeric);
        if (!numeric)
            continue;
        const QList<QByteArray> fields = statFields(pid);
        if (fields.size() < 2 || fields[1] != parent || fields[0] == "Z" || fields[0] == "X")
            continue;
        if (!stage.isEmpty() && environmentValue(pid, "PEPSI_STAGE") != stage)
            continue;
        pids.append(pid);
    }
    return pids;
}

qint64 DaemonProcess::cpuTimeMs() const
{
    const QList<QByteArray> fields = statFields(m_pid);
    if (fields.size() < 13)
        return -1;
    const qint64 ticks = fields[11].toLongLong() + fields[12].toLongLong();
    return ticks * 1000 / ::sysconf(_SC_CLK_TCK);
}

QString DaemonProcess::procStatusField(qint64 pid, const QString &field)
{
    const QByteArrayList lines = readWhole(u"/proc/%1/status"_s.arg(pid)).split('\n');
    const QByteArray prefix = field.toUtf8() + ':';
    for (const QByteArray &line : lines) {
        if (line.startsWith(prefix))
            return QString::fromUtf8(line.mid(prefix.size())).trimmed();
    }
    return {};
}

qint64 DaemonProcess::procStatusKiB(qint64 pid, const QString &field)
{
    const QString value = procStatusField(pid, field); // "12345 kB"
    return value.isEmpty() ? -1 : value.section(u' ', 0, 0).toLongLong();
}

QString DaemonProcess::environmentValue(qint64 pid, const QByteArray &name)
{
    const QByteArrayList entries = readWhole(u"/proc/%1/environ"_s.arg(pid)).split('\0');
    const QByteArray prefix = name + '=';
    for (const QByteArray &entry : entries) {
        if (entry.startsWith(prefix))
            return QString::fromLocal8Bit(entry.mid(prefix.size()));
    }
    return {};
}

QList<QPair<int, QString>> DaemonProcess::openFiles(qint64 pid)
{
    QList<QPair<int, QString>> files;
    const QString dir = u"/proc/%1/fd"_s.arg(pid);
    const QStringList entries = QDir(dir).entryList(QDir::AllEntries | QDir::System | QDir::NoDotAndDotDot);
    for (const QString &entry : entries) {
        char target[4096];
        const QByteArray link = QFile::encodeName(dir + u'/' + entry);
        const ssize_t n = ::readlink(link.constData(), target, sizeof target - 1);
        if (n < 0)
            continue; // closed meanwhile
        files.append({entry.toInt(), QString::fromLocal8Bit(target, n)});
    }
    std::sort(files.begin(), files.end());
    return files;
}

QString DaemonProcess::missingBinaries()
{
    QStringList missing;
    for (const QString &binary : {daemonBinary(), fakeWorker()}) {
        if (!QFile::exists(binary))
            missing << binary;
    }
    return missing.isEmpty() ? QString() : missing.join(u", "_s) + u" missing: is PEPSI_BUILD_DIR set, and built?"_s;
}

bool DaemonProcess::isGone(qint64 pid)
{
    QFile stat(u"/proc/%1/stat"_s.arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return true;
    const QByteArray text = stat.readAll();
    const qsizetype close = text.lastIndexOf(')');
    return close >= 0 && (text.mid(close + 2, 1) == "Z" || text.mid(close + 2, 1) == "X");
}
