// SPDX-License-Identifier: AGPL-3.0-or-later
// pepsi-fakeworker: a stage program for tests. Per message it reads
// state.fake.<stage> of the row (default "ok") and behaves accordingly:
//
//   ok              advance
//   slow:MS         sleep MS milliseconds, then advance
//   fail:CODE       answer "CODE fake failure" (the row is not written)
//   tempfail        answer "75 fake try later" (not written)
//   tempfail-once   like tempfail, unless state.dispatch_error already starts
//                   with "status 75" (the dispatcher paused it for a 75 once):
//                   then advance. A 75 answer must not write, so the
//                   dispatcher's own record is the only memory it has.
//   pause:MS        pause the row for MS milliseconds ("fake pause"), answer 0
//   pause-once:MS   like pause:MS, also setting state.paused.<stage> = true;
//                   when that is already set: advance
//   crash           abort() without answering (no core file)
//   exit:N          _exit(N) without answering
//   hang            sleep until killed (SIGTERM ends it)
//   ignore-sigterm  ignore SIGTERM, then hang (only SIGKILL ends it)
//   garbage         write "this is not a status line", then read and drop
//                   stdin until EOF (exit 0) or SIGTERM: later ids never run
//   commit-crash    advance (committed), then _exit(3) without answering
//   commit-crash:MS the same, sleeping MS milliseconds between the two
//   stderr          write "fake stderr line for <id>" to stderr, then advance
//   drop-input      put a pipe nobody writes to in place of stdin, then
//                   advance: it lives on, answered, but never reads the
//                   dispatcher's ids again (they get EPIPE)
//   fds             store this process's open fds in state.fds.<stage>, then advance
//   grandchild      start a grandchild ("sleep 600", in this process's group,
//                   holding its stdin, stdout and stderr), append its pid and a
//                   newline to the file $PEPSI_FAKE_GRANDCHILDREN, then advance
//   grandchild-kill the same, then SIGKILL itself without answering
//   grandchild-hang the same, then hang (SIGTERM ends it; the grandchild stays
//                   unless its group is signalled)
//   sql-error       advance, then run a statement that fails (division by
//                   zero): answers "1 database error: ..."; in a batch it
//                   aborts the kit's transaction
//
// Hostile output (doc/stage-programs.rst, "The fake worker"). The raw bytes go out before the kit's own
// "3 fake failure" answer, on the same line, so the line reads
// "3 <raw> / 3 fake failure":
//   nul-reason      <raw> = "bad<NUL>reason"
//   bad-utf8        <raw> = "bad \xff\xfe utf-8 \x1b[0m" (invalid UTF-8, an escape)
//   long-reason:N   <raw> = N bytes of 'r'
//   stdout-flood:N  write N bytes of 'x' to stdout without a newline, ignoring
//                   SIGTERM, then hang: only SIGKILL ends it
//   stderr-flood:N  write N lines to stderr ("fake flood line K"), then advance
//
// At start, before the kit reads anything, PEPSI_FAKE_START (a list of
// STAGE=MODE, comma-separated) applies MODE to the worker of STAGE:
//   exit:N          write "pepsi-fakeworker: exiting with status N at start"
//                   to stderr and exit N (78: bad configuration, 127: missing)
//   sleep:MS        sleep MS milliseconds first (a slow start-up)
//
// PEPSI_FAKE_COMMIT_BATCHES=1 opts in to the kit's WorkerOptions::commitBatches,
// PEPSI_FAKE_COMBINE_MOVES=1 (with it) to WorkerOptions::combineMoves.
//
// Every write it makes (advance, pause) also sets state.runs.<stage> += 1 and
// state.pids.<stage> = its pid, in the same UPDATE. An unknown mode answers
// "2 fake: unknown mode ...".
#include "stagekit.h"

#include <QJsonArray>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>

using namespace pepsi::stagekit;

