// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "control/lineframer.h"
#include "result.h"
#include "transport/controlchannel.h"

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QString>

#include <optional>

class QEventLoop;

namespace pepsi::bench {

// `status` round trips over one transport::ControlChannel, as pepsi-console
// and `pepsi-ctl top` use it: one stream (a local socket, or one ssh session
// with `pepsi-ctl bridge` at its far end) and many requests, each sent once
// the reply to the one before has come. A round trip is the request written
// -> its reply's line complete; the reply is decoded with the shared codec
// after the clock stops, so that a broken one counts as an error, not a figure.
class BridgeProbe : public QObject
{
    Q_OBJECT

public:
    explicit BridgeProbe(const transport::Target &target, QObject *parent = nullptr);
    ~BridgeProbe() override;

    // Opens the stream and asks one `status`: milliseconds from open() to its
    // reply (for ssh: the session's set-up included), or why it failed.
    Result<double, QString> open(int timeoutMs);
    // `count` round trips, appended to `into` in milliseconds; the error when
    // the stream broke, a reply was not ok or did not come within timeoutMs.
    std::optional<QString> measure(int count, QList<double> *into, int timeoutMs);

private:
    void send();
    void onReadyRead();
    bool onLine(QByteArrayView line);
    void stop(const QString &error = {});
    std::optional<QString> run(int timeoutMs);

    transport::ControlChannel m_channel;
    protocol::LineFramer m_framer;
    QElapsedTimer m_clock;
    QList<double> *m_into = nullptr;
    QEventLoop *m_loop = nullptr;
    int m_left = 0;
    qint64 m_nextId = 1;
    QString m_error;
    bool m_open = false;
};

} // namespace pepsi::bench
