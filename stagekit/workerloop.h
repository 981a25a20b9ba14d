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

// The worker side of the protocol: ids in on stdin, one status line out per
// id, in order, each written as soon as its message is done (with the fused
// stages it ran: "0 +enrich:120"). Plain blocking
// read(2)/write(2): no event loop, nothing to wake but the next id.
class WorkerLoop
{
public:
    WorkerLoop(WorkerSession &session, Handler handler);

    // Until end of stdin (0) or a configuration error found late (78).
    int run();

    // "123" -> 123; surrounding blanks and a CR are tolerated, nothing else.
    static std::optional<qint64> parseId(QByteArrayView line);

    // Lines longer than this are not ids: answered as a protocol error.
    static constexpr qsizetype MaxLineBytes = 4096;

private:
    // false: stop with m_exitCode
    bool handleLine(QByteArrayView line);
    // The message's own stage, then every stage fused into the pass.
    Outcome handleId(qint64 id, QList<FusedReport> *fused);
    bool answer(const Outcome &outcome, const QList<FusedReport> &fused = {});

    WorkerSession &m_session;
    Handler m_handler;
    int m_exitCode = 0;
};

} // namespace pepsi::stagekit
