// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <chrono>
#include <memory>
#include <optional>

class QLocalSocket;
class QThread;

namespace pepsi::bench {

using BenchClock = std::chrono::steady_clock;

// One request a poller sends again and again: `line` (a JSON object, no
// newline) every `every`, the first right after it connected.
struct PollRequest
{
    QString name; // for the report: "status", "workers"
    QByteArray line;
    std::chrono::milliseconds every;
};

// One reply as the poller saw it.
struct PollSample
{
    QString name;
    BenchClock::time_point sent;
    double latencyMs = 0; // request written -> its reply's line complete
    qint64 bytes = 0;     // the reply line with its newline
    bool ok = false;      // "ok": true
};

class PollerWorker;

// A client of the control socket that polls as pepsi-console does, in a
// thread of its own so that the driver's blocking waits never delay it (a
// late request or a late read would count as the daemon's latency). It speaks
// the JSON-lines protocol of doc/control-protocol.rst: requests in, replies
// in request order.
class ControlPoller
{
public:
    ControlPoller(const QString &socketPath, const QList<PollRequest> &schedule);
    ~ControlPoller();
    ControlPoller(const ControlPoller &) = delete;
    ControlPoller &operator=(const ControlPoller &) = delete;

    // Connects and starts the timers; the error when it could not connect.
    std::optional<QString> start();
    // Stops the timers and the thread (replies still due are not waited for).
    void stop();

    // After stop(): every reply, in the order they came.
    const QList<PollSample> &samples() const;
    // After stop(): what went wrong on the connection, empty when nothing did.
    QString error() const;

private:
    std::unique_ptr<QThread> m_thread;
    std::unique_ptr<PollerWorker> m_worker;
};

// One request on its own blocking connection, for the driver's thread.
struct OneReply
{
    QByteArray line;  // without its newline
    qint64 bytes = 0; // with it
    bool ok = false;
    QString error; // "ok": false -> the daemon's error; no reply -> why
};
OneReply askOnce(QLocalSocket &socket, const QByteArray &request, int timeoutMs = 30'000);

// Connects `socket` to the daemon's control socket, retrying until it
// listens or `timeoutMs` passed; false when it never did.
bool connectWhenListening(QLocalSocket &socket, const QString &path, int timeoutMs);

// Nearest-rank percentile of sorted values (p in 0..1); 0 when empty.
double percentile(const QList<double> &sorted, double p);

} // namespace pepsi::bench
