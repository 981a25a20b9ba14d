// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QObject>
#include <QThread>
#include <functional>
#include <optional>

namespace pepsi {

class ControlServer;
class DispatchBoard;
class DispatchControl;
class DispatchMirror;
class DispatchView;

// The control socket on a thread of its own: a ControlServer over a
// DispatchMirror of the dispatcher. A client's `status` is answered from the
// board the dispatch loop publishes, never from inside the loop, which may be
// waiting on a claim or a commit (tens of milliseconds on a busy server).
//
// Made and destroyed on the dispatch loop's thread; `loopView` and
// `loopControl` live there and outlive this, as does `board`. Nothing on the
// control thread ever waits for the loop, so the blocking calls below cannot
// deadlock.
class ControlThread : public QObject
{
    Q_OBJECT

public:
    ControlThread(DispatchView &loopView, DispatchControl &loopControl, const DispatchBoard &board,
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
    DispatchMirror *m_mirror = nullptr;
    ControlServer *m_server = nullptr;
};

} // namespace pepsi
