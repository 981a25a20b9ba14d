// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "control/protocol.h"
#include "result.h"

#include <QIODevice>
#include <QList>
#include <QString>

namespace pepsi::ctl {

// The ids of `requeue … --ids -`, as postsuper -r - reads queue ids: one per
// line on stdin (blank lines skipped), all read and checked before anything is
// sent, so that a bad line moves nothing. They go out in batches that the
// daemon accepts (at most MaxRequeueIds) and that fit in one request line
// whatever the ids (BatchSize × 20 bytes of the longest id and its comma).
class RequeueFeed
{
public:
    static constexpr int BatchSize = 2000;
    static_assert(BatchSize <= protocol::MaxRequeueIds);
    static_assert(qsizetype(BatchSize) * 20 + 200 < protocol::MaxLine);
    // The most ids one run takes (16 MB of them in memory): more is an error,
    // so a runaway producer cannot exhaust memory.
    static constexpr qsizetype MaxIds = qsizetype(2) * 1000 * 1000;

    // Reads `in` to its end. The error is one line naming the line number.
    static Result<RequeueFeed, QString> read(QIODevice &in);

    qsizetype size() const { return m_ids.size(); }
    qsizetype batchCount() const { return (m_ids.size() + BatchSize - 1) / BatchSize; }
    QList<qint64> batch(qsizetype index) const { return m_ids.mid(index * BatchSize, BatchSize); }

private:
    QList<qint64> m_ids;
};

} // namespace pepsi::ctl
