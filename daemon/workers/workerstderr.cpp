// SPDX-License-Identifier: AGPL-3.0-or-later
#include "workers/workerstderr.h"

#include "model/logcategories.h"
#include "protocol/statusline.h"

#include <algorithm>

namespace pepsi {

namespace {

// A logged line shows at most this much of the worker's line ...
constexpr qsizetype MaxLineBytes = 2000;
// ... and at most this many lines a second are logged per worker; the rest
// are counted and the count logged.
constexpr int MaxLinesPerSecond = 50;
constexpr std::chrono::milliseconds Window{1000};

} // namespace

WorkerStderr::WorkerStderr(const QString &stage, QObject *parent)
    : QObject(parent)
    , m_stage(stage)
    , m_lines(MaxLineBytes)
{
    m_window.setSingleShot(true);
    connect(&m_window, &QTimer::timeout, this, &WorkerStderr::logDropped);
}

void WorkerStderr::feed(QByteArrayView data)
{
    m_lines.feed(data, [this](QByteArrayView line, bool cut) {
        logLine(line, cut);
        return true;
    });
}

void WorkerStderr::finish()
{
    if (!m_lines.pending().isEmpty())
        logLine(m_lines.pending(), m_lines.pendingCut());
    m_lines.clear();
    logDropped();
}

QString WorkerStderr::lastLine() const { return quoteForLog(m_lastLine); }

void WorkerStderr::logLine(QByteArrayView line, bool cut)
{
    m_lastLine = line.first(std::min<qsizetype>(line.size(), 200)).toByteArray();
    if (!m_window.isActive()) {
        m_window.start(Window);
        m_linesInWindow = 0;
    }
    if (++m_linesInWindow > MaxLinesPerSecond) {
        ++m_dropped;
        return;
    }
    qCInfo(lcWorker).noquote() << "stage" << m_stage << "pid" << m_pid << "stderr:"
                               << quoteForLog(line, MaxLineBytes) + (cut ? QStringLiteral("…") : QString());
}

void WorkerStderr::logDropped()
{
    if (m_dropped == 0)
        return;
    qCWarning(lcWorker).noquote() << "stage" << m_stage << "pid" << m_pid << "stderr:" << m_dropped
                                  << "lines dropped (more than" << MaxLinesPerSecond << "a second)";
    m_dropped = 0;
}

} // namespace pepsi
