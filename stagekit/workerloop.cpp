// SPDX-License-Identifier: AGPL-3.0-or-later
#include "workerloop.h"

#include "protocol/decimal.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <unistd.h>

namespace pepsi::stagekit {

namespace {

constexpr int ProtocolError = 65; // EX_DATAERR

bool writeAll(int fd, const QByteArray &data)
{
    const char *p = data.constData();
    qsizetype left = data.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, p, size_t(left));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        p += n;
        left -= n;
    }
    return true;
}

Outcome tooLong()
{
    return Outcome::fail(ProtocolError,
                         "protocol error: line longer than " + QByteArray::number(WorkerLoop::MaxLineBytes) + " bytes");
}

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

} // namespace

WorkerLoop::WorkerLoop(WorkerSession &session, Handler handler, WorkerOptions options)
    : m_session(session)
    , m_handler(std::move(handler))
    , m_options(options)
{
    m_options.maxBatch = m_options.commitBatches ? qMax(1, m_options.maxBatch) : 1;
}

std::optional<qint64> WorkerLoop::parseId(QByteArrayView line)
{
    while (!line.isEmpty() && isBlank(line.front()))
        line = line.sliced(1);
    while (!line.isEmpty() && isBlank(line.back()))
        line.chop(1);
    return parseDecimal(line);
}

int WorkerLoop::run()
{
    QByteArray buffer;
    bool discarding = false; // inside an over-long line, until its newline
    char chunk[65536];
    for (;;) {
        const ssize_t n = ::read(STDIN_FILENO, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            logLine("cannot read stdin: " + QByteArray(strerror(errno)));
            return 1;
        }
        if (n == 0)
            break;
        buffer.append(chunk, n);

        qsizetype start = 0;
        for (qsizetype nl; (nl = buffer.indexOf('\n', start)) >= 0; start = nl + 1) {
            if (discarding) {
                discarding = false;
                continue;
            }
            if (!handleLine(QByteArrayView(buffer).sliced(start, nl - start)))
                return m_exitCode;
        }
        // What this read brought is what the worker holds now: run it before
        // waiting for more.
        if (!flush())
            return m_exitCode;
        buffer.remove(0, start);
        if (!discarding && buffer.size() > MaxLineBytes) {
            if (!answer(tooLong()))
                return 1;
            discarding = true;
        }
        if (discarding)
            buffer.clear();
    }
    // End of stdin: what was handed over is finished, an unterminated last
    // line included, then the worker is done.
    if (!buffer.isEmpty() && !discarding && !handleLine(buffer))
        return m_exitCode;
    return flush() ? 0 : m_exitCode;
}

bool WorkerLoop::handleLine(QByteArrayView line)
{
    // A bad line is answered in its place: what came before it first.
    if (line.size() > MaxLineBytes)
        return flush() && answer(tooLong());
    const std::optional<qint64> id = parseId(line);
    if (!id)
        return flush() && answer(Outcome::fail(ProtocolError, "protocol error: bad id \"" + line.toByteArray() + '"'));
    m_pending.append(*id);
    return m_pending.size() < m_options.maxBatch || flush();
}

bool WorkerLoop::flush()
{
    const QList<qint64> ids = std::exchange(m_pending, {});
    if (m_options.commitBatches)
        return ids.isEmpty() || runBatch(ids);
    for (qint64 id : ids) {
        if (!runOne(id))
            return false;
    }
    return true;
}

bool WorkerLoop::ready(std::optional<Outcome> *unavailable)
{
    QByteArray reason;
    switch (m_session.prepare(&reason)) {
    case WorkerSession::State::Fatal:
        logLine(reason);
        m_exitCode = 78;
        return false;
    case WorkerSession::State::Unavailable:
        *unavailable = Outcome::tryLater(reason);
        return true;
    case WorkerSession::State::Ready:
        break;
    }
    return true;
}

bool WorkerLoop::runOne(qint64 id)
{
    std::optional<Outcome> unavailable;
    if (!ready(&unavailable))
        return false;
    if (unavailable)
        return answer(*unavailable);
    QList<FusedReport> fused;
    const Outcome outcome = handleId(id, &fused);
    return answer(outcome, fused);
}

