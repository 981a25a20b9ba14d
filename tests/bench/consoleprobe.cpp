// SPDX-License-Identifier: AGPL-3.0-or-later
#include "consoleprobe.h"

#include "benchcommon.h"

#include "control/protocol.h"
#include "control/snapshotcodec.h"

#include <QIODevice>
#include <QJsonDocument>
#include <QJsonObject>

namespace pepsi::bench {

using namespace protocol;

ConsoleProbe::ConsoleProbe(const transport::Target &target, int intervalMs, QObject *parent)
    : QObject(parent)
    , m_channel(target)
{
    m_pace.setInterval(intervalMs);
    connect(&m_pace, &QTimer::timeout, this, &ConsoleProbe::send);
    connect(&m_channel, &transport::ControlChannel::connected, this, [this] {
        m_open = true;
        QTimer::singleShot(m_offsetMs, this, [this] {
            if (m_error.isEmpty())
                m_pace.start();
        });
    });
    connect(&m_channel, &transport::ControlChannel::readyRead, this, &ConsoleProbe::onReadyRead);
    connect(&m_channel, &transport::ControlChannel::closed, this, [this](const QString &why) {
        m_error = QStringLiteral("the stream closed %1").arg(why);
        m_pace.stop();
    });
    connect(&m_channel, &transport::ControlChannel::failed, this, [this](const QString &why) {
        m_error = QStringLiteral("cannot connect: %1").arg(why);
        m_pace.stop();
    });
}

ConsoleProbe::~ConsoleProbe() { m_channel.disconnect(this); }

void ConsoleProbe::start(int offsetMs)
{
    m_offsetMs = offsetMs;
    m_channel.open();
}

QList<double> ConsoleProbe::take()
{
    m_skipped = 0;
    return std::exchange(m_samples, {});
}

void ConsoleProbe::send()
{
    if (m_waiting) {
        ++m_skipped;
        return;
    }
    const QJsonObject request{{field::Id, m_nextId++}, {field::Cmd, QString(cmd::Status)}};
    m_waiting = true;
    m_clock.start();
    m_channel.device()->write(QJsonDocument(request).toJson(QJsonDocument::Compact) + '\n');
}

void ConsoleProbe::onReadyRead()
{
    if (!readLines(m_channel, m_framer, [this](QByteArrayView line) { return onLine(line); })) {
        m_error = QStringLiteral("a line over %1 bytes").arg(MaxLine);
        m_pace.stop();
    }
}

bool ConsoleProbe::onLine(QByteArrayView line)
{
    const double ms = double(m_clock.nsecsElapsed()) / 1e6;
    m_waiting = false;
    // Decoded after the clock stopped: a broken reply is an error, not a figure.
    const QJsonObject reply = QJsonDocument::fromJson(line.toByteArray()).object();
    if (!reply.value(field::Ok).toBool() || statusFromJson(reply.value(field::Result).toObject()).pools.isEmpty()) {
        m_error = QStringLiteral("a status reply not ok or without stages");
        m_pace.stop();
        return false;
    }
    m_samples.append(ms);
    return true;
}

} // namespace pepsi::bench
