// SPDX-License-Identifier: AGPL-3.0-or-later
// A worker's status line, fused-stage reports included. Whatever a worker
// writes, the parser returns a status or a protocol error, and a reason it
// keeps is one PostgreSQL can store: valid UTF-8, no control characters, at
// most StatusLine::MaxReasonBytes bytes (doc/stage-programs.rst, "The worker protocol").
#include "protocol/statusline.h"

#include <cstdint>
#include <cstdlib>

using namespace pepsi;

namespace {

void check(bool ok)
{
    if (!ok)
        std::abort();
}

bool storable(const QString &text)
{
    for (const QChar c : text) {
        if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            return false;
    }
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArrayView line(reinterpret_cast<const char *>(data), qsizetype(size));
    const auto status = parseStatusLine(line);
    if (!status) {
        check(storable(status.error()));
        return 0;
    }
    check(status->reason.toUtf8().size() <= StatusLine::MaxReasonBytes);
    check(storable(status->reason));
    check(status->succeeded() || status->fused.isEmpty()); // only a success reports fused runs
    for (const FusedRun &run : status->fused)
        check(!run.stage.isEmpty() && run.usec >= 0);
    check(storable(quoteForLog(line)));
    return 0;
}
