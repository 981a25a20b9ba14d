// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "transport/target.h"

#include <QByteArray>
#include <QObject>
#include <QPointer>

class QIODevice;
class QLocalSocket;
class QProcess;

namespace pepsi::transport {

// One byte stream to a daemon's control socket, whatever the target: a
// QLocalSocket for a path, the system's ssh (SshCommand) running
// `pepsi-ctl bridge` on the far host for an ssh:// target. The client reads
// and writes device() (JSON lines, as on the socket itself) and hears only
// these signals, so pepsi-ctl and the console speak the protocol the same way
// over either. For ssh, connected() means ssh runs and takes what is written;
// a refused key or an unknown host key shows as closed() with ssh's message.
class ControlChannel : public QObject
{
    Q_OBJECT

public:
    // What the destructor does with an ssh still running: Wait (the default,
    // for a program about to exit, such as pepsi-ctl) closes its stdin and
    // waits for it to end, killing it after SshReaper::GraceMs; Background
    // (for a GUI) leaves the same to SshReaper and returns at once.
    enum class Teardown { Wait, Background };

    explicit ControlChannel(Target target, QObject *parent = nullptr);
    ~ControlChannel() override;

    void setTeardown(Teardown teardown) { m_teardown = teardown; }

    const Target &target() const { return m_target; }
    void open();
    // Valid from open() on; read and write it as a socket.
    QIODevice *device() const;
    // Ends the stream at once: the socket aborted, ssh's stdin closed and ssh ended.
    void abort();

Q_SIGNALS:
    void connected();
    void readyRead();
    // The other end went away after connected(). `why` is empty for a plain
    // close (the daemon closed its end, ssh ended quietly), else what ssh or
    // the far host said (the last lines of ssh's stderr) or how ssh ended.
    void closed(const QString &why);
    // The stream could not be opened (the socket's error; ssh not started),
    // or broke in a way that is not a close.
    void failed(const QString &why);

private:
    void openSocket();
    void openSsh();
    void onSshFinished(int exitCode, int exitStatus);
    void end(bool isFailure, const QString &why);

    Target m_target;
    QPointer<QLocalSocket> m_socket;
    QPointer<QProcess> m_ssh;
    QByteArray m_sshErrors; // the tail of ssh's stderr, for the message
    Teardown m_teardown = Teardown::Wait;
    bool m_connected = false;
    bool m_ended = false;
};

} // namespace pepsi::transport
