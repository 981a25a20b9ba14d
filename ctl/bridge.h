// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "control/lineframer.h"
#include "socketlocation.h"

#include <QByteArray>
#include <QLocalSocket>
#include <QObject>

class QSocketNotifier;

namespace pepsi::ctl {

// `pepsi-ctl bridge`: the far end of an ssh:// target (doc/operations.rst,
// "Watching several systems"). It relays JSON lines between its stdin/stdout
// (ssh's session) and the local control socket and does nothing else: the
// daemon sees the bridge's own peer credentials, so the ssh login's account
// decides what may be done. Each direction goes through a LineFramer, so a
// line over the limit from either side ends the bridge (exit 65) instead of
// being passed on; a client that stops reading its stdout ends it (exit 74).
// Event-driven: notifiers on fds 0 and 1, the socket's signals;
// either side closing ends it (stdin's end once what it sent is written).
class Bridge : public QObject
{
    Q_OBJECT

public:
    explicit Bridge(SocketLocation where, QObject *parent = nullptr);
    ~Bridge() override;
    void start();

Q_SIGNALS:
    void finished(int exitStatus);

private:
    void onStdinReadable();
    void onStdoutWritable();
    void onSocketReadable();
    void onSocketGone();
    void writeOut();
    void finishOnceFlushed();
    void finish(int status, const QString &error = {});

    SocketLocation m_where;
    QLocalSocket m_socket;
    QSocketNotifier *m_in = nullptr;
    QSocketNotifier *m_out = nullptr;
    protocol::LineFramer m_fromClient;
    protocol::LineFramer m_fromDaemon;
    QByteArray m_toClient; // lines for stdout not yet written
    bool m_connected = false;
    bool m_stdinEnded = false;
    bool m_socketGone = false;
    bool m_done = false;
};

} // namespace pepsi::ctl
