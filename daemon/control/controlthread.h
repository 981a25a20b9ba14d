// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QObject>
#include <QThread>
#include <functional>
#include <optional>

namespace pepsi {

class ControlServer;
class DispatchBoard;
class DispatchPort;
class OperatorQueries;

// The control socket on a thread of its own: a ControlServer that reads the
// DispatchBoard the dispatch loop publishes, acts through the loop's
// DispatchPort, and sends the operator's reads straight to the database. A
// client's `status` is never answered from inside the loop, which may be
// waiting on a claim or a commit (tens of milliseconds on a busy server).
//
// Made and destroyed on the dispatch loop's thread; `board`, `port` and
// `operatorQueries` outlive this. The loop's thread waits for the control
// thread in the calls below, so the control thread never waits for the loop
// for long: a board reader waits at most DispatchBoard::MaxWaitMs for a new
// picture, then takes the older one.
class ControlThread : public QObject
{
    Q_OBJECT

public:
    ControlThread(const DispatchBoard &board, DispatchPort &port, OperatorQueries &operatorQueries,
                  QObject *parent = nullptr);
    ~ControlThread() override;

    // ControlServer::listen on the control thread; waits for its answer.
    std::optional<QString> listen(const QString &path);
    bool isListening();
    // Runs `call` with the server on the control thread and waits: for set-up
    // (limits, admin uids) and for tests.
    void withServer(const std::function<void(ControlServer &)> &call);

Q_SIGNALS:
    // The server's, delivered on this object's thread.
    void clientCountChanged(int count);

private:
    void runThere(const std::function<void()> &call);

    QThread m_thread;
    QObject *m_home = nullptr; // lives on m_thread: what runThere() invokes on
    ControlServer *m_server = nullptr;
};

} // namespace pepsi
