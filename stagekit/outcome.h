// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QList>

namespace pepsi::stagekit {

// A stage the worker ran in the same pass as the message's own (fusion), and
// how long its handler took.
struct FusedReport
{
    QByteArray stage;
    qint64 usec = 0;
};

// What a stage answers for one message: the status line the dispatcher reads.
// 0 = success (the stage has committed its write); 75 = try later (EX_TEMPFAIL,
// the dispatcher pauses the message for TEMPFAIL_DELAY); anything else fails it.
struct Outcome
{
    static constexpr int TryLater = 75;

    int code = 0;
    QByteArray reason;

    bool isOk() const { return code == 0; }

    static Outcome ok() { return {}; }
    // A zero code would read as success: it is turned into 1.
    static Outcome fail(int code, QByteArray reason) { return {code == 0 ? 1 : code, std::move(reason)}; }
    static Outcome tryLater(QByteArray reason) { return {TryLater, std::move(reason)}; }

    // "0\n" or "CODE REASON\n": control characters in the reason become spaces
    // and it is cut to MaxReasonBytes (at a UTF-8 character boundary). On
    // success the fused stages follow: "0 +enrich:120 +score:80\n".
    QByteArray statusLine(const QList<FusedReport> &fused = {}) const;

    static constexpr qsizetype MaxReasonBytes = 1000;
};

} // namespace pepsi::stagekit
