// SPDX-License-Identifier: AGPL-3.0-or-later
#include "controlpoller.h"

#include <QDeadlineTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocalSocket>
#include <QMetaObject>
#include <QQueue>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <cmath>

namespace pepsi::bench {

namespace {

bool replyOk(const QByteArray &line, QString *error)
{
    const QJsonObject reply = QJsonDocument::fromJson(line).object();
    const bool ok = reply.value(QStringLiteral("ok")).toBool();
    if (!ok && error)
        *error = reply.isEmpty() ? QStringLiteral("not a JSON object: ") + QString::fromUtf8(line.left(100))
                                 : reply.value(QStringLiteral("error")).toString();
    return ok;
}

} // namespace

// Lives in the poller's thread: the socket, the timers and the replies due.
class PollerWorker : public QObject
{
public:
    PollerWorker(const QString &path, const QList<PollRequest> &schedule)
        : m_path(path)
        , m_schedule(schedule)
    { }

    // In the poller's thread.
    std::optional<QString> begin()
    {
        m_socket = new QLocalSocket(this);
        if (!connectWhenListening(*m_socket, m_path, 5000))
            return QStringLiteral("cannot connect to %1: %2").arg(m_path, m_socket->errorString());
        QObject::connect(m_socket, &QLocalSocket::readyRead, this, [this] { readReplies(); });
        QObject::connect(m_socket, &QLocalSocket::disconnected, this, [this] {
            if (m_error.isEmpty())
                m_error = QStringLiteral("the daemon closed the connection");
        });
        for (qsizetype i = 0; i < m_schedule.size(); ++i) {
            auto *timer = new QTimer(this);
            timer->setTimerType(Qt::PreciseTimer);
            QObject::connect(timer, &QTimer::timeout, this, [this, i] { send(i); });
            timer->start(m_schedule.at(i).every);
            m_timers << timer;
            send(i);
        }
        return std::nullopt;
    }

    // In the poller's thread.
    void end()
    {
        for (QTimer *timer : std::as_const(m_timers))
            timer->stop();
        if (m_socket) {
            m_socket->disconnect(this);
            m_socket->abort();
        }
    }

    QList<PollSample> samples;
    QString m_error;

private:
    void send(qsizetype index)
    {
        if (m_socket->state() != QLocalSocket::ConnectedState)
            return;
        m_due.enqueue({index, BenchClock::now()});
        m_socket->write(m_schedule.at(index).line + '\n');
        m_socket->flush();
    }

    void readReplies()
    {
        while (m_socket->canReadLine()) {
            const QByteArray line = m_socket->readLine();
            const auto now = BenchClock::now();
            if (line.startsWith("{\"event\""))
                continue; // events are not replies (none are asked for)
            if (m_due.isEmpty()) {
                m_error = QStringLiteral("a reply nobody asked for: ") + QString::fromUtf8(line.left(100));
                continue;
            }
            const auto [index, sent] = m_due.dequeue();
            PollSample sample;
            sample.name = m_schedule.at(index).name;
            sample.sent = sent;
            sample.latencyMs = std::chrono::duration<double, std::milli>(now - sent).count();
            sample.bytes = line.size();
            sample.ok = replyOk(line.trimmed(), nullptr);
            samples.append(sample);
        }
    }

    QString m_path;
    QList<PollRequest> m_schedule;
    QLocalSocket *m_socket = nullptr;
    QList<QTimer *> m_timers;
    QQueue<std::pair<qsizetype, BenchClock::time_point>> m_due;
};

ControlPoller::ControlPoller(const QString &socketPath, const QList<PollRequest> &schedule)
    : m_thread(std::make_unique<QThread>())
    , m_worker(std::make_unique<PollerWorker>(socketPath, schedule))
{
    m_thread->setObjectName(QStringLiteral("control-poller"));
}

ControlPoller::~ControlPoller() { stop(); }

std::optional<QString> ControlPoller::start()
{
    m_worker->moveToThread(m_thread.get());
    m_thread->start();
    std::optional<QString> error;
    QMetaObject::invokeMethod(
        m_worker.get(), [this, &error] { error = m_worker->begin(); }, Qt::BlockingQueuedConnection);
    return error;
}

void ControlPoller::stop()
{
    if (!m_thread->isRunning())
        return;
    QMetaObject::invokeMethod(
        m_worker.get(),
        [this] {
            m_worker->end();
            // Back to the driver's thread, where the worker is destroyed.
            m_worker->moveToThread(m_thread->thread());
        },
        Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
}

const QList<PollSample> &ControlPoller::samples() const { return m_worker->samples; }

QString ControlPoller::error() const { return m_worker->m_error; }

OneReply askOnce(QLocalSocket &socket, const QByteArray &request, int timeoutMs)
{
    OneReply reply;
    socket.write(request + '\n');
    const QDeadlineTimer deadline(timeoutMs);
    while (!socket.canReadLine()) {
        if (socket.state() != QLocalSocket::ConnectedState || deadline.hasExpired()) {
            reply.error = socket.state() != QLocalSocket::ConnectedState
                ? QStringLiteral("the daemon closed the connection")
                : QStringLiteral("no reply within %1 ms").arg(timeoutMs);
            return reply;
        }
        if (socket.bytesToWrite() > 0)
            socket.waitForBytesWritten(int(std::max<qint64>(1, deadline.remainingTime())));
        else
            socket.waitForReadyRead(int(std::max<qint64>(1, deadline.remainingTime())));
    }
    const QByteArray line = socket.readLine();
    reply.bytes = line.size();
    reply.line = line.trimmed();
    reply.ok = replyOk(reply.line, &reply.error);
    return reply;
}

bool connectWhenListening(QLocalSocket &socket, const QString &path, int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    for (;;) {
        socket.connectToServer(path);
        if (socket.waitForConnected(int(std::max<qint64>(1, deadline.remainingTime()))))
            return true;
        if (deadline.hasExpired())
            return false;
        // Not there yet: the daemon is still starting. Look again shortly.
        QThread::msleep(50);
    }
}

double percentile(const QList<double> &sorted, double p)
{
    if (sorted.isEmpty())
        return 0;
    const auto rank = qsizetype(std::ceil(p * double(sorted.size())));
    return sorted.at(std::clamp<qsizetype>(rank - 1, 0, sorted.size() - 1));
}

} // namespace pepsi::bench
