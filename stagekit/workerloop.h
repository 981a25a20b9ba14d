// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "outcome.h"
#include "stagecontext.h"
#include "workersession.h"

#include <QByteArray>
#include <QByteArrayView>
#include <functional>
#include <optional>

namespace pepsi::stagekit {

using Handler = std::function<Outcome(StageContext &, qint64 id)>;

// What a stage program declares about its handler.
struct WorkerOptions
{
    // Opt-in: commit the ids the worker already holds (every complete line
    // read so far, up to maxBatch) in one transaction, a fused pass's stages
    // with them; answers still go one line per id, in order, after that
    // commit. Only for handlers whose writes all go through the kit's
    // connection, that neither begin nor end transactions, and whose effects
    // outside the database may happen twice: when a statement fails and
    // aborts the transaction, the messages before it in the batch run again
    // (their first writes were rolled back), so the failure stays that one
    // message's.
    bool commitBatches = false;
    int maxBatch = 64;
    // Opt-in, with commitBatches: the batch's moves (advance, advanceTo a
    // stage that does not fuse, finish) are written together, one UPDATE per
    // shape for the batch, just before its commit (MoveBatch). They return
    // ok() when kept; a message whose move then matches nothing is answered
    // with that failure. Only for handlers that return the move's outcome
    // (or act on it only inside the database): its ok() is not yet the write's.
    // Statements run through the context (exec, pause, a fusing advance)
    // write what was kept before them; the raw PGconn does not.
    bool combineMoves = false;
};

// The worker side of the protocol: ids in on stdin, one status line out per
// id, in order, each written as soon as its message is done (with the fused
// stages it ran: "0 +enrich:120"). Plain blocking
// read(2)/write(2): no event loop, nothing to wake but the next id.
class WorkerLoop
{
public:
    WorkerLoop(WorkerSession &session, Handler handler, WorkerOptions options = {});

    // Until end of stdin (0) or a configuration error found late (78).
    int run();

    // "123" -> 123; surrounding blanks and a CR are tolerated, nothing else.
    static std::optional<qint64> parseId(QByteArrayView line);

    // Lines longer than this are not ids: answered as a protocol error.
    static constexpr qsizetype MaxLineBytes = 4096;

private:
    struct Answer
    {
        Outcome outcome;
        QList<FusedReport> fused;
    };

    // false: stop with m_exitCode. Ids are collected, then run by flush().
    bool handleLine(QByteArrayView line);
    // Runs and answers the ids collected so far.
    bool flush();
    // Autocommit: one message, its answer written when it is done.
    bool runOne(qint64 id);
    // commitBatches: ids in one transaction; a statement that aborts it
    // isolates its own message (the ones before it run again).
    bool runBatch(QList<qint64> ids);
    // Connects (or resets) before a message or batch; false: stop (78), or
    // *unavailable set to the 75 answer.
    bool ready(std::optional<Outcome> *unavailable);
    // The message's own stage, then every stage fused into the pass.
    Outcome handleId(qint64 id, QList<FusedReport> *fused);
    bool answer(const Outcome &outcome, const QList<FusedReport> &fused = {});
    bool answer(const QList<Answer> &answers);

    WorkerSession &m_session;
    Handler m_handler;
    WorkerOptions m_options;
    QList<qint64> m_pending;
    int m_exitCode = 0;
};

} // namespace pepsi::stagekit