bool WorkerLoop::runBatch(QList<qint64> ids)
{
    while (!ids.isEmpty()) {
        std::optional<Outcome> unavailable;
        if (!ready(&unavailable))
            return false;
        if (unavailable)
            return answer(QList<Answer>(ids.size(), Answer{*unavailable, {}}));

        PgConnection &connection = m_session.connection();
        MoveBatch &batch = m_session.batch();
        if (const Outcome opened = batch.open(m_options.combineMoves); !opened.isOk()) {
            m_session.checkConnection();
            return answer(QList<Answer>(ids.size(), Answer{opened, {}}));
        }
        QList<Answer> answers;
        answers.reserve(ids.size());
        Answer broken; // the message whose statement ended the transaction
        for (qint64 id : std::as_const(ids)) {
            Answer each;
            each.outcome = handleId(id, &each.fused);
            if (!batch.isUsable()) {
                broken = std::move(each);
                break;
            }
            answers.append(std::move(each));
        }

        if (answers.size() < ids.size()) {
            // Message k's statement aborted the transaction (or the handler
            // ended it, or the connection went): k's answer is its own
            // failure; the ones before it lost their writes and run again.
            const qsizetype k = answers.size();
            const bool others = batch.failedForOthers(ids.at(k));
            batch.abandon();
            m_session.checkConnection();
            if (others && connection.isUsable()) {
                // The statement wrote moves kept for the messages before k as
                // well: whose failure it is shows when each runs alone.
                for (qint64 id : ids.first(k + 1)) {
                    if (!runBatch({id}))
                        return false;
                }
                ids = ids.sliced(k + 1);
                continue;
            }
            if (broken.outcome.isOk()) {
                broken.outcome = connection.isUsable()
                    ? Outcome::fail(1,
                                    "stage kit: the transaction of message " + QByteArray::number(ids.at(k))
                                        + " was aborted or ended by its handler")
                    : Outcome::tryLater("database connection lost: " + connection.lastError());
            }
            broken.fused.clear();
            if (k > 0 && !runBatch(ids.first(k)))
                return false;
            if (!answer(broken.outcome))
                return false;
            ids = ids.sliced(k + 1);
            continue;
        }

        const Outcome committed = batch.finish();
        m_session.checkConnection();
        if (committed.isOk()) {
            // A kept move that matched nothing fails its message, as the
            // same move written at once would have.
            for (qsizetype i = 0; i < answers.size(); ++i) {
                const QByteArray missed = batch.missedAt(ids.at(i));
                if (!missed.isEmpty() && answers.at(i).outcome.isOk())
                    answers[i] = Answer{notRunningAt(ids.at(i), missed), {}};
            }
            return answer(answers);
        }
        // A lost connection or a transient fault is every message's 75; any
        // other failure at commit (a deferred constraint, or the combined
        // moves' statement) is one message's, and which one shows when each
        // commits alone.
        if (committed.code == Outcome::TryLater || ids.size() == 1)
            return answer(QList<Answer>(ids.size(), Answer{committed, {}}));
        for (qint64 id : std::as_const(ids)) {
            if (!runBatch({id}))
                return false;
        }
        return true;
    }
    return true;
}

Outcome WorkerLoop::handleId(qint64 id, QList<FusedReport> *fused)
{
    StageContext *context = &m_session.context();
    Outcome outcome = m_handler(*context, id);
    // Fusion: the handler left the row running at a successor this worker
    // runs too; run it now, and so on down a chain of fused stages. A fused
    // handler's failure is the answer (the row is running at its stage).
    for (QString next = context->takeFusedStage(); !next.isEmpty() && outcome.isOk();
         next = context->takeFusedStage()) {
        context = m_session.fusedContext(next);
        if (!context) { // fusesInto() and the session's contexts disagree: a kit bug
            outcome = Outcome::fail(1, "stage kit: no context for fused stage " + next.toUtf8());
            break;
        }
        const auto start = std::chrono::steady_clock::now();
        outcome = m_handler(*context, id);
        const auto usec =
            std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start);
        if (outcome.isOk())
            fused->append({next.toUtf8(), qint64(usec.count())});
    }

    PgConnection &connection = m_session.connection();
    // A failure on a connection that is now gone was most likely caused by
    // losing it: that is a passing fault, not the message's.
    if (!outcome.isOk() && outcome.code != Outcome::TryLater && !connection.isUsable())
        outcome = Outcome::tryLater("database connection lost: " + connection.lastError());
    m_session.checkConnection();
    return outcome;
}

bool WorkerLoop::answer(const QList<Answer> &answers)
{
    // one write for the batch: one wake-up of the dispatcher
    QByteArray lines;
    for (const Answer &each : answers)
        lines += each.outcome.statusLine(each.fused);
    if (lines.isEmpty() || writeAll(STDOUT_FILENO, lines))
        return true;
    m_exitCode = 1;
    return false;
}

bool WorkerLoop::answer(const Outcome &outcome, const QList<FusedReport> &fused)
{
    if (writeAll(STDOUT_FILENO, outcome.statusLine(fused)))
        return true;
    // the dispatcher is gone (with SIGPIPE ignored): nobody is left to answer
    m_exitCode = 1;
    return false;
}

} // namespace pepsi::stagekit
