// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "workers/linesplitter.h"

#include <QByteArray>
#include <QObject>
#include <QString>
#include <QTimer>

namespace pepsi {

// A worker's stderr in the daemon's log: line by line, each cut to a bounded
// length, at most so many lines a second (the rest counted, and the count
// logged). Keeps its last line, which a failed start quotes.
class WorkerStderr : public QObject
{
    Q_OBJECT

public:
    WorkerStderr(const QString &stage, QObject *parent);

    void setPid(qint64 pid) { m_pid = pid; }
    // What the process wrote to stderr since the last call.
    void feed(QByteArrayView data);
    // The process is gone: log the line it did not end, and what was dropped.
    void finish();
    // Nothing more is logged for it.
    void stop() { m_window.stop(); }
    // Its last line, quoted and cut for the log; empty: none.
    QString lastLine() const;

private:
    void logLine(QByteArrayView line, bool cut);
    void logDropped();

    QString m_stage;
    qint64 m_pid = 0;
    LineSplitter m_lines;
    QByteArray m_lastLine;
    QTimer m_window;
    int m_linesInWindow = 0;
    qint64 m_dropped = 0;
};

} // namespace pepsi