namespace {

[[noreturn]] void hangForever()
{
    for (;;)
        ::pause();
}

[[noreturn]] void swallowStdin()
{
    char buffer[4096];
    for (;;) {
        const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
        if (n == 0 || (n < 0 && errno != EINTR))
            ::_exit(0);
    }
}

void writeOut(int fd, const QByteArray &text) { (void)!::write(fd, text.constData(), size_t(text.size())); }

QJsonArray openFds()
{
    QJsonArray fds;
    DIR *dir = ::opendir("/proc/self/fd");
    if (!dir)
        return fds;
    const int own = ::dirfd(dir);
    while (const dirent *entry = ::readdir(dir)) {
        bool ok = false;
        const int fd = QByteArray(entry->d_name).toInt(&ok);
        if (ok && fd != own)
            fds.append(fd);
    }
    ::closedir(dir);
    return fds;
}

// A "sleep 600" in our process group with our stdin, stdout and stderr: a
// stage program's helper. Its pid goes to $PEPSI_FAKE_GRANDCHILDREN.
QByteArray startGrandchild()
{
    const QByteArray file = qgetenv("PEPSI_FAKE_GRANDCHILDREN");
    if (file.isEmpty())
        return "PEPSI_FAKE_GRANDCHILDREN is not set";
    const pid_t pid = ::fork();
    if (pid < 0)
        return std::strerror(errno);
    if (pid == 0) {
        ::execlp("sleep", "sleep", "600", static_cast<char *>(nullptr));
        ::_exit(127);
    }
    const int fd = ::open(file.constData(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0)
        return file + ": " + std::strerror(errno);
    writeOut(fd, QByteArray::number(pid) + '\n');
    ::close(fd);
    return {};
}

// "slow:20" -> 20; -1 when the argument is missing or not a number
long long argumentOf(const QByteArray &mode)
{
    const qsizetype colon = mode.indexOf(':');
    bool ok = false;
    const long long value = colon < 0 ? -1 : mode.mid(colon + 1).toLongLong(&ok);
    return ok ? value : -1;
}

// The raw start of a status line; the kit's answer completes it.
Outcome rawPrefix(const QByteArray &raw)
{
    writeOut(STDOUT_FILENO, "3 " + raw + " / ");
    return Outcome::fail(3, "fake failure");
}

void writeFlood(int fd, long long bytes, char fill)
{
    const QByteArray chunk(64 * 1024, fill);
    for (long long left = bytes; left > 0;) {
        const ssize_t n = ::write(fd, chunk.constData(), size_t(std::min<long long>(left, chunk.size())));
        if (n < 0 && errno != EINTR)
            return;
        if (n > 0)
            left -= n;
    }
}

// PEPSI_FAKE_START for this stage, before the kit starts.
void startUp()
{
    const QByteArray stage = qgetenv("PEPSI_STAGE");
    for (const QByteArray &entry : qgetenv("PEPSI_FAKE_START").split(',')) {
        const qsizetype eq = entry.indexOf('=');
        if (eq < 0 || entry.first(eq) != stage)
            continue;
        const QByteArray mode = entry.sliced(eq + 1);
        const long long argument = argumentOf(mode);
        if (mode.startsWith("exit:") && argument >= 0) {
            writeOut(STDERR_FILENO,
                     "pepsi-fakeworker: exiting with status " + QByteArray::number(argument) + " at start\n");
            ::_exit(int(argument));
        }
        if (mode.startsWith("sleep:") && argument >= 0)
            std::this_thread::sleep_for(std::chrono::milliseconds(argument));
    }
}

Outcome handle(StageContext &ctx, qint64 id)
{
    const QByteArray stage = ctx.stage().toUtf8();
    const QueryResult row = ctx.exec("SELECT state->'fake'->>$2, "
                                     "coalesce(state->>'dispatch_error' LIKE 'status 75%', false), "
                                     "coalesce(state->'paused'->>$2 = 'true', false) "
                                     "FROM workqueue WHERE workqueue_id = $1",
                                     {QByteArray::number(id), stage});
    if (!row.ok())
        return row.error;
    QByteArray mode = row.rows() > 0 ? row.value(0, 0) : QByteArray();
    if (mode.isEmpty())
        mode = "ok";
    const QByteArray kind = mode.left(mode.indexOf(':') < 0 ? mode.size() : mode.indexOf(':'));
    const long long argument = argumentOf(mode);
    const bool triedLater = row.rows() > 0 && row.value(0, 1) == "t";
    const bool pausedHere = row.rows() > 0 && row.value(0, 2) == "t";

    const StateUpdate record = StateUpdate()
                                   .increment({QStringLiteral("runs"), ctx.stage()})
                                   .set({QStringLiteral("pids"), ctx.stage()}, qint64(::getpid()));

    if (kind == "ok")
        return ctx.advance(id, record);
    if (kind == "slow" && argument >= 0) {
        std::this_thread::sleep_for(std::chrono::milliseconds(argument));
        return ctx.advance(id, record);
    }
    if (kind == "fail" && argument != -1)
        return Outcome::fail(int(argument), "fake failure");
    if (kind == "tempfail")
        return Outcome::tryLater("fake try later");
    if (kind == "tempfail-once")
        return triedLater ? ctx.advance(id, record) : Outcome::tryLater("fake try later");
    if (kind == "pause" && argument >= 0)
        return ctx.pause(id, std::chrono::milliseconds(argument), "fake pause", record);
    if (kind == "pause-once" && argument >= 0) {
        if (pausedHere)
            return ctx.advance(id, record);
        StateUpdate marked = record;
        marked.set({QStringLiteral("paused"), ctx.stage()}, true);
        return ctx.pause(id, std::chrono::milliseconds(argument), "fake pause", marked);
    }
    if (kind == "crash") {
        const rlimit noCore{0, 0};
        ::setrlimit(RLIMIT_CORE, &noCore);
        std::abort();
    }
    if (kind == "exit" && argument >= 0)
        ::_exit(int(argument));
    if (kind == "hang")
        hangForever();
    if (kind == "drop-input") {
        int unused[2];
        if (::pipe(unused) != 0 || ::dup2(unused[0], STDIN_FILENO) < 0)
            return Outcome::fail(2, "fake: drop-input: " + QByteArray(std::strerror(errno)));
        return ctx.advance(id, record);
    }
    if (kind == "ignore-sigterm") {
        std::signal(SIGTERM, SIG_IGN);
        hangForever();
    }
    if (kind == "garbage") {
        writeOut(STDOUT_FILENO, "this is not a status line\n");
        swallowStdin();
    }
    if (kind == "commit-crash") {
        ctx.advance(id, record);
        if (argument > 0) // the next stage may claim the row meanwhile
            std::this_thread::sleep_for(std::chrono::milliseconds(argument));
        ::_exit(3);
    }
    if (kind == "stderr") {
        writeOut(STDERR_FILENO, "fake stderr line for " + QByteArray::number(id) + '\n');
        return ctx.advance(id, record);
    }
    if (kind == "nul-reason")
        return rawPrefix(QByteArray("bad\0reason", 10));
    if (kind == "bad-utf8")
        return rawPrefix("bad \xff\xfe utf-8 \x1b[0m");
    if (kind == "long-reason" && argument >= 0)
        return rawPrefix(QByteArray(qsizetype(argument), 'r'));
    if (kind == "stdout-flood" && argument >= 0) {
        std::signal(SIGTERM, SIG_IGN);
        // Ignoring SIGTERM, it would outlive a dispatcher that dies meanwhile.
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        writeFlood(STDOUT_FILENO, argument, 'x');
        hangForever();
    }
    if (kind == "stderr-flood" && argument >= 0) {
        QByteArray lines;
        for (long long i = 0; i < argument; ++i) {
            lines += "fake flood line " + QByteArray::number(i) + '\n';
            if (lines.size() > 60000 || i + 1 == argument) {
                writeOut(STDERR_FILENO, lines);
                lines.clear();
            }
        }
        return ctx.advance(id, record);
    }
    if (kind == "sql-error") {
        if (const Outcome advanced = ctx.advance(id, record); !advanced.isOk())
            return advanced;
        const QueryResult failed = ctx.exec("SELECT 1 / (0 * $1::bigint)", {QByteArray::number(id)});
        return failed.ok() ? Outcome::fail(2, "fake: division by zero did not fail") : failed.error;
    }
    if (kind == "grandchild" || kind == "grandchild-kill" || kind == "grandchild-hang") {
        if (const QByteArray error = startGrandchild(); !error.isEmpty())
            return Outcome::fail(2, "fake: grandchild: " + error);
        if (kind == "grandchild-kill")
            ::kill(::getpid(), SIGKILL);
        if (kind == "grandchild-hang")
            hangForever();
        return ctx.advance(id, record);
    }
    if (kind == "fds") {
        StateUpdate withFds = record;
        withFds.set({QStringLiteral("fds"), ctx.stage()}, openFds());
        return ctx.advance(id, withFds);
    }
    return Outcome::fail(2, "fake: unknown mode \"" + mode + '"');
}

} // namespace

int main(int argc, char **argv)
{
    startUp();
    WorkerOptions options;
    options.commitBatches = qEnvironmentVariableIntValue("PEPSI_FAKE_COMMIT_BATCHES") == 1;
    options.combineMoves = qEnvironmentVariableIntValue("PEPSI_FAKE_COMBINE_MOVES") == 1;
    return runWorker(argc, argv, Setup(), handle, options);
}
