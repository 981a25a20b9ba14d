// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "result.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>

namespace pepsi {

// One line a worker writes per message id (see doc/stage-programs.rst):
//   "0"                    success
//   "0 +enrich:120 +x:80"  success, plus the fused stages it ran and their time
//   "CODE REASON"          CODE a non-zero integer: the message failed
//   "75 REASON"            try again later
struct FusedRun
{
    QString stage;
    qint64 usec = 0;
    bool operator==(const FusedRun &) const = default;
};

struct StatusLine
{
    static constexpr int TryLater = 75; // EX_TEMPFAIL
    static constexpr int MaxReasonBytes = 1000;

    int code = 0;
    // Empty on success. Storable as it is: invalid UTF-8 and control
    // characters (NUL included) replaced, at most MaxReasonBytes of UTF-8.
    QString reason;
    QList<FusedRun> fused;

    bool succeeded() const { return code == 0; }
    bool operator==(const StatusLine &) const = default;
};

// The error is a reason ready for state.dispatch_error after "protocol error: ".
Result<StatusLine, QString> parseStatusLine(QByteArrayView line);

// Whether a line still being written can become a status line: false once
// its start cannot be a code (a worker writing garbage without a newline).
bool couldBeStatusLine(QByteArrayView head);

// A line cut to a loggable size, with invalid UTF-8 replaced.
QString quoteForLog(QByteArrayView line, qsizetype maxBytes = 200);

} // namespace pepsi
