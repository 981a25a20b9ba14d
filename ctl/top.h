// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QObject>
#include <QTimer>
#include <chrono>
#include <optional>
#include <termios.h>

class QSocketNotifier;

namespace pepsi::ctl {

class Client;
class Interrupt;

// `pepsi-ctl top`: a `status` every interval through the one connection,
// shown as views::topFrame(). On a terminal each frame replaces the last
// (ANSI home and clear, no curses) and `q` quits, stdin read key by key
// (termios, restored on every way out); elsewhere the frames follow one
// another, for a pipe or a log. Ctrl-C or SIGTERM (Interrupt) ends it with
// exit 0 either way. One request at a time: the next is asked for an
// interval after the last reply, so a slow daemon is never asked twice.
class Top : public QObject
{
    Q_OBJECT

public:
    Top(Client &client, std::chrono::milliseconds interval, QObject *parent = nullptr);
    ~Top() override;
    // The connection is up and its protocol checked. False (with the reason
    // on stderr) when the signals cannot be caught.
    bool start();

Q_SIGNALS:
    // 0: quit or interrupted; 1: the daemon refused a status.
    void finished(int exitStatus);

private:
    void ask();
    void onKey();
    void finish(int status);
    void restoreTerminal();

    Client &m_client;
    std::chrono::milliseconds m_interval;
    QTimer m_next; // single shot: the next status
    Interrupt *m_interrupt = nullptr;
    QSocketNotifier *m_keys = nullptr;
    std::optional<termios> m_savedTerminal; // set while stdin is in raw mode
    bool m_onTerminal = false;
    bool m_done = false;
};

} // namespace pepsi::ctl
