// SPDX-License-Identifier: AGPL-3.0-or-later
#include "bridgeprobe.h"

#include "benchcommon.h"

#include "control/protocol.h"
#include "control/snapshotcodec.h"

#include <QEventLoop>
#include <QIODevice>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>

namespace pepsi::bench {

using namespace protocol;

BridgeProbe::BridgeProbe(const transport::Target &target, QObject *parent)
    : QObject(parent)
    , m_channel(target)
{
    connect(&m_channel, &transport::ControlChannel::connected, this, [this] {
        m_open = true;
        send();
    });
    connect(&m_channel, &transport::ControlChannel::readyRead, this, &BridgeProbe::onReadyRead);
    connect(&m_channel, &transport::ControlChannel::closed, this, [this](const QString &why) {
        stop(QStringLiteral("the stream closed%1").arg(why.isEmpty() ? QString() : QStringLiteral(": ") + why));
    });
    connect(&m_channel, &transport::ControlChannel::failed, this,
            [this](const QString &why) { stop(QStringLiteral("cannot connect: ") + why); });
}

BridgeProbe::~BridgeProbe() { m_channel.disconnect(this); }

Result<double, QString> BridgeProbe::open(int timeoutMs)
{
    QList<double> first;
    m_into = &first;
    m_left = 1;
    m_error.clear();
    QElapsedTimer setup;
    setup.start();
    m_channel.open();
    if (auto error = run(timeoutMs))
        return *error;
    return double(setup.nsecsElapsed()) / 1e6;
}

std::optional<QString> BridgeProbe::measure(int count, QList<double> *into, int timeoutMs)
{
    if (!m_open)
        return QStringLiteral("not open");
    m_into = into;
    m_left = count;
    m_error.clear();
    send();
    return run(timeoutMs);
}

std::optional<QString> BridgeProbe::run(int timeoutMs)
{
    QEventLoop loop;
    m_loop = &loop;
    QTimer deadline;
    deadline.setSingleShot(true);
    connect(&deadline, &QTimer::timeout, this,
            [this, timeoutMs] { stop(QStringLiteral("no reply within %1 ms").arg(timeoutMs)); });
    deadline.start(timeoutMs);
    if (m_left > 0 && m_error.isEmpty())
        loop.exec();
    m_loop = nullptr;
    if (!m_error.isEmpty())
        return m_error;
    return std::nullopt;
}

void BridgeProbe::send()
{
    const QJsonObject request{{field::Id, m_nextId++}, {field::Cmd, QString(cmd::Status)}};
    m_clock.start();
    m_channel.device()->write(QJsonDocument(request).toJson(QJsonDocument::Compact) + '\n');
}

void BridgeProbe::onReadyRead()
{
    if (!readLines(m_channel, m_framer, [this](QByteArrayView line) { return onLine(line); }))
        stop(QStringLiteral("a line over %1 bytes").arg(MaxLine));
}

bool BridgeProbe::onLine(QByteArrayView line)
{
    const double ms = double(m_clock.nsecsElapsed()) / 1e6;
    const QJsonObject reply = QJsonDocument::fromJson(line.toByteArray()).object();
    if (reply.contains(field::Event))
        return true;
    if (!reply.value(field::Ok).toBool()) {
        stop(QStringLiteral("status refused: %1").arg(reply.value(field::Error).toString()));
        return false;
    }
    if (statusFromJson(reply.value(field::Result).toObject()).pools.isEmpty()) {
        stop(QStringLiteral("a status reply without stages"));
        return false;
    }
    if (m_left <= 0) {
        stop(QStringLiteral("a reply to no request"));
        return false;
    }
    m_into->append(ms);
    if (--m_left > 0)
        send();
    else if (m_loop)
        m_loop->quit();
    return true;
}

void BridgeProbe::stop(const QString &error)
{
    if (!error.isEmpty() && m_error.isEmpty())
        m_error = error;
    if (m_loop)
        m_loop->quit();
}

} // namespace pepsi::bench
