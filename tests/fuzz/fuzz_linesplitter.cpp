// SPDX-License-Identifier: AGPL-3.0-or-later
// The worker stdout/stderr line splitter fed arbitrary chunking. Whatever the
// worker writes and however the pipe cuts it into reads, the splitter yields
// exactly the lines of a reference split of the whole output (each line's
// head of at most the bound, "cut" when it was longer), holds at most the
// bound of an unfinished line, and the result does not depend on the reads.
//
// Input: byte 0 picks the bound (the real 16 KiB status-line and 2000-byte
// stderr bounds, or a small one so that short inputs reach the cut), bytes
// 1..2 seed the chunk sizes, the rest is what the worker writes.
#include "workers/linesplitter.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <cstdint>
#include <cstdlib>

using namespace pepsi;

namespace {

// The bounds of daemon/workers/workerprocess.cpp (MaxStatusLineBytes,
// MaxStderrLineBytes); small ones make the cut reachable with short inputs.
constexpr qsizetype StatusBound = qsizetype(16) * 1024;
constexpr qsizetype StderrBound = 2000;

struct Line
{
    QByteArray head;
    bool cut = false;
    bool operator==(const Line &) const = default;
};

struct Split
{
    QList<Line> lines;
    QByteArray pending;
    bool pendingCut = false;
};

void check(bool ok)
{
    if (!ok)
        std::abort();
}

// The specification, written the obvious way over the whole output.
Split referenceSplit(QByteArrayView output, qsizetype bound)
{
    Split split;
    for (;;) {
        const qsizetype newline = output.indexOf('\n');
        const QByteArrayView line = newline < 0 ? output : output.first(newline);
        const QByteArray head = line.first(std::min(bound, line.size())).toByteArray();
        if (newline < 0) {
            split.pending = head;
            split.pendingCut = line.size() > bound;
            return split;
        }
        split.lines.append(Line{head, line.size() > bound});
        output = output.sliced(newline + 1);
    }
}

// Cuts `output` into reads whose sizes come from a small PRNG seeded by the
// input: mostly short reads, sometimes long ones, so that both the
// byte-at-a-time and the many-lines-per-read paths run. Seed 0: one read.
Split chunkedSplit(QByteArrayView output, qsizetype bound, uint32_t seed)
{
    LineSplitter splitter(bound);
    Split split;
    uint32_t state = seed | 1;
    while (!output.isEmpty()) {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        const qsizetype read = seed == 0 ? output.size() : (state & 0x100) ? 1 + (state % 4096) : 1 + (state % 7);
        const qsizetype size = std::min(output.size(), read);
        splitter.feed(output.first(size), [&](QByteArrayView head, bool cut) {
            check(head.size() <= bound);
            split.lines.append(Line{head.toByteArray(), cut});
            return true;
        });
        // Memory stays bounded: what waits for a newline is at most the bound.
        check(splitter.pending().size() <= bound);
        output = output.sliced(size);
    }
    split.pending = splitter.pending().toByteArray();
    split.pendingCut = splitter.pendingCut();
    return split;
}

void checkEqual(const Split &a, const Split &b)
{
    check(a.lines == b.lines);
    check(a.pending == b.pending);
    check(a.pendingCut == b.pendingCut);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    const qsizetype bound = data[0] == 0 ? StatusBound : data[0] == 1 ? StderrBound : 1 + data[0] % 40;
    const uint32_t seed = uint32_t(data[1]) << 8 | data[2];
    const QByteArrayView output(reinterpret_cast<const char *>(data + 3), qsizetype(size - 3));

    const Split expected = referenceSplit(output, bound);
    // Two different chunkings and one read for everything: all agree with the reference.
    checkEqual(chunkedSplit(output, bound, seed | 0x10000), expected);
    checkEqual(chunkedSplit(output, bound, (seed + 1) * 2654435761U), expected);
    checkEqual(chunkedSplit(output, bound, 0), expected);
    return 0;
}
