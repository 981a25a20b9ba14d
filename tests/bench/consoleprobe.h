// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "control/lineframer.h"
#include "transport/controlchannel.h"

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QString>
#include <QTimer>

namespace pepsi::bench {

// A paced `status` client of one daemon, beside whatever else talks to it
// (pepsi-bench-console): every interval it asks `status` unless the last one
// is still unanswered, and keeps each round trip (request written -> its
// reply's line complete). Paced rather than back to back, so that the probe
// itself weighs the same on the daemon whoever else watches it; what it sees
// is how long the daemon keeps a request waiting behind the others' work.
class ConsoleProbe : public QObject
{
    Q_OBJECT

public:
    ConsoleProbe(const transport::Target &target, int intervalMs, QObject *parent = nullptr);
    ~ConsoleProbe() override;

    // Opens the stream; the first request goes `offsetMs` after it opened, so
    // that probes of several daemons take turns rather than queue together.
    void start(int offsetMs = 0);
    bool isOpen() const { return m_open; }
    // The round trips since the last take, in milliseconds, and forgets them.
    QList<double> take();
    // Ticks that found the previous request still unanswered, since the last take.
    int skipped() const { return m_skipped; }
    // Empty while all is well.
    QString error() const { return m_error; }

private:
    void send();
    void onReadyRead();
    bool onLine(QByteArrayView line);

    transport::ControlChannel m_channel;
    protocol::LineFramer m_framer;
    QTimer m_pace;
    QElapsedTimer m_clock;
    QList<double> m_samples;
    qint64 m_nextId = 1;
    int m_skipped = 0;
    bool m_open = false;
    bool m_waiting = false;
    int m_offsetMs = 0;
    QString m_error;
};

} // namespace pepsi::bench
